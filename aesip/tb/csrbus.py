# SPDX-License-Identifier: Apache-2.0
"""cocotbext-axi AxiLiteMaster as the bus of the register driver aesip.csr.Csr (32-bit
registers); `last_resp` keeps the response of the last access (AxiResp) for tests of
illegal addresses."""
from __future__ import annotations

from cocotbext.axi import AxiLiteBus, AxiLiteMaster, AxiResp


class AxiLiteCsrBus:
    def __init__(self, dut, prefix: str = "s_axil"):
        self.master = AxiLiteMaster(AxiLiteBus.from_prefix(dut, prefix), dut.clk, dut.rst)
        for ch in (self.master.write_if, self.master.read_if):
            ch.log.setLevel("WARNING")
        self.last_resp = AxiResp.OKAY

    async def read(self, addr: int) -> int:
        r = await self.master.read(addr, 4)
        self.last_resp = r.resp
        return int.from_bytes(r.data, "little")

    async def write(self, addr: int, value: int) -> None:
        r = await self.master.write(addr, int(value).to_bytes(4, "little"))
        self.last_resp = r.resp

# SPDX-License-Identifier: Apache-2.0
"""Generated files must match their generators (no hand edits, no stale outputs):
the engine interface (data/mode_engine.yaml -> rtl/modes/aes_mode_if.vh, aesip/iface.py,
the tables in docs/mode_engine.md; aesip.gen_iface), the composite-field S-box
(rtl/common/aes_sbox_comp.v; aesip.gen_sbox_comp) and the block-RAM S-box table
(rtl/common/aes_sbox_bram_table.vh; aesip.gen_sbox_bram). Everything is regenerated in memory.
Plus checks of the spec itself against the documented layout and the RTL's port widths."""
from __future__ import annotations

import re

import pytest

from aesip import gen_csr, gen_iface, gen_sbox_bram, gen_sbox_comp, iface
from aesip.rtl import ROOT, RTL

OUTPUTS = gen_iface.generate()


@pytest.mark.parametrize("path", list(OUTPUTS), ids=lambda p: str(p.relative_to(ROOT)))
def test_iface_outputs_up_to_date(path):
    assert path.read_text() == OUTPUTS[path], \
        f"{path.relative_to(ROOT)} differs from data/mode_engine.yaml: run python -m aesip.gen_iface"


def test_sbox_comp_up_to_date():
    path = RTL / "common" / "aes_sbox_comp.v"
    assert path.read_text() == gen_sbox_comp.generate(), \
        f"{path.relative_to(ROOT)} differs from python -m aesip.gen_sbox_comp"


def test_sbox_bram_table_up_to_date():
    path = gen_sbox_bram.PATH
    assert path.read_text() == gen_sbox_bram.generate(), \
        f"{path.relative_to(ROOT)} differs from python -m aesip.gen_sbox_bram"


def test_check_mode_detects_drift(tmp_path, monkeypatch):
    """`--check` exits 1 when an output was edited by hand, 0 when all agree."""
    assert gen_iface.main(["--check"]) == 0
    hdr = tmp_path / "aes_mode_if.vh"
    hdr.write_text(OUTPUTS[gen_iface.HEADER].replace("4'd7", "4'd8"))
    monkeypatch.setattr(gen_iface, "HEADER", hdr)
    assert gen_iface.main(["--check"]) == 1


def test_spec_rejects_overlap():
    spec = gen_iface.load()
    f = spec["interfaces"]["mode_engine"]["beats"]["command"]["fields"]
    f[1]["lsb"] -= 1   # cut onto op
    with pytest.raises(ValueError):
        gen_iface.validate(spec)


def test_beat_widths_match_rtl_ports():
    """The beat widths of the spec are the widths of the RTL ports that carry them."""
    for name in ("aes_mode_engine", "aes_mode_multi", "aes_mode_lane", "tdea_mode_engine"):
        text = (RTL / "modes" / f"{name}.v").read_text()
        for port, width in (("s_axis_cmd_tdata", iface.CMD_W), ("m_axis_sts_tdata", iface.STS_W)):
            m = re.search(r"\[(\d+):0\]\s+" + port + r"\b", text)
            assert m and int(m.group(1)) + 1 == width, (name, port)


def test_pack_command_layout():
    """pack_command puts each field at the documented byte positions (docs/mode_engine.md:
    byte n of the beat = bits [8n+7:8n])."""
    iv, tag = bytes(range(1, 17)), bytes(range(0x81, 0x91))
    beat = iface.pack_command(op=iface.OPS["ccm-decrypt"], cut=1, slot=3, nonce_len=13, tag_len=8,
                              aad_len=0x0102, payload_len=0x030405, iv=int.from_bytes(iv, "little"),
                              tag=int.from_bytes(tag, "little"))
    assert len(beat) == 64
    assert beat[0] == 0x17 and beat[1] == 3 and beat[2] == 0x8D and beat[3] == 0
    assert beat[8:16] == (0x0102).to_bytes(8, "little") and beat[16:24] == (0x030405).to_bytes(8, "little")
    assert beat[24:40] == iv and beat[40:56] == tag and beat[56:] == bytes(8)
    with pytest.raises(ValueError):
        iface.pack_command(tag_len=32)
    err, value = iface.unpack_status(bytes(range(16)) + bytes([iface.ERR_AUTH]))
    assert (err, value) == (iface.ERR_AUTH, bytes(range(16)))


def test_ccmp_beat_widths_match_rtl_ports():
    """The 802.11 CCMP front end's sideband and status beats (interface `ccmp`) are as wide
    as the ports of ccmp_fe and ccmp_top that carry them."""
    from aesip import ccmp_iface

    for name in ("ccmp_fe", "ccmp_top"):
        text = (RTL / "proto" / f"{name}.v").read_text()
        for port, width in (("s_axis_cmd_tdata", ccmp_iface.CMD_W), ("m_axis_sts_tdata", ccmp_iface.STS_W)):
            m = re.search(r"\[(\d+):0\]\s+" + port + r"\b", text)
            assert m and int(m.group(1)) + 1 == width, (name, port)


def test_wimax_beat_widths_match_rtl_ports():
    """The 802.16e front end's sideband and status beats (interface `wimax`) are as wide as
    the ports of wimax_fe and wimax_top that carry them."""
    from aesip import wimax_iface

    for name in ("wimax_fe", "wimax_top"):
        text = (RTL / "proto" / f"{name}.v").read_text()
        for port, width in (("s_axis_cmd_tdata", wimax_iface.CMD_W), ("m_axis_sts_tdata", wimax_iface.STS_W)):
            m = re.search(r"\[(\d+):0\]\s+" + port + r"\b", text)
            assert m and int(m.group(1)) + 1 == width, (name, port)


def test_wpan_beat_widths_match_rtl_ports():
    """The 802.15.4 CCM* front end's sideband and status beats (interface `wpan`) are as
    wide as the ports of wpan_fe and wpan_top that carry them."""
    from aesip import wpan_iface

    for name in ("wpan_fe", "wpan_top"):
        text = (RTL / "proto" / f"{name}.v").read_text()
        for port, width in (("s_axis_cmd_tdata", wpan_iface.CMD_W), ("m_axis_sts_tdata", wpan_iface.STS_W)):
            m = re.search(r"\[(\d+):0\]\s+" + port + r"\b", text)
            assert m and int(m.group(1)) + 1 == width, (name, port)


def test_tdea_ops_family():
    """The TDEA ops are their own family: not among the AES engines' ops (which answer
    them with OP), every code in ALL_OPS, their CLI ops those of the contract."""
    assert set(iface.TDEA_OPS).isdisjoint(iface.OPS)
    assert {**iface.OPS, **iface.TDEA_OPS} == iface.ALL_OPS
    assert min(iface.TDEA_OPS.values()) > max(iface.OPS.values())
    assert set(iface.TDEA_CLI_OPS) == {"tdea-encrypt", "tdea-decrypt", "tdea-cbc-encrypt", "tdea-cbc-decrypt"}


# ---------------------------------------------------------------- register map (PeakRDL)
CSR_OUTPUTS = gen_csr.generate()


@pytest.mark.parametrize("path", list(CSR_OUTPUTS), ids=lambda p: str(p.relative_to(ROOT)))
def test_csr_outputs_up_to_date(path):
    """rdl/aesip_csr.rdl -> the CSR block, its package, the C header and the register table of
    docs/soc.md (aesip.gen_csr, PeakRDL) are regenerated in memory and compared."""
    assert path.read_text() == CSR_OUTPUTS[path], \
        f"{path.relative_to(ROOT)} differs from rdl/aesip_csr.rdl: run python -m aesip.gen_csr"


def test_csr_keys_write_only():
    """Keys can never be read back: every field of every key word is sw=w in the RDL (reads
    return 0), and no other register of a slot exposes key bits."""
    regs = gen_csr.register_map()
    keys = [n for n in regs if ".KEY[" in n]
    assert len(keys) == 8 * gen_csr.N_SLOTS
    for n in keys:
        assert all(f["sw"] == "w" for f in regs[n]["fields"].values()), f"{n} is readable"


def test_csr_check_mode_detects_drift(tmp_path, monkeypatch):
    assert gen_csr.main(["--check"]) == 0
    good = CSR_OUTPUTS[gen_csr.CHEADER]
    hdr = tmp_path / "aesip_csr.h"
    hdr.write_text(good.replace("0xae51", "0xae52"))   # a hand edit of the magic number
    monkeypatch.setattr(gen_csr, "generate", lambda n=4: {hdr: good})
    assert gen_csr.main(["--check"]) == 1


def test_csr_c_example_compiles(tmp_path):
    """The C example of docs/soc.md (bring-up, key load, zeroize, board loopback) compiles
    against the generated header sw/aesip_csr.h."""
    import shutil
    import subprocess

    cc = shutil.which("cc") or shutil.which("gcc")
    assert cc is not None, "no C compiler (Verilator needs one too: install gcc)"
    text = (ROOT / "docs" / "soc.md").read_text()
    code = re.search(r"```c\n(.*?)```", text, re.S).group(1)
    src = tmp_path / "example.c"
    src.write_text("#include <stdint.h>\n#define AESIP_BASE 0x40000000UL\n" + code +
                   "\nint use(const uint32_t *k) { int r = aes_bring_up(); aes_load_key(1, k, 16); aes_zeroize(); "
                   "return r + aes_board_test(1, 256, 100, 1); }\n")
    r = subprocess.run([cc, "-std=gnu11", "-Wall", "-Werror", "-fsyntax-only", f"-I{ROOT / 'sw'}", str(src)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr

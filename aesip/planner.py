# SPDX-License-Identifier: Apache-2.0
"""Request planning: turn jobs into executor commands (aesip.tb.engine_cli_tb for the mode
engine, aesip.tb.cli_tb for a bare block core), keeping keys resident in key slots.

SlotPlanner is the one key-slot planner: a key already held by a slot is not loaded
again; otherwise the least recently used slot that may be reloaded now is loaded with it
(a "key" command). Its two front ends:
  * EnginePlanner: one packet ("pkt") per job on the mode engine; every slot may be
    reloaded at any time, because the executor itself waits until no packet in flight
    uses the slot (docs/mode_engine.md, "Key slots in use");
  * BlockPlanner: whole blocks on a bare block core, streamed together in "blocks"
    commands; a slot used by blocks not yet streamed is busy, so when every slot is busy
    the pending blocks are flushed first.
Host side: no simulator, no cocotb.
"""
from __future__ import annotations

from aesip import runreq
from aesip.session import ENGINE_SLOTS


class SlotPlanner:
    def __init__(self, nslots: int):
        self.commands: list[dict] = []
        self.slot_key: list[bytes | None] = [None] * nslots
        self.lru = list(range(nslots))  # least recently used first

    def _victim(self) -> int:
        """The slot to load a new key into."""
        return self.lru[0]

    def slot_for(self, key: bytes) -> int:
        if key in self.slot_key:
            slot = self.slot_key.index(key)
        else:
            slot = self._victim()
            self.commands.append({"cmd": "key", "slot": slot, "key": key.hex()})
            self.slot_key[slot] = key
        self.lru.remove(slot)
        self.lru.append(slot)
        return slot


class EnginePlanner(SlotPlanner):
    """Mode-engine packets, streamed back to back (aesip.tb.engine_cli_tb)."""

    def __init__(self, nslots: int = ENGINE_SLOTS):
        super().__init__(nslots)

    def add(self, job: runreq.EngineJob) -> tuple[int, int | None]:
        """Queue `job`; returns the command index of its packet and of its key probe.

        A non-CCM packet with an empty payload never reaches the AES cores, so the
        hardware would not see an illegal key: such a request also sends a probe packet
        (ECB encryption of one zero block, same slot) whose status tells whether the
        slot's key is valid; the probe's data is discarded."""
        slot = self.slot_for(job.key)
        self.commands.append(job.packet(slot))
        pi, qi = len(self.commands) - 1, None
        if not job.is_ccm and not job.data:
            self.commands.append(runreq.EngineJob("encrypt", job.key, bytes(16)).packet(slot))
            qi = len(self.commands) - 1
        return pi, qi


class BlockPlanner(SlotPlanner):
    """Block jobs (key, whole-block data, direction) on a bare block core
    (aesip.tb.cli_tb): blocks of consecutive jobs whose keys are resident are streamed
    together; a slot is only reloaded when no pending block uses it."""

    def __init__(self, nslots: int):
        super().__init__(nslots)
        self.items: list[list] = []
        self.pending: list[tuple[int, int, int]] = []  # (job index, offset, count)
        self.busy: set[int] = set()
        self.placement: dict[int, tuple[int, int, int]] = {}  # job -> (command, offset, count)

    def _victim(self) -> int:
        free = [s for s in self.lru if s not in self.busy]
        if not free:
            self.flush()
            free = list(self.lru)
        return free[0]

    def flush(self) -> None:
        if not self.items:
            return
        ci = len(self.commands)
        self.commands.append({"cmd": "blocks", "items": self.items})
        for j, off, n in self.pending:
            self.placement[j] = (ci, off, n)
        self.items, self.pending, self.busy = [], [], set()

    def add(self, index: int, key: bytes, data: bytes, dec: bool) -> None:
        slot = self.slot_for(key)
        blocks = [data[k:k + 16] for k in range(0, len(data), 16)]
        self.pending.append((index, len(self.items), len(blocks)))
        self.items.extend([b.hex(), dec, slot] for b in blocks)
        self.busy.add(slot)

    def finish(self) -> list[dict]:
        self.flush()
        return self.commands

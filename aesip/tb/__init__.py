# SPDX-License-Identifier: Apache-2.0
"""cocotb-side helpers shared by the testbenches and the `aesip` CLI (they run inside
the simulator)."""

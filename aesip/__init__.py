# SPDX-License-Identifier: Apache-2.0
"""aesip: open AES engines in Verilog, with the Python tooling that runs and checks them."""
__version__ = "0.1.0"

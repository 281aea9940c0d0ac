# SPDX-License-Identifier: Apache-2.0
# aesip top-level Makefile. `make demo` and `make test` bootstrap .venv first.
PYTHON ?= python3
VENV   := .venv
VPY    := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
JOBS   ?= 2

.PHONY: all venv demo test soak lint formal synth bench docs csr clean

all: test

$(STAMP): requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install -q --upgrade pip
	$(VPY) -m pip install -q -r requirements.txt
	$(VPY) -m pip install -q --no-deps -e .
	touch $(STAMP)

venv: $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/aesip demo

test: $(STAMP)
	$(VPY) -m pytest -n $(JOBS) --dist worksteal --durations=25 tb

# Long randomized fail-closed soak (the security cases of tb/modes/test_aes_mode_engine.py
# and test_aes_mode_multi.py, whose test_soak is aesip/tb/engsoak.py): every op, key size
# and slot, tampered decryptions, gaps and backpressure, zeroize and rekey events; 100 000
# packets per mode engine on Verilator, 10 000 on Icarus (counts in the CASES tables).
# Each case prints a line "SOAK packets=... wrong=... lost=... duplicated=... hangs=...".
# Then the TDEA Monte Carlo CBC test on chan_engine / tdea_pipe with 40 outer iterations of
# 10 000 blocks (make test runs 2).
soak: $(STAMP)
	AESIP_SOAK=1 AESIP_SIM_TIMEOUT=0 AESIP_BUILD_DIR=$(CURDIR)/sim_build_soak $(VPY) -m pytest -n $(JOBS) tb/modes -k security
	@grep -H "^SOAK" sim_build_soak/aes_mode_*/test.log || true
	AESIP_MCT_OUTER=40 AESIP_SIM_TIMEOUT=0 AESIP_BUILD_DIR=$(CURDIR)/sim_build_soak $(VPY) -m pytest \
		"tb/modes/test_chan_engine.py::test_chan_engine[verilator-CORE=tdea-CH_W=4-LEN_W=20]"

# Formal proofs (docs/formal.md) at full depth; `make test` runs them at a bounded depth.
# AESIP_FORMAL_DEPTH=<n> overrides the depth of every proof.
formal: $(STAMP)
	AESIP_FORMAL_LEVEL=full $(VPY) -m pytest -n $(JOBS) tb/test_formal.py

lint: $(STAMP)
	$(VPY) -m pytest tb/test_lint.py

bench: $(STAMP)
	$(VENV)/bin/aesip bench

synth: $(STAMP)
	$(VENV)/bin/aesip synth --update-docs

# Documentation figures: render docs/figures/*.dot (graphviz-pure) and *.json (WaveDrom,
# yowasp-wavedrom) into the SVGs beside them (aesip/gen_docs.py; tb/test_docs.py checks them).
docs: $(STAMP)
	$(VPY) -m aesip.gen_docs

# Register map: compile rdl/aesip_csr.rdl with PeakRDL into the CSR block rtl/soc/aesip_csr*.sv,
# the C header sw/aesip_csr.h and the register table of docs/soc.md (aesip/gen_csr.py;
# tb/test_generated.py fails when they differ from the RDL).
csr: $(STAMP)
	$(VPY) -m aesip.gen_csr

clean:
	rm -rf sim_build sim_build_soak build syn/out .pytest_cache formal/build

# aesip top-level Makefile. `make demo` and `make test` bootstrap .venv first.
PYTHON ?= python3
VENV   := .venv
VPY    := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
JOBS   ?= 2

.PHONY: all venv demo test lint synth bench docs clean

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
	$(VPY) -m pytest -n $(JOBS) tb

lint: $(STAMP)
	$(VPY) -m pytest tb/test_lint.py

bench: $(STAMP)
	$(VENV)/bin/aesip bench

synth: $(STAMP)
	$(VENV)/bin/aesip synth --update-docs

clean:
	rm -rf sim_build build syn/out .pytest_cache

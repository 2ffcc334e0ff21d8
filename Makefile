# Two entry points, each makes its own .venv: `make run` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test browser lint bench clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/furnace demo

test: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy
	$(BIN)/lint-imports
	$(BIN)/pytest

browser: $(STAMP)   # only the real-Chromium sheet tests (needs /usr/bin/chromium: apt-get install chromium)
	$(BIN)/pytest -m browser tests/render

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_dice.py

clean:
	rm -rf $(VENV) build dist src/*.egg-info

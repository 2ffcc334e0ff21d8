# Two entry points, each makes its own .venv: `make run` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test browser lint bench fuzz crash clean speedups

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

# The fight engine's hot modules compiled by Cython from their own source (src/furnace/speedups.py): only those whose
# source changed since (a few seconds each); without Cython or a C compiler the engine runs as pure Python.
speedups: $(STAMP)
	$(BIN)/python scripts/build_speedups.py

PORT ?= 8000
run: speedups      # the table console on http://127.0.0.1:$(PORT)/ (SQLite in the user's data folder)
	$(BIN)/furnace serve --port $(PORT)

# The whole suite: lint, types, layer contracts, then pytest on two processes (pytest-xdist, a module per process
# at a time) with a throw-away PostgreSQL of its own (scripts/with-postgres). No test asserts time: it passes on a
# busy machine and beside another `make test`.
PYTEST_WORKERS ?= 2
# Bytecode is kept between runs: with PYTHONDONTWRITEBYTECODE set (some shells and images set it), every run would
# compile the package and re-write every test module's asserts again in each process — a minute of a 5-minute run.
unexport PYTHONDONTWRITEBYTECODE
test: speedups
	$(BIN)/ruff check src tests benchmarks scripts
	$(BIN)/mypy
	$(BIN)/lint-imports
	scripts/with-postgres $(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadscope

browser: speedups   # only the real-Chromium tests: sheets, plots, the table console (needs /usr/bin/chromium)
	$(BIN)/pytest -m browser tests/render tests/web

fuzz: $(STAMP)      # 100,000 hostile inputs (the default run tries a few thousand, CI 20,000)
	FURNACE_FUZZ=full FURNACE_HYPOTHESIS=explore $(BIN)/pytest -q tests/fuzz tests/dice

crash: $(STAMP)     # 100 SIGKILLs of a writing process (the default run does 3, CI 20)
	FURNACE_CRASH=full $(BIN)/pytest -q -m crash tests/store

bench: speedups     # each prints its table and its ratios, measured in the same run
	$(BIN)/python benchmarks/bench_dice.py
	$(BIN)/python benchmarks/bench_engine.py
	$(BIN)/python benchmarks/bench_simulate.py
	$(BIN)/python benchmarks/bench_startup.py
	$(BIN)/python benchmarks/bench_web.py --find
	$(BIN)/python benchmarks/bench_web.py --find --sync normal --fanout 0
	$(BIN)/python benchmarks/bench_campaign.py
	scripts/with-postgres $(BIN)/python benchmarks/bench_tables.py
	$(BIN)/python benchmarks/goals.py        # issue 27's goals side by side, each with its ratio from one run

clean:
	rm -rf $(VENV) build dist src/*.egg-info src/furnace/_compiled

"""The benchmarks' small share in CI: each runs end to end at its smallest size and prints every figure it
reports, so `make bench` cannot rot between the runs whose figures go in the README. Nothing here times
anything or compares speeds (timed tests on a shared 2-core machine only flake); the ratios are `make bench`'s.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

# each benchmark end to end: the whole run only (FURNACE_SUITE=full, CI)
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]

RUNS = {   # script and its smallest arguments -> lines every run must print
    "bench_dice.py": (["--quick"], ["microseconds per roll", "slowest d20/furnace", "ratio furnace/d20"]),
    "bench_engine.py": (["--quick"], ["fights/s (goal", "a round's cost per combatant", "ratio 256/4"]),
    "bench_simulate.py": (["--quick"], ["ratio 2/1", "ratio 256/4"]),
    "bench_startup.py": (["--quick", "--runs", "1"], ["furnace fight funnel-vs-goblins", "furnace odds attack",
                                       "Exact distribution", "Campaign commands on SQLite", "character list",
                                       "encounter next"]),
    "goals.py": (["--quick", "--runs", "1"], ["engine ≥ 2,000 fights/s", "simulate, 2 workers", "roll 1d20+3 ≤ 0.5x",
                                              "read `campaign recap`", "write `encounter act`",
                                              "shell: each command ≤ 20 ms"]),
    "bench_campaign.py": (["--sizes", "500,1000"], ["at 1,000 events: open"]),
    "bench_store_roll.py": (["--rolls", "20", "--history", "10"], ["20 rolls after 10 commands on", "CPU per roll"]),
    "bench_web.py": (["--seconds", "1", "--rate", "20", "--players", "4", "--fanout", "4"],
                     ["rolls by 4 players", "SSE fan-out: a roll reached all 4 live streams"]),
}


@pytest.mark.parametrize("script", sorted(RUNS))
def test_benchmark_runs_and_prints_its_figures(script: str, tmp_path: Path) -> None:
    args, expected = RUNS[script]
    env = {**os.environ, "HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    for line in expected:
        assert line in done.stdout, f"{script} no longer prints {line!r}:\n{done.stdout[-2000:]}"


@pytest.mark.postgres
def test_the_tables_benchmark_runs_on_postgresql_with_two_workers(tmp_path: Path,
                                                                   request: pytest.FixtureRequest) -> None:
    """bench_tables.py needs the test PostgreSQL (it makes a database of its own on that server): skipped without
    it, as the store's PostgreSQL tests are (failed under CI=true)."""
    from tests.store.conftest import postgres_url

    url = postgres_url(request.node.nodeid)
    env = {**os.environ, "HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_tables.py"), "--quick", "--db", url],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    for line in ("across 2 workers on PostgreSQL", "a roll to every live stream of its table: p50",
                 "0 not reaching all", "idle live streams over 2 workers"):
        assert line in done.stdout, f"bench_tables.py no longer prints {line!r}:\n{done.stdout[-2000:]}"

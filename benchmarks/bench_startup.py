"""Start-up and exact-odds benchmarks: whole commands as a user runs them, against one-liners of the peers, the
ratios measured in the same run (the runs interleaved, the median of each, so a busy neighbour core weighs on
both sides alike).

Run: .venv/bin/python benchmarks/bench_startup.py [--quick] [--runs N]   (also part of `make bench`; --quick is 5
runs of each command, the default 15; the test suite's smoke run takes 1). `--baseline PATH/furnace` also runs
another install's commands in the same interleaved runs (its ratios in a column of their own), and
`--campaign-only` or `--startup-only` runs the campaign commands or the others alone.

Goals: `furnace roll 1d20+3` ≤ 0.5× a d20 one-liner; `furnace fight FILE` and `furnace funnel` (no campaign)
≤ 2× that one-liner; `furnace odds` ≤ 1.2× computing the same distribution with icepool directly. The commands
run in an empty home with no campaign settings, so nothing reads or writes a campaign.

Then the campaign commands (`campaign_commands`), each against the same one-liner in runs of their own: reads
(`character list`, `campaign show`, `encounter status`, `campaign log`, `campaign recap`) ≤ 2× (aim 1×), writes
(`damage`, `heal`, `clock advance`, `rest`, `encounter act`, `encounter next`) ≤ 3×, on a SQLite campaign of
twelve characters made by the CLI first (a second campaign holds a fight in progress).
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import timeit
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
BASELINE = " (baseline)"      # the name of a command of another install (`--baseline`) ends so
D20 = [PY, "-c", "import d20; print(d20.roll('1d20+3'))"]
ICEPOOL_DC = [PY, "-c", "import icepool; d = icepool.d20 + 3; print(d); print((d >= 15).mean())"]
# the same attack as `furnace odds attack` below: d20+3 vs AC 14, 1d8+2, a level-3 Fighter's crit (10 + F-TAB-31
# rows 1-10 on a d10), every table row typed in by hand
ICEPOOL_ATTACK = [PY, "-c", (
    "import icepool as i; x = [i.d10, i.d8, i.d8, i.d8, i.d8, i.Die([0]), i.d10, i.d10, i.d10, 2 @ i.d10]; "
    "c = 10 + i.d10.map(lambda r: x[r - 1]); h = (i.d8 + 2).map(lambda d: max(1, d)); "
    "a = i.d20.map(lambda n: c if n == 20 else h if n != 1 and n + 3 >= 14 else 0); print(a); print(a.mean())")]


def env_of(env: dict[str, str], name: str) -> dict[str, str]:
    """The environment a command runs in: the baseline's (a name ending in BASELINE) with its own rules' cache."""
    return {**env, "FURNACE_CACHE_DIR": str(Path(env["HOME"]) / "baseline-cache")} if name.endswith(BASELINE) else env


def median_ms(cmds: dict[str, list[str]], runs: int, env: dict[str, str]) -> dict[str, float]:
    """Median milliseconds of each command, interleaved. A command of the baseline (named … + BASELINE) keeps the
    rules' cache in a folder of its own: the cache keeps one version of each file, so two installs sharing one would
    throw each other's out and parse the tables' YAML again on every other run."""
    envs = {name: env_of(env, name) for name in cmds}
    samples: dict[str, list[float]] = {name: [] for name in cmds}
    for name, cmd in cmds.items():                      # once each first: the disk cache warm for all
        subprocess.run(cmd, check=True, capture_output=True, env=envs[name], cwd=ROOT)
    for _ in range(runs):
        for name, cmd in cmds.items():
            start = timeit.default_timer()
            subprocess.run(cmd, check=True, capture_output=True, env=envs[name], cwd=ROOT)
            samples[name].append((timeit.default_timer() - start) * 1000)
    return {name: statistics.median(s) for name, s in samples.items()}


READ_GOAL, WRITE_GOAL = 2.0, 3.0
# the campaigns the commands work on, made by the CLI: "keep" (no fight, so the clock and rests move) and "fight"
SETUP = [
    ["campaign", "new", "keep"],
    ["--campaign", "keep", "campaign", "join", "examples/characters/brakka.json", "examples/characters/wren.json",
     "--player", "Cy"],
    ["--campaign", "keep", "funnel", "--player", "Ann", "--player", "Bo", "--seed", "1"],
    ["campaign", "new", "fight"],
    ["--campaign", "fight", "campaign", "join", "examples/characters/brakka.json"],
    ["--campaign", "fight", "encounter", "start", "--party", "Brakka", "--monsters", "goblin x2", "--seed", "4"],
    ["--campaign", "fight", "encounter", "standing", "--policy", "Cy=keen", "--quiet", "sunder"],
]
READS = {
    "character list": ["--campaign", "keep", "character", "list"],
    "campaign show": ["--campaign", "keep", "campaign", "show"],
    "encounter status": ["--campaign", "fight", "encounter", "status"],
    "campaign log": ["--campaign", "keep", "campaign", "log", "--since", "20"],
    "campaign recap": ["--campaign", "keep", "campaign", "recap"],
}
# each run plays them in this order, so every run finds the campaign as the one before left it: Brakka dodges, the
# goblins take their turns, and a heal keeps her standing for as many runs as are asked
WRITES = {
    "damage": ["--campaign", "keep", "damage", "Wren", "1"],
    "heal": ["--campaign", "keep", "heal", "Wren", "1"],
    "clock advance": ["--campaign", "keep", "clock", "advance", "1", "turn"],
    "rest": ["--campaign", "keep", "rest", "short", "Wren", "--seed", "2"],
    "encounter act": ["--campaign", "fight", "encounter", "act", "brak1", "dodge"],
    "encounter next": ["--campaign", "fight", "encounter", "next", "--seed", "3"],
    "heal (in the fight)": ["--campaign", "fight", "heal", "Brakka", "2"],
}




def campaign_commands(runs: int, baseline: str | None = None) -> dict[str, float]:
    """Median milliseconds of each campaign command and of the d20 one-liner, interleaved, in a fresh home.
    `baseline`: another install's `furnace` (say the main checkout's), run on a database of its own in the same
    interleaved runs, under the name + BASELINE: before and after measured under the same load."""
    furnaces = {"": _furnace(), **({BASELINE: baseline} if baseline else {})}
    with tempfile.TemporaryDirectory() as home:
        env = _empty_home(home)
        cmds = {"d20 one-liner": D20}
        for tag, furnace in furnaces.items():
            db = ["--db", str(Path(home) / f"campaigns{tag.strip(' ()')}.db")]
            setup_env = env_of(env, tag)
            for args in SETUP:
                subprocess.run([furnace, *db, *args], check=True, capture_output=True, env=setup_env, cwd=ROOT)
            cmds.update({name + tag: [furnace, *db, *args] for name, args in {**READS, **WRITES}.items()})
        return median_ms(cmds, runs, env)


def print_campaign_commands(ms: dict[str, float], runs: int) -> None:
    d20 = ms["d20 one-liner"]
    before = any(name.endswith(BASELINE) for name in ms)
    print(f"\nCampaign commands on SQLite, median of {runs} interleaved runs")
    print(f"  {'command':<34} {'ms':>8}  {'ratio':>7}  goal" + ("              baseline" if before else ""))
    print(f"  {'d20 one-liner':<34} {d20:8.1f}")
    for names, goal in ((READS, READ_GOAL), (WRITES, WRITE_GOAL)):
        for name in names:
            ratio = ms[name] / d20
            was = f"  {ms[name + BASELINE] / d20:6.2f}x" if before else ""
            print(f"  {name:<34} {ms[name]:8.1f}  {ratio:6.2f}x  ≤ {goal}x {'met' if ratio <= goal else 'NOT met':<8}"
                  + was)


def _furnace() -> str:
    furnace = shutil.which("furnace", path=str(Path(PY).parent))
    if furnace is None:
        sys.exit("the furnace console script is not next to this Python")
    return furnace


def _empty_home(home: str) -> dict[str, str]:
    # bytecode is cached, as an installed Furnace has it (pip compiles it, as it did d20's and icepool's): under
    # PYTHONDONTWRITEBYTECODE every run of an editable install would compile each of its modules again
    env = {k: v for k, v in os.environ.items() if not k.startswith("FURNACE_") and k != "PYTHONDONTWRITEBYTECODE"}
    env.update(HOME=home, XDG_DATA_HOME=home, XDG_CONFIG_HOME=home)
    return env


def in_process_us(fn: Callable[[], object], number: int) -> float:
    return min(timeit.repeat(fn, number=number, repeat=5)) / number * 1e6


def distributions(number: int) -> list[tuple[str, float, float]]:
    """Our exact distribution vs icepool's for the same expressions, parsed once, in microseconds."""
    import icepool

    from furnace import dice

    peers = {"d20+3": lambda: (icepool.d20 + 3).probability(">=", 15),
             "4d6kh3": lambda: icepool.d6.highest(4, 3).probability(">=", 12),
             "3d6": lambda: (3 @ icepool.d6).probability(">=", 12),
             "12d6": lambda: (12 @ icepool.d6).probability(">=", 42)}
    rows = []
    for text, peer in peers.items():
        expr = dice.parse(text)
        ours = in_process_us(lambda e=expr: e.distribution(), number)   # type: ignore[misc]
        rows.append((text, ours, in_process_us(peer, number)))
    return rows


GOALS = {"furnace roll 1d20+3": ("d20 one-liner", 0.5), "furnace fight funnel-vs-goblins": ("d20 one-liner", 2.0),
         "furnace funnel": ("d20 one-liner", 2.0), "furnace odds d20+3 --dc 15": ("icepool d20+3 >= 15", 1.2),
         "furnace odds attack": ("icepool attack", 1.2)}


def startup(runs: int, baseline: str | None = None) -> dict[str, float]:
    """Median milliseconds of each command that reads no campaign and of its peers' one-liners, interleaved; with
    `baseline` (another install's `furnace`), its commands too, under the name + BASELINE."""
    furnace = _furnace()
    with tempfile.TemporaryDirectory() as home:
        env = _empty_home(home)
        cmds = {
            "python -c pass": [PY, "-c", "pass"],
            "d20 one-liner": D20,
            "icepool d20+3 >= 15": ICEPOOL_DC,
            "icepool attack": ICEPOOL_ATTACK,
        }
        for tag, program in {"": furnace, **({BASELINE: baseline} if baseline else {})}.items():
            cmds.update({name + tag: [program, *args] for name, args in FURNACE_COMMANDS.items()})
        return median_ms(cmds, runs, env)


FURNACE_COMMANDS = {
    "furnace roll 1d20+3": ["roll", "1d20+3"],
    "furnace fight funnel-vs-goblins": ["fight", "examples/funnel-vs-goblins.yaml", "--seed", "1"],
    "furnace funnel": ["funnel", "--seed", "1"],
    "furnace odds d20+3 --dc 15": ["odds", "d20+3", "--dc", "15"],
    "furnace odds attack": ["odds", "attack", "--atk", "d20+3", "--ac", "14", "--damage", "1d8+2", "--class", "fighter",
                            "--level", "3"],
}


def print_startup(ms: dict[str, float], runs: int) -> None:
    d20 = ms["d20 one-liner"]
    before = any(name.endswith(BASELINE) for name in ms)
    print(f"Process wall time, median of {runs} interleaved runs")
    head = f"  {'command':<34} {'ms':>8}  {'ratio':>7}  {'vs':<22} goal"
    print(head + ("                 baseline" if before else ""))
    for name, value in ms.items():
        if name.endswith(BASELINE):
            continue
        if name in GOALS:
            peer, goal = GOALS[name]
            ratio = value / ms[peer]
            verdict = "met" if ratio <= goal else "NOT met"
            was = f"  {ms[name + BASELINE] / ms[peer]:6.2f}x" if before else ""
            print(f"  {name:<34} {value:8.1f}  {ratio:6.2f}x  {peer:<22} ≤ {goal}x {verdict:<8}{was}")
        else:
            print(f"  {name:<34} {value:8.1f}  {value / d20:6.2f}x  d20 one-liner")


def main() -> None:
    quick = "--quick" in sys.argv
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 5 if quick else 15
    baseline = sys.argv[sys.argv.index("--baseline") + 1] if "--baseline" in sys.argv else None
    if "--campaign-only" in sys.argv:
        print_campaign_commands(campaign_commands(runs, baseline), runs)
        return
    if "--startup-only" in sys.argv:
        print_startup(startup(runs, baseline), runs)
        return
    print_startup(startup(runs, baseline), runs)
    print_campaign_commands(campaign_commands(runs, baseline), runs)
    print("\nExact distribution, in process (best of 5), microseconds")
    print(f"  {'expression':<10} {'furnace':>10} {'icepool':>10} {'ratio':>7}")
    for text, ours, theirs in distributions(200 if quick else 2000):
        print(f"  {text:<10} {ours:10.1f} {theirs:10.1f} {ours / theirs:6.2f}x")


if __name__ == "__main__":
    main()

"""Many fights of one encounter, to see how deadly it is: P(the party wins), P(each character dies), P(a total
party kill), the rounds, injuries and Luck Dice spent.

Every fight is the engine's own (`fightfile.build` and `encounter.run_fight`, nothing re-implemented), with its
own seed `fight_seed(seed, i)`, so fight i replays exactly with `furnace fight FILE --seed <that seed>`. A
`Source` says how to lay out one fight; it is prepared once per worker (the fight file and the characters read
once) and its `Fighter` then fights each seed. Fights are split among worker processes (forked where safe, else
spawned: the worker functions are top-level and a source is a small picklable value) and gathered in index
order, so the result
is the same for any number of workers — or on a Dask cluster (`scheduler=ADDRESS`, the `cluster` extra): the same
tasks, the same seeds, the same result.

A sweep (`sweep`) fights every cell of a grid of settings — a fight field (`room_dc=10..16`), a monster's count
(`goblin=2..8`) or a rule option (`option:enemy_morale=true,false`) — each cell with its own seed `cell_seed(seed,
label)` drawn from the run seed and the cell's settings, so a cell (and any fight of it) replays alone: the same
`--vary` values, one each, give the same cell. Its size is bounded before any fight starts.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import pickle
import re
import secrets
import socket
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal, Protocol

from furnace import dice
from furnace.errors import FurnaceError
from furnace.play.answering import standing_in
from furnace.play.countdown import count_down
from furnace.play.encounter import run_fight
from furnace.play.fightfile import build, load_fight, rolling, roster
from furnace.play.outcomes import Fought, Outcome, Summary, outcome
from furnace.play.state import Encounter
from furnace.rules.ruleset import Ruleset, load_ruleset

MAX_FIGHTS = 1_000_000          # in one run, every cell of a sweep counted
MAX_WORKERS = 64
MAX_CELLS = 1_000
CONNECT_TIMEOUT = "5s"           # for Dask's client to reach a scheduler that answered the probe
PROBE_SECONDS = 3.0              # for the scheduler's port to answer at all
SCHEDULER = re.compile(r"^(?:(?P<scheme>tcp|tls|ws|wss)://)?(?P<host>[A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\]):"
                       r"(?P<port>[0-9]{1,5})/?$")
IN_PROCESS = re.compile(r"^inproc://[A-Za-z0-9._:/-]+$")        # a cluster in this very process (Dask's tests)



Fighter = Callable[[int], Fought]                      # one fight from its seed


def fight_out(start: Encounter, rng: dice.DiceSource, rules: Ruleset, rounds: int) -> Fought:
    """The engine's fight (`run_fight`), then the countdown of whoever it left dying, on the same dice."""
    end, events = run_fight(start, rng, rules, rounds)
    after, more = count_down(end, rng, rules)
    return Fought(start, end, after, events, more)


class Source(Protocol):
    """How to lay out one fight; a small frozen picklable value, prepared once in each worker. A sweep varies its
    fields `room_dc`, `rounds`, `initiative`, `options` and `counts` (a monster's count by its name)."""

    def prepare(self) -> Fighter: ...

    def monster_names(self) -> list[str]: ...


def fight_seed(seed: int, index: int) -> int:
    """The seed of fight `index` of a run seeded `seed`: a 32-bit number drawn from both, so runs of nearby
    seeds share no fights."""
    digest = hashlib.sha256(f"furnace-simulate/{seed}/{index}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


@dataclass(frozen=True)
class FightFileSource:
    """A fight file, fought as `furnace fight FILE --profile P --option … --seed S` fights it."""

    path: str
    profile: str = "furnace"
    options: tuple[tuple[str, Any], ...] = ()
    rounds: int = 20
    room_dc: int | None = None
    allow_outside: bool = False
    initiative: str | None = None
    counts: tuple[tuple[str, int], ...] = ()      # (monster name, count): a sweep's monster counts
    policies: tuple[tuple[str, str], ...] = ()    # standing answers (who, policy): `furnace.play.policies`

    def rules(self) -> Ruleset:
        rules = load_ruleset(self.profile)
        return rules.with_options(dict(self.options), "override") if self.options else rules

    def monster_names(self) -> list[str]:
        return [m.name for m in load_fight(self.path).monsters]

    def prepare(self) -> Fighter:
        """Read the fight file and its characters once; each fight then rolls only its monsters."""
        spec = load_fight(self.path)
        changes: dict[str, Any] = {"room_dc": self.room_dc, "initiative": self.initiative}
        spec = spec.model_copy(update={k: v for k, v in changes.items() if v is not None})
        if self.counts:
            wanted = {name.lower(): n for name, n in self.counts}
            spec = spec.model_copy(update={"monsters": [
                m.model_copy(update={"count": wanted.get(m.name.lower(), m.count)}) for m in spec.monsters]})
        base, rules, rounds = Path(self.path).parent, self.rules(), self.rounds
        template = build(spec, base, dice.seeded(0), rules, allow_outside=self.allow_outside)
        party = template.combatants[:len(spec.party)]       # built first and without dice (fightfile.build)
        monsters = roster(spec, set())                      # the monsters' ids as if the party were not there
        alone = {c.id for c in party}.isdisjoint(cid for _, _, cid in monsters)
        initiative = spec.initiative or rules["initiative_model"]
        roll_monsters = rolling(monsters, spec.room_dc, rules)     # made once: each fight rolls their HP

        def fight(seed: int) -> Fought:
            rng = dice.seeded(seed)
            if alone:
                foes = roll_monsters(rng)
                start = Encounter(room_dc=spec.room_dc, combatants=(*party, *foes), initiative=initiative,
                                  surprised=tuple(spec.surprised))
            else:        # a monster's id would be another with the party there: build the whole fight
                start = build(spec, base, rng, rules, allow_outside=self.allow_outside)
            start = standing_in(start, dict(self.policies))
            return fight_out(start, rng, rules, rounds)

        return fight


def fight_chunk(fighter: Fighter, seed: int, indices: Iterable[int]) -> list[Outcome]:
    """The fights of these indices, in order."""
    out = []
    for i in indices:
        s = fight_seed(seed, i)
        out.append(outcome(i, s, fighter(s)))
    return out


# -- running the fights: here, on a pool of processes, or on a Dask cluster ---------------------------------

# (the run, a cell, its source, the cell's seed, the first fight, past the last)
Job = tuple[int, int, Source, int, int, int]

# Each process's fighters by run and source, prepared once: a worker of a cluster outlives a run, and a fight file
# may have changed since the last, so a run never uses another run's.
_PREPARED: dict[tuple[int, bytes], Fighter] = {}


def _fighter(run: int, source: Source) -> Fighter:
    key = (run, hashlib.sha256(pickle.dumps(source)).digest())
    if key not in _PREPARED:
        if len(_PREPARED) >= 16:               # a sweep's cells come in order: the oldest are done with
            _PREPARED.pop(next(iter(_PREPARED)))
        _PREPARED[key] = source.prepare()
    return _PREPARED[key]


def run_job(run: int, cell: int, source: Source, seed: int, start: int, stop: int) -> tuple[int, list[Outcome]]:
    """One task of a run: fights start…stop-1 of one cell (top-level, so a pool or a cluster can call it)."""
    return cell, fight_chunk(_fighter(run, source), seed, range(start, stop))


def _chunks(fights: int, workers: int) -> list[tuple[int, int]]:
    size = max(1, min(200, fights // (workers * 8) or 1))
    return [(a, min(a + size, fights)) for a in range(0, fights, size)]


def _run(jobs: Sequence[Job], workers: int, scheduler: str | None,
         tell: Callable[[int], None]) -> dict[int, list[Outcome]]:
    """Every job's outcomes by cell, each cell's in fight order, whoever ran them."""
    if scheduler is not None:
        done = _on_dask(jobs, scheduler, tell)
    elif workers == 1:
        done = []
        for job in jobs:
            done.append(run_job(*job))
            tell(job[5] - job[4])
    else:
        done = _in_pool(jobs, workers, tell)
    cells: dict[int, list[Outcome]] = {}
    for cell, outcomes in done:
        cells.setdefault(cell, []).extend(outcomes)
    return {cell: sorted(out, key=lambda o: o.index) for cell, out in sorted(cells.items())}


def _context() -> Any:
    """Fork where it is safe (a POSIX system, no other thread in this process): the workers start at once with
    the modules and the prepared fighter already in memory; spawn elsewhere (a fresh interpreter per worker)."""
    import multiprocessing
    import threading

    if "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def _in_pool(jobs: Sequence[Job], workers: int, tell: Callable[[int], None]) -> list[tuple[int, list[Outcome]]]:
    context = _context()
    if context.get_start_method() == "fork" and len({id(job[2]) for job in jobs}) == 1:
        _fighter(jobs[0][0], jobs[0][2])          # prepared once here, inherited by every forked worker
    done = []
    with ProcessPoolExecutor(max_workers=min(workers, len(jobs)), mp_context=context) as pool:
        futures = {pool.submit(run_job, *job): job[5] - job[4] for job in jobs}
        for future in as_completed(futures):
            done.append(future.result())
            tell(futures[future])
    return done


def check_scheduler(address: str) -> None:
    """Before any fight: Dask is installed, `address` is a scheduler's (tcp://HOST:PORT), and its port answers
    within PROBE_SECONDS; else one sentence saying which."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise FurnaceError("--scheduler needs Dask: pip install 'furnace-rpg[cluster]'") from None
    if IN_PROCESS.match(address):
        return
    found = SCHEDULER.match(address.strip())
    if found is None or not 1 <= int(found["port"]) <= 65535:
        raise FurnaceError(f"--scheduler {address[:100]!r} is not a Dask scheduler's address: give tcp://HOST:PORT, "
                           "e.g. tcp://127.0.0.1:8786")
    host, port = found["host"].strip("[]"), int(found["port"])
    try:
        with socket.create_connection((host, port), timeout=PROBE_SECONDS):
            pass
    except TimeoutError:
        raise FurnaceError(f"cannot reach the Dask scheduler at {address}: no answer within {PROBE_SECONDS:g} s") \
            from None
    except OSError as exc:
        reason = "the host name is not known" if isinstance(exc, socket.gaierror) else \
            (exc.strerror or type(exc).__name__).lower()
        raise FurnaceError(f"cannot reach the Dask scheduler at {address}: {reason}") from None


def _on_dask(jobs: Sequence[Job], address: str, tell: Callable[[int], None]) -> list[tuple[int, list[Outcome]]]:
    """The same jobs on a Dask distributed cluster (imported only here: the `cluster` extra)."""
    check_scheduler(address)
    from distributed import Client
    from distributed import as_completed as dask_completed

    try:
        client = Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError, ValueError) as exc:
        raise FurnaceError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    done = []
    try:
        futures = [client.submit(run_job, *job, pure=False) for job in jobs]
        sizes = {f.key: job[5] - job[4] for f, job in zip(futures, jobs, strict=True)}
        for future in dask_completed(futures, loop=client.loop):  # type: ignore[no-untyped-call]
            done.append(future.result())
            tell(sizes[future.key])
    finally:
        client.close()  # type: ignore[no-untyped-call]
    return done


def _check(fights: int, workers: int) -> None:
    if not 1 <= fights <= MAX_FIGHTS:
        raise FurnaceError(f"the number of fights is 1 to {MAX_FIGHTS:,}, not {fights}")
    if not 1 <= workers <= MAX_WORKERS:
        raise FurnaceError(f"the number of workers is 1 to {MAX_WORKERS}, not {workers}")


def simulate(source: Source, fights: int, seed: int, *, workers: int = 1,
             progress: Callable[[int], None] | None = None, scheduler: str | None = None) -> Summary:
    """`fights` fights of `source`, fight i seeded `fight_seed(seed, i)`, on `workers` processes (1: in this
    one) or on the Dask cluster at `scheduler`; `progress(n)` is told as each n fights finish. The summary is the
    same for any number of workers and wherever they run."""
    _check(fights, workers)
    run = secrets.randbits(63)
    jobs = [(run, 0, source, seed, a, b) for a, b in _chunks(fights, workers)]
    return Summary.of(seed, _run(jobs, workers, scheduler, progress or (lambda _n: None))[0])


# -- sweeps ---------------------------------------------------------------------------------------------------

FIELDS = {"room_dc": (1, 40), "rounds": (1, 100)}      # a fight's number fields a sweep may vary, and their range
CHOICES = {"initiative": ("group", "simultaneous")}
MAX_COUNT = 100                                          # of one monster (a fight file's own limit)
Kind = Literal["field", "monster", "option"]


@dataclass(frozen=True)
class Parameter:
    """One `--vary`: what it changes and the values it takes, in order."""

    name: str                        # as typed: room_dc, goblin, option:enemy_morale
    kind: Kind
    key: str                         # the field, the monster's name, the option's name
    values: tuple[Any, ...]


def _values(text: str, name: str) -> list[str]:
    if ".." in text:
        low, _, high = text.partition("..")
        try:
            a, b = int(low), int(high)
        except ValueError:
            raise FurnaceError(f"--vary {name}: a range is two whole numbers like 2..8, not {text!r}") from None
        if b < a or b - a > MAX_CELLS:
            raise FurnaceError(f"--vary {name}: a range goes up, by at most {MAX_CELLS:,} steps, not {text!r}")
        return [str(v) for v in range(a, b + 1)]
    values = [v.strip() for v in text.split(",")]
    if not all(values):
        raise FurnaceError(f"--vary {name}: the values are a range like 2..8 or a list like true,false, not {text!r}")
    return values


def _whole(value: str, name: str, low: int, high: int) -> int:
    try:
        number = int(value)
    except ValueError:
        raise FurnaceError(f"--vary {name}: {value!r} is not a whole number") from None
    if not low <= number <= high:
        raise FurnaceError(f"--vary {name}: {number} is outside {low} to {high}")
    return number


def parameter(text: str, source: Source, rules: Ruleset) -> Parameter:
    """`NAME=VALUES` read against the source (its monsters) and the rules (the option's type): a fight field
    (room_dc, rounds, initiative), a monster's name, or option:NAME; the values a range a..b or a list a,b,c."""
    from furnace.rules.ruleset import parse_override

    name, sep, spec = text.partition("=")
    name = name.strip()
    if not sep or not name:
        raise FurnaceError(f"--vary takes NAME=VALUES like room_dc=10..16 or goblin=2..8, not {text!r}")
    raw = _values(spec.strip(), name)
    if name.lower().startswith("option:"):
        key = name.partition(":")[2].strip()
        values = tuple(parse_override(f"{key}={v}", tables=rules.tables)[1] for v in raw)
        return Parameter(name, "option", key, values)
    if name.lower() in FIELDS:
        low, high = FIELDS[name.lower()]
        return Parameter(name, "field", name.lower(), tuple(_whole(v, name, low, high) for v in raw))
    if name.lower() in CHOICES:
        bad = [v for v in raw if v not in CHOICES[name.lower()]]
        if bad:
            raise FurnaceError(f"--vary {name}: {bad[0]!r} is not one of {', '.join(CHOICES[name.lower()])}")
        return Parameter(name, "field", name.lower(), tuple(raw))
    monsters = source.monster_names()
    if name.lower() not in {m.lower() for m in monsters}:
        raise FurnaceError(f"--vary {name}: not a fight field ({', '.join([*FIELDS, *CHOICES])}), a monster of this "
                           f"fight ({', '.join(monsters)}) or option:NAME")
    return Parameter(name, "monster", name, tuple(_whole(v, name, 1, MAX_COUNT) for v in raw))


Settings = tuple[tuple[Parameter, Any], ...]


def label(settings: Settings) -> str:
    """A cell's settings as typed: room_dc=12, goblin=3, option:enemy_morale=true."""
    return ", ".join(f"{p.name}={str(v).lower() if isinstance(v, bool) else v}" for p, v in settings)


def cell_seed(seed: int, settings: Settings) -> int:
    """The seed of a cell: drawn from the run seed and the cell's settings (not its place in the grid), so the
    same settings replay the same fights in any sweep of the same seed."""
    digest = hashlib.sha256(f"furnace-simulate-cell/{seed}/{label(settings)}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def varied(source: Source, settings: Settings) -> Source:
    """The source with a cell's settings in place."""
    changes: dict[str, Any] = {}
    options = dict(getattr(source, "options", ()))
    counts = dict(getattr(source, "counts", ()))
    for p, value in settings:
        if p.kind == "field":
            changes[p.key] = value
        elif p.kind == "option":
            options[p.key] = value
        else:
            counts[p.key] = value
    return replace(source, **changes, options=tuple(options.items()), counts=tuple(counts.items()))  # type: ignore[type-var]


def grid(parameters: Sequence[Parameter]) -> list[Settings]:
    """Every combination of the parameters' values. A field, monster or option varied twice, or a value given
    twice, is refused: the same cell would be fought again under another name."""
    seen: dict[tuple[str, str], str] = {}
    for p in parameters:
        key = (p.kind, p.key.lower())
        if key in seen:
            raise FurnaceError(f"--vary {p.name} is given twice ({seen[key]} and {p.name}): give all its values in "
                               f"one --vary, e.g. {p.name}=10,11")
        seen[key] = p.name
        doubled = [v for i, v in enumerate(p.values) if v in p.values[:i]]
        if doubled:
            raise FurnaceError(f"--vary {p.name}: the value {label(((p, doubled[0]),)).partition('=')[2]} is given "
                               "twice")
    combinations = itertools.product(*(p.values for p in parameters))
    return [tuple(zip(parameters, values, strict=True)) for values in combinations]


def check_size(cells: int, fights: int) -> None:
    """Refuse, before any fight, a sweep past MAX_CELLS cells or MAX_FIGHTS fights in all."""
    if cells > MAX_CELLS:
        raise FurnaceError(f"a sweep of {cells:,} cells is more than {MAX_CELLS:,}; vary fewer values")
    if cells * fights > MAX_FIGHTS:
        raise FurnaceError(f"{cells:,} cells × {fights:,} fights = {cells * fights:,} fights, more than "
                           f"{MAX_FIGHTS:,}; ask at most {MAX_FIGHTS // cells:,} fights per cell, or vary fewer values")


@dataclass(frozen=True)
class Cell:
    settings: Settings
    seed: int
    summary: Summary

    @property
    def label(self) -> str:
        return label(self.settings)


@dataclass(frozen=True)
class Sweep:
    seed: int
    parameters: tuple[Parameter, ...]
    cells: tuple[Cell, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"seed": self.seed, "parameters": {p.name: list(p.values) for p in self.parameters},
                "cells": [{"settings": {p.name: v for p, v in c.settings}, "seed": c.seed,
                           "fights": c.summary.fights, "p_tpk": c.summary.p_tpk(), "p_victory": c.summary.p_victory(),
                           "p_round_limit": c.summary.p_unfinished(),
                           "rounds_mean": c.summary.mean(lambda o: o.rounds),
                           "fight_seeds": [o.seed for o in c.summary.outcomes[:3]]} for c in self.cells]}

    def table(self) -> str:
        """One line per cell: its settings, P(TPK), P(victory), and its seed."""
        names = [p.name for p in self.parameters]
        widths = [max(len(n), *(len(_shown(v)) for v in p.values)) for n, p in zip(names, self.parameters, strict=True)]
        head = "  ".join(n.ljust(w) for n, w in zip(names, widths, strict=True))
        lines = [f"{head}  {'P(TPK)':>7}  {'P(victory)':>10}  cell seed"]
        for c in self.cells:
            shown = "  ".join(_shown(v).ljust(w) for (_, v), w in zip(c.settings, widths, strict=True))
            lines.append(f"{shown}  {c.summary.p_tpk():>7.1%}  {c.summary.p_victory():>10.1%}  {c.seed}")
        return "\n".join(lines)


def _shown(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def sweep(source: Source, parameters: Sequence[Parameter], fights: int, seed: int, *, workers: int = 1,
          progress: Callable[[int], None] | None = None, scheduler: str | None = None) -> Sweep:
    """`fights` fights in every cell of the grid of `parameters`, cell by cell seeded `cell_seed(seed, its
    settings)`; bounded (MAX_CELLS, MAX_FIGHTS in all) before anything is fought."""
    _check(fights, workers)
    cells = grid(parameters)
    check_size(len(cells), fights)
    sources = [varied(source, settings) for settings in cells]
    seeds = [cell_seed(seed, settings) for settings in cells]
    chunks = _chunks(fights, max(1, -(-workers // len(cells))))     # enough tasks to keep every worker busy
    run = secrets.randbits(63)
    jobs = [(run, i, sources[i], seeds[i], a, b) for i in range(len(cells)) for a, b in chunks]
    done = _run(jobs, workers, scheduler, progress or (lambda _n: None))
    return Sweep(seed, tuple(parameters), tuple(Cell(settings, seeds[i], Summary.of(seeds[i], done[i]))
                                                for i, settings in enumerate(cells)))


def default_workers() -> int:
    return max(1, min(os.cpu_count() or 1, 8))

"""Fuzzing a user's files: valid fight files, character files and a campaign state file, MUTATED.

Each input starts from a valid file (the fights in examples/, the characters in examples/characters/, a
campaign state with characters, a disease, a torch, daily needs and timers) and gets one to three of: a
field set to a wrong type, a huge (or tiny, negative, infinite) value, deep nesting, a key deleted, a list
entry or a key duplicated, YAML aliases (shared values, a "billion laughs"), and then perhaps binary bytes
spliced into the text or the text cut short. It is written to a file and run through the library loaders
(and on into the rules) and through the CLI in-process: the library answers or raises a `FurnaceError`,
`furnace.cli.main` returns 0 or 2 (never 1, never an exception), each within the bound of `bounded`.
"deep" counts the inputs that got past parsing into the rules.

Shares of the budget: fight files 0.2, character files 0.15, clock files 0.1.
"""

from __future__ import annotations

import copy
import json
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from furnace import dice
from furnace.characters.character import Character
from furnace.cli.app import main
from furnace.cli.clock import load_state
from furnace.errors import FurnaceError
from furnace.play.clock import advance, reschedule, schedule
from furnace.play.combatant import from_character
from furnace.play.encounter import run_fight
from furnace.play.fightfile import build, load_fight
from furnace.rules.ruleset import load_ruleset
from tests.fuzz.conftest import bounded, fuzz_settings, record
from tests.helpers.factories import campaign, example

# thousands of files through the CLI: the whole run only (FURNACE_SUITE=full, CI)
pytestmark = pytest.mark.slow

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
FIGHTS = [yaml.safe_load(p.read_text(encoding="utf-8")) for p in sorted(EXAMPLES.glob("*.yaml"))]
CHARACTERS = [json.loads(p.read_text(encoding="utf-8")) for p in sorted((EXAMPLES / "characters").glob("*.json"))]
RULES = load_ruleset("furnace")
HAZARDS = load_ruleset("hazards")


def _campaign() -> dict[str, Any]:
    """A campaign state that exercises the clock within a day: two characters, a disease whose saves fall due,
    a torch, daily needs, timers."""
    from furnace.hazards import find_disease, infect, light, schedule_daily_needs

    brakka, maelis = example("brakka"), example("maelis")
    camp, _ = infect(campaign(brakka, maelis), brakka.name, find_disease("Green River Fever", HAZARDS), HAZARDS)
    camp = reschedule(camp, camp.clock.entries[-1].id, after=3 * 3600)   # its saves fall due today
    camp, _ = light(camp, maelis.name, "torch", HAZARDS)
    camp, _ = schedule_daily_needs(camp, maelis.name, HAZARDS)
    camp, _ = schedule(camp, "timer", after=1200, label="the ceiling gives way", data={"prompt": "DEX SAVE"})
    camp, _ = schedule(camp, "timer", after=600, every=600, times=3, label="drip")
    data: dict[str, Any] = json.loads(camp.model_dump_json())
    return data


CAMPAIGNS = [_campaign()]

# -- mutations -------------------------------------------------------------------------------------------------
WRONG = st.one_of(
    st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12), st.lists(st.integers(-3, 30), max_size=3),
    st.dictionaries(st.text(max_size=6), st.integers(-3, 30), max_size=3),
    st.sampled_from(["NEAR", "FAR", "d20", "1d6", "STR", "Fighter", "", "-1", "0", "../x.json", "/etc/passwd"]),
)
HUGE: list[Any] = [10**18, -(10**18), 2**63, -(2**63) - 1, 10**400, -1, 0, 1, 2, float("inf"), float("-inf"),
                   "x" * 100_000, "9" * 5000, "1000d1000", "99999999d99999999", "d" * 3000, [0] * 5000,
                   {f"k{i}": i for i in range(2000)}]
SAME_INT = st.one_of(st.integers(-5, 40), st.sampled_from([100, 1000, 10**6, 10**9, 10**18, -(10**9)]))
SAME_STR = st.one_of(st.text(max_size=8), st.sampled_from([
    "NEAR", "CLOSE", "RANGED", "FAR", "near", "1d6", "2d8+4", "d20", "7d8+14", "0", "1d1000", "100d100", "Fighter",
    "Cleric", "Rogue", "Magic-user", "Wizard", "Barbarian", "STR", "CON", "heavy", "light", "none", "group",
    "simultaneous", "characters/hob.json", "characters/maelis.json", "timer", "daily_needs", "light_out", "x" * 500]))
OPS = ["same"] * 6 + ["wrong", "huge", "delete", "duplicate", "nest", "alias", "bomb"]


@st.composite
def same_type(draw: st.DrawFn, value: Any) -> Any:
    """Another value of the same type: the file still parses and mostly validates, and reaches the rules."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return draw(SAME_INT)
    if isinstance(value, float):
        return draw(st.floats(-1e9, 1e9))
    if isinstance(value, str):
        return draw(SAME_STR)
    if isinstance(value, list):
        return draw(st.permutations(value)) if draw(st.booleans()) else value[:draw(st.integers(0, len(value)))]
    if isinstance(value, dict) and value:
        drop = draw(st.sampled_from(sorted(value, key=str)))
        return {k: v for k, v in value.items() if k != drop}
    return value


def _paths(doc: Any) -> list[tuple[Any, ...]]:
    """Every place in the document, the root first."""
    out: list[tuple[Any, ...]] = []
    stack: list[tuple[tuple[Any, ...], Any]] = [((), doc)]
    while stack and len(out) < 2000:
        path, value = stack.pop()
        out.append(path)
        if isinstance(value, dict):
            stack.extend(((*path, k), v) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend(((*path, i), v) for i, v in enumerate(value))
    return out


def _get(doc: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        doc = doc[part]
    return doc


def _put(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    _get(doc, path[:-1])[path[-1]] = value
    return doc


def _bomb(levels: int) -> list[Any]:
    node: list[Any] = ["lol"] * 9
    for _ in range(levels):
        node = [node] * 9
    return node


@st.composite
def mutated(draw: st.DrawFn, seeds: list[Any], fmt: str) -> bytes:
    """A valid document with one to three structural mutations, then perhaps bytes spliced in or cut off."""
    doc = copy.deepcopy(draw(st.sampled_from(seeds)))
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(OPS))
        paths = _paths(doc)
        path = draw(st.sampled_from(paths[1:] if len(paths) > 1 else paths))
        if op == "same":
            doc = _put(doc, path, draw(same_type(_get(doc, path))))
        elif op == "wrong":
            doc = _put(doc, path, draw(WRONG))
        elif op == "huge":
            doc = _put(doc, path, copy.deepcopy(draw(st.sampled_from(HUGE))))   # later mutations change it
        elif op == "delete" and path:
            parent = _get(doc, path[:-1])
            del parent[path[-1]]
        elif op == "duplicate" and path:
            parent = _get(doc, path[:-1])
            if isinstance(parent, list):
                parent.extend([copy.deepcopy(parent[path[-1]])] * draw(st.integers(1, 30)))
            else:
                parent[f"{path[-1]}_"] = copy.deepcopy(parent[path[-1]])
        elif op == "nest":
            value = _get(doc, path)
            for _ in range(draw(st.sampled_from([1, 2, 10, 40, 100]))):
                value = [value] if draw(st.booleans()) else {"x": value}
            doc = _put(doc, path, value)
        elif op == "alias":   # the same object twice: YAML writes an anchor and an alias
            doc = _put(doc, path, _get(doc, draw(st.sampled_from(paths))) if path else doc)
        elif op == "bomb":
            doc = _put(doc, path, _bomb(draw(st.integers(1, 9)) if fmt == "yaml" else 1))
    try:
        text = yaml.safe_dump(doc, sort_keys=False) if fmt == "yaml" else json.dumps(doc)
    except (RecursionError, ValueError):   # an alias to its own parent: no text for that
        text = yaml.safe_dump(seeds[0]) if fmt == "yaml" else json.dumps(seeds[0])
    data = text.encode("utf-8")
    tail = draw(st.sampled_from(["none"] * 7 + ["bytes", "cut", "dupkey"]))
    if tail == "bytes":
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.binary(min_size=1, max_size=8)) + data[at:]
    elif tail == "cut":
        data = data[:draw(st.integers(0, len(data)))]
    elif tail == "dupkey" and isinstance(doc, dict) and doc:   # the same key twice in the text
        key = draw(st.sampled_from(sorted(doc, key=str)))
        extra = json.dumps({str(key): draw(WRONG)})[1:-1]
        data = (data + b"\n" + extra.encode() + b"\n") if fmt == "yaml" else (b"{" + extra.encode() + b"," + data[1:]
                                                                             if data.startswith(b"{") else data)
    return data


# -- running ---------------------------------------------------------------------------------------------------
class _Exit2(FurnaceError):
    """`main` returned 2: counted as refused."""


def _cli(target: str, capsys: pytest.CaptureFixture[str], *args: str) -> int:
    """Run the CLI in-process within the bound: 0 or 2, with exactly one `error:` line on 2."""
    code: int | None = None
    try:
        with bounded(target):
            code = main(list(args))
            if code == 2:
                raise _Exit2
    finally:
        err = capsys.readouterr().err
    assert code in (0, 2), f"{args}: exit {code}: {err}"
    if code == 2:
        assert err.startswith("error: ") and err.count("\n") == 1, err
    else:
        record(target, "deep")
    return code


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    where = tmp_path_factory.mktemp("fuzz-files")
    shutil.copytree(EXAMPLES / "characters", where / "characters")
    yield where


def _library(target: str, load: Callable[[], Any], deep: Callable[[Any], Any]) -> None:
    """Load, and when that works, go on into the rules; a FurnaceError anywhere is a refusal."""
    with bounded(target):
        loaded = load()
        record(target, "deep")
        deep(loaded)


@fuzz_settings(0.2)
@given(data=mutated(FIGHTS, "yaml"))
def test_fight_files(data: bytes, folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = folder / "fight.yaml"
    path.write_bytes(data)

    def fight(spec: Any) -> None:
        rng = dice.seeded(1)
        run_fight(build(spec, folder, rng, RULES), rng, RULES, 3)

    _library("fight file", lambda: load_fight(path), fight)
    _cli("fight file (cli)", capsys, "fight", str(path), "--seed", "1", "--rounds", "3", "--quiet")


@fuzz_settings(0.15)
@given(data=mutated(CHARACTERS, "json"))
def test_character_files(data: bytes, folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = folder / "hero.json"
    path.write_bytes(data)

    def rules(c: Character) -> None:
        from_character(c, "party", RULES)
        c.ac(RULES), c.prof(RULES), c.hit_die(RULES)

    _library("character file", lambda: Character.from_file(path), rules)
    _cli("character file (cli)", capsys, "character", "show", str(path))
    _cli("character file (cli)", capsys, "character", "level-up", str(path), "--ability", "STR", "--seed", "1",
         "--no-write")


@fuzz_settings(0.1)
@given(data=mutated(CAMPAIGNS, "json"))
def test_clock_files(data: bytes, folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = folder / "campaign.json"
    path.write_bytes(data)
    _library("clock file", lambda: load_state(str(path)),
             lambda campaign: advance(campaign, 1, "turn", dice.seeded(1), HAZARDS))
    _cli("clock file (cli)", capsys, "clock", "status", "--state", str(path))
    _cli("clock file (cli)", capsys, "clock", "advance", "1", "day", "--state", str(path), "--profile", "hazards",
         "--seed", "1")

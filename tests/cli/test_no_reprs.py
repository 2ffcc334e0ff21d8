"""No Python reprs in any output (issue 12, "Output a referee reads"): a broad run of the commands a referee
types — every table rolled on every row, crits and fumbles for each class and armor, SPELLCHECKs and mishaps,
the example fights under the three profiles, a campaign's funnel, fight and encounter turn by turn, and every
character sheet format — and not one line of their output shows a repr marker (a dict, a list of dicts, a
keyword `=[`, `=None`, a `Decimal(`, an object's address or a traceback)."""

from __future__ import annotations

import contextlib
import io
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from furnace.cli.app import main
from furnace.rules.tables import TableSet

ROOT = Path(__file__).resolve().parents[2]
MARKERS = ("{'", "[{", "': ", "=[", "=None", "Decimal(", "<furnace", "object at 0x", "Traceback")
SEEDS = (1, 2, 3)
CLASSES = ("Fighter", "Cleric", "Rogue", "Magic-user", "0-level")
PROFILES = ("furnace", "hazards", "middle-sea")


def _table_rolls() -> list[list[str]]:
    """Every row of every rolled table (its low end as the die), and each table's own die with a few seeds."""
    out: list[list[str]] = []
    for t in TableSet.packaged():
        out.append(["table", "show", t.name])
        if t.kind != "range":
            continue
        for row in t.rows:
            if row.min is not None:
                out.append(["table", "roll", t.name, "--die", str(row.min)])
        if t.roll and not any(c.isupper() for c in t.roll.replace("d", "")):
            out += [["table", "roll", t.name, "--seed", str(s)] for s in SEEDS]
    return out


def _plays() -> list[list[str]]:
    crits = [["crit", "--class", c, "--level", str(level), "--seed", str(s)]
             for c in CLASSES for level in (1, 7) for s in SEEDS]
    fumbles = [["fumble", "--armor", a, "--seed", str(s)] for a in ("none", "light", "heavy") for s in SEEDS]
    spells = [["spellcheck", "--mod", "3", "--prof", "2", "--dc", "14", "--spell", spell, "--seed", str(s)]
              for spell in ("Fireball", "Chill Touch", "Animate Dead", "Ember Swarm") for s in range(1, 9)]
    mishaps = [["spell", "cast", "Fireball", "--caster", "examples/characters/maelis.json", "--dc", "12", "--seed",
                str(s)] for s in range(1, 41)]      # natural 1s among them: the mishap rows
    fights = [["fight", f"examples/{f}", "--seed", str(s), "--profile", p]
              for f in ("funnel-vs-goblins.yaml", "party-vs-ogre.yaml") for s in SEEDS for p in PROFILES]
    sheets = [["character", "show", f"examples/characters/{c}", *fmt]
              for c in ("maelis.json", "brakka.json", "hob.json") for fmt in ((), ("--markdown",))]
    checks = [["check", "STR=2", "--dc", "14", "--hard", "1", "--seed", str(s)] for s in SEEDS]
    options = [[*c, flag] for c in (crits[0], fumbles[0], spells[0], checks[0]) for flag in ("--explain", "--no-roll")
               if flag != "--no-roll" or c[0] in ("crit", "fumble", "spellcheck")]
    return [*crits, *fumbles, *spells, *mishaps, *fights, *sheets, *checks, *options,
            ["grievous", "--excess", "3", "--helmet", "--seed", "2"],
            ["weapon-mishap", "--class", "blunt", "--seed", "1"],
            ["spell", "show", "Chill Touch"], ["spell", "cast", "Fireball", "--caster",
                                                "examples/characters/maelis.json", "--dc", "12", "--seed", "3"],
            ["item", "show", "Mjolnir"], ["disease", "Green River Fever", "--seed", "1"],
            ["travel", "--days", "3", "--seed", "2"], ["fall", "250", "--seed", "1"]]


def _campaign() -> list[list[str]]:
    """A session on the campaign: funnel, a fight, promotion, a fight turn by turn, rests, the sheets."""
    return [
        ["campaign", "new", "keep"], ["funnel", *[a for p in "ABCD" for a in ("--player", p)], "--per-player", "3",
                                             "--seed", "1"],
        ["fight", "--party", "all", "--monsters", "goblin x3", "--seed", "2"],
        ["character", "list"], ["campaign", "log"],
        ["encounter", "start", "--monsters", "goblin x2, orc", "--seed", "3"], ["encounter", "status"],
        ["encounter", "actions"], ["encounter", "next", "--seed", "4"], ["encounter", "status", "--explain"],
        ["encounter", "next", "--seed", "5"], ["encounter", "end"], ["rest", "long", "--party", "--seed", "5"],
        ["campaign", "recap"], ["campaign", "show"], ["campaign", "log", "--rolls"],
        *[["character", "show", who, *fmt] for who in ("A-1", "B-2") for fmt in ((), ("--markdown",), ("--json",))],
    ]


def run(args: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(args)
    return code, out.getvalue() + err.getvalue()


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("FURNACE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("FURNACE_DATABASE_URL", f"sqlite:///{tmp_path / 'campaigns.db'}")
    monkeypatch.setenv("FURNACE_CAMPAIGN", "keep")
    yield tmp_path


def _reprs(commands: list[list[str]]) -> list[str]:
    found = []
    for args in commands:
        code, text = run(args)
        if code != 0:
            found.append(f"exit {code}: furnace {' '.join(args)}: {text.strip()[-200:]}")
        for line in text.splitlines():
            if any(m in line for m in MARKERS):
                found.append(f"furnace {' '.join(args)}\n    {line.strip()}")
    return found


def test_tables_show_and_roll_sentences(here: Path) -> None:
    found = _reprs(_table_rolls())
    assert not found, "\n".join(found[:40])


def test_play_magic_hazards_and_sheets_show_sentences(here: Path) -> None:
    found = _reprs(_plays())
    assert not found, "\n".join(found[:40])


def test_a_session_on_the_campaign_shows_sentences(here: Path) -> None:
    found = _reprs(_campaign())
    assert not found, "\n".join(found[:40])


@pytest.mark.rule("F-TAB-31", "F-DEATH-01")
def test_rule_ids_only_under_explain(here: Path) -> None:
    """Issue 12: the referee's output of table roll, crit, fumble, check, fight and encounter names no rule id;
    `--explain` (on the command or on `furnace`) shows them: F-TAB-31 for the crit table, F-DEATH-01 for a
    bleeding-out timer in the root-cellar fight."""
    import re

    from furnace.rules.ids import RULE_ID

    commands = [a for a in _table_rolls() if a[:2] == ["table", "roll"]][::7] + [
        a for a in _plays() if a[0] in ("crit", "fumble", "check", "fight", "spellcheck")] + _campaign()
    found = []
    for args in commands:
        _, text = run(args)
        text = re.sub(r"\b[A-D]-\d\b", "", text)      # the peasants of players A to D (D-1 is a name, not a rule)
        hit = re.search(RULE_ID, text) if args[0] in ("table", "crit", "fumble", "check", "fight", "encounter",
                                                       "spellcheck") and "--explain" not in args else None
        if hit:
            found.append(f"furnace {' '.join(args)}: {hit[0]}")
    assert not found, "\n".join(found[:20])
    crit = ["crit", "--class", "Fighter", "--level", "7", "--seed", "2"]
    assert "(F-TAB-31)" in run([*crit, "--explain"])[1] and "(F-TAB-31)" in run(["--explain", *crit])[1]
    fight = ["fight", "examples/funnel-vs-goblins.yaml", "--seed", "1"]
    assert "(F-DEATH-01)" not in run(fight)[1] and "(F-DEATH-01)" in run([*fight, "--explain"])[1]

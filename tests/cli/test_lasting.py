"""What lasts lives on the campaign clock, through the CLI: a dying timer out of a fight and its d20 each round
(F-DEATH-01, AMB-03, CF-12; dying_timer_roll open or referee), a heal that clears DYING, the wrong chapter's rule
no more (H-DMG-02 only under hazards, a grievous injury under middle-sea), H-HEAL-04's waking, stabilising out of
a fight (F-INJ-01, F-DEATH-02, REF-25), the clock and rest refused while an encounter runs, damage and healing
during an encounter acting on it.

Brakka (examples/characters/brakka.json): Fighter 3, 22 HP, CON 12 (+0): dead at −(3 + 3 + 0) = −6 (F-DEATH-02);
24 damage leaves her at −2, dying.
Sister Ilse: Cleric 3, WIS 6 (−1), proficient in Medicine (PROF +2 at level 3).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from furnace.campaign.store import Store
from furnace.events import Event
from furnace.render import story
from furnace.render.story.view import View
from tests.cli.conftest import Run
from tests.helpers.factories import reopened

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "characters"


def _db(tmp_path: Path) -> Path:
    return tmp_path / "campaigns.db"


def keep(furnace: Run, *options: str) -> Run:
    """The campaign `keep` (options: `--profile middle-sea`, `--option x=y`), Brakka and Sister Ilse joined; the
    runner of its commands, each of which must succeed."""
    code, _, err = furnace("campaign", "new", "keep", *options)
    assert code == 0, err

    def run(*args: str) -> tuple[int, str, str]:
        return furnace("--campaign", "keep", *args)

    code, _, err = run("campaign", "join", str(EXAMPLES / "brakka.json"), str(EXAMPLES / "ilse.json"))
    assert code == 0, err
    return run


def ok(run: Run, *args: str) -> str:
    code, out, err = run(*args)
    assert code == 0 and err == "", (args, err)
    return out


def facts(tmp_path: Path, kind: str) -> list[Event]:
    store = Store(f"sqlite:///{_db(tmp_path)}")
    try:
        return [f for e in store.events("keep") if e.kind == kind and (f := e.fact) is not None]
    finally:
        store.close()


def told(e: Event, view: View) -> str:
    line = story.tell(e, view)
    return "" if line is None else str(line)


@pytest.mark.rule("F-DEATH-01")
def test_F_DEATH_01_a_dying_timer_out_of_a_fight_rolls_a_d20_each_round_of_clock_time(furnace: Run,
                                                                                    tmp_path: Path) -> None:
    run = keep(furnace)
    out = ok(run, "damage", "Brakka", "24", "--faces", "2")          # 22 → −2: dying, timer 1d4 = 2
    assert "dies in 2 turns" in out
    brakka = reopened(_db(tmp_path)).roster["brak1"].character
    assert (brakka.hp, brakka.conditions) == (-2, ["DYING"])
    entry = next(e for e in reopened(_db(tmp_path)).clock.entries if e.kind == "dying")
    assert (entry.remaining, entry.every, entry.at) == (2, 6, 6)      # a round is round_seconds (6) of clock time
    ok(run, "clock", "advance", "1", "round", "--faces", "8")         # her 1st d20: 8, still dying, 1 turn left
    assert reopened(_db(tmp_path)).roster["brak1"].status == "dying"
    out = ok(run, "clock", "advance", "1", "round", "--faces", "11")  # her 2nd and last: 11 — bled out
    state = reopened(_db(tmp_path))
    assert state.roster["brak1"].status == "dead" and "[11]" in out   # the last d20 shown with the death
    assert not [e for e in state.clock.entries if e.owner == "Brakka"]


@pytest.mark.rule("F-DEATH-01")
def test_F_DEATH_01_a_natural_20_on_the_clock_gets_her_up_with_1_hp(furnace: Run, tmp_path: Path) -> None:
    run = keep(furnace)
    ok(run, "damage", "Brakka", "24", "--faces", "4")
    ok(run, "clock", "advance", "1", "minute", "--faces", "20")       # her first d20 is a natural 20
    brakka = reopened(_db(tmp_path)).roster["brak1"]
    assert (brakka.status, brakka.character.hp, brakka.character.conditions) == ("alive", 1, [])
    assert not [e for e in reopened(_db(tmp_path)).clock.entries if e.owner == "Brakka"]


@pytest.mark.rule("F-DEATH-01")
def test_F_DEATH_01_dying_timer_roll_referee_hides_the_1d4_from_the_table(furnace: Run, tmp_path: Path) -> None:
    run = keep(furnace, "--option", "dying_timer_roll=referee")
    ok(run, "damage", "Brakka", "24", "--faces", "3")
    (drop,) = facts(tmp_path, "dying")
    (timer,) = facts(tmp_path, "dying_timer")
    assert "turns" not in drop.data and not drop.rolls and timer.audience == "referee" and timer.data["turns"] == 3
    assert "3 turns" not in told(drop, View("table")) and "hidden timer" in told(drop, View("table"))
    assert "3 rounds" in told(timer, View())                           # the referee's own view
    ok(run, "clock", "advance", "1", "round", "--faces", "7")
    (still,) = facts(tmp_path, "still_dying")
    assert "turns" not in still.data and "left" not in told(still, View("table"))


@pytest.mark.rule("F-DEATH-01", "H-DMG-02")
def test_a_heal_above_0_hp_clears_dying_and_the_timer(furnace: Run, tmp_path: Path) -> None:
    run = keep(furnace)
    ok(run, "damage", "Brakka", "24", "--faces", "3")
    out = ok(run, "heal", "Brakka", "5")                               # −2 + 5 = 3
    state = reopened(_db(tmp_path))
    brakka = state.roster["brak1"]
    assert (brakka.status, brakka.character.hp, brakka.character.conditions) == ("alive", 3, [])
    assert not [e for e in state.clock.entries if e.owner == "Brakka"] and "no longer" in out
    ok(run, "damage", "Brakka", "5", "--faces", "1")                    # 3 → −2: dying again
    second = facts(tmp_path, "dying")[-1]                               # furnace's own rule, not hazards' H-DMG-02
    assert (second.rules, second.data["hp"], second.data["turns"]) == (("F-DEATH-01",), -2, 1)


def test_the_option_dying_timer_roll_is_read_by_the_engine() -> None:
    """F-DEATH-01 "secretly or openly": the engine's reading of the option the CLI test above sets."""
    from furnace.play.death import open_timer
    from furnace.rules.ruleset import load_ruleset

    rules = load_ruleset("furnace")
    assert open_timer(rules) and not open_timer(rules.with_options({"dying_timer_roll": "referee"}))

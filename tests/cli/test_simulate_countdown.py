"""`furnace simulate` resolves what a fight leaves: a character dying when a fight ends lives or dies by her
countdown (F-DEATH-01), stabilised only by a winning party, by the `stabilize_methods` option's means (AMB-28);
the endings are disjoint and add up to every fight."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from furnace.cli.app import main
from furnace.play.outcomes import ENDINGS
from furnace.play.simulate import FightFileSource, fight_seed

FUNNEL = str(Path(__file__).resolve().parents[2] / "examples" / "funnel-vs-goblins.yaml")


def simulate(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    code = main(["simulate", FUNNEL, "--fights", "1", "--json", *args])
    out = capsys.readouterr()
    assert code == 0, out.err
    data: dict[str, object] = json.loads(out.out)
    return data


@pytest.mark.rule("F-DEATH-01", "F-DEATH-02")
def test_F_DEATH_01_a_lost_fight_s_dying_bleed_out(capsys: pytest.CaptureFixture[str]) -> None:
    """Fight 0 of seed 1 (the README's): the goblins win in round 5 with Corra dying (timer 4) and Gisla dying
    (timer 2). Nobody stabilises them: Gisla's d20s 16 and 10, Corra's 3, 7, 3 and 6 (no natural 20): both bleed
    out, so every PC is dead and Gisla dies in this fight (the old count called it a loss with survivors)."""
    data = simulate(capsys, "--seed", "1")
    assert data["outcomes"] == {"party wins": 0, "party loses with survivors": 0, "every PC dead": 1,
                                "round limit": 0}
    assert data["p_dies"] == dict.fromkeys(["Agna", "Bertil", "Corra", "Dunstan", "Edda", "Fennick", "Gisla",
                                            "Hob"], 1.0)
    assert data["left_dying_per_fight"] == 2 and data["left_dying_who_die"] == 1.0
    fought = FightFileSource(FUNNEL).prepare()(fight_seed(1, 0))
    names = {c.id: c.name for c in fought.start.combatants}
    dying = {c.id for c in fought.end.combatants if c.status == "dying"}
    timers = {names[e.actor]: e.data["turns"] for e in fought.events if e.kind == "dying" and e.actor in dying}
    assert timers == {"Corra": 4, "Gisla": 2}
    d20s = [(e.actor, e.data["total"]) for e in fought.countdown if e.kind in ("still_dying", "death")]
    assert [(names[a], n) for a, n in d20s] == [("Corra", 3), ("Gisla", 16), ("Corra", 7), ("Gisla", 10),
                                                ("Corra", 3), ("Corra", 6)]


@pytest.mark.rule("F-DEATH-01", "F-INJ-01")
def test_AMB_28_a_winning_party_stabilises_its_dying_by_the_option(capsys: pytest.CaptureFixture[str]) -> None:
    """Fight 0 of seed 3: the party wins with Fennick and Hob dying. Under medicine_or_healing Corra and Edda each
    make a Medicine CHECK vs ROOM DC 10 (totals shown with their d20), both succeed, and each stabilised roll the
    Injuries table: both live. Under referee_only nobody may: the same fight, and their d20s decide."""
    fought = FightFileSource(FUNNEL).prepare()(fight_seed(3, 0))
    names = {c.id: c.name for c in fought.start.combatants}
    checks = [e for e in fought.countdown if e.kind == "stabilise"]
    assert [(names[e.actor], names[e.targets[0]]) for e in checks] == [("Corra", "Fennick"), ("Edda", "Hob")]
    for e in checks:
        assert e.data["dc"] == 10 and e.data["total"] >= 10 and e.data["outcome"] == "stabilises"
        assert e.rolls[0].total == e.data["total"]
    assert sum(e.kind == "injury" for e in fought.countdown) == 2
    data = simulate(capsys, "--seed", "3")
    dies = data["p_dies"]
    assert isinstance(dies, dict) and dies["Fennick"] == dies["Hob"] == 0.0
    assert data["outcomes"] == {"party wins": 1, "party loses with survivors": 0, "every PC dead": 0,
                                "round limit": 0}
    alone = FightFileSource(FUNNEL, options=(("stabilize_methods", "referee_only"),)).prepare()(fight_seed(3, 0))
    assert not any(e.kind == "stabilise" for e in alone.countdown)
    fates = {names[e.actor]: e.kind for e in alone.countdown if e.kind in ("death", "recover")}
    data = simulate(capsys, "--seed", "3", "--option", "stabilize_methods=referee_only")
    dies = data["p_dies"]
    assert isinstance(dies, dict)
    assert {n: dies[n] for n in ("Fennick", "Hob")} == {n: float(fates.get(n) == "death") for n in ("Fennick", "Hob")}
    assert set(fates) == {"Fennick", "Hob"}


def test_the_endings_add_up_to_every_fight(capsys: pytest.CaptureFixture[str]) -> None:
    """Each fight ends one way: the four shares printed add up to 100%, and the JSON's counts to the fights."""
    assert main(["simulate", FUNNEL, "--fights", "40", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    shares = [float(line.rsplit(" ", 1)[1].rstrip("%")) for line in out.splitlines()[1:5]]
    assert len(shares) == 4 and abs(sum(shares) - 100.0) < 0.05
    data = simulate(capsys, "--seed", "2", "--fights", "40")
    counts = data["outcomes"]
    assert isinstance(counts, dict) and list(counts) == list(ENDINGS) and sum(counts.values()) == 40
    assert data["p_victory"] == counts["party wins"] / 40 and data["p_tpk"] == counts["every PC dead"] / 40

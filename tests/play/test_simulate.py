"""furnace.play.simulate: many fights of one encounter through the engine's own build and run_fight.

F-CMBT-01..05, F-INIT-01 (each fight is the engine's fight, replayed from its seed), F-DEATH-02 (who dies),
F-LUCK-03 (Luck Dice spent are counted from the log).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from furnace import dice
from furnace.errors import FurnaceError
from furnace.play.encounter import run_fight
from furnace.play.fightfile import build, load_fight
from furnace.play.simulate import FightFileSource, fight_seed, outcome, simulate
from furnace.render.plots import simulation_svg, text_histogram
from furnace.rules.ruleset import load_ruleset

FUNNEL = str(Path(__file__).resolve().parents[2] / "examples" / "funnel-vs-goblins.yaml")


def test_F_CMBT_01_each_fight_is_the_one_fight_builds_from_its_seed() -> None:
    """Fight i of the simulation is exactly `build` + `run_fight` seeded fight_seed(seed, i)."""
    rules = load_ruleset("furnace")
    fighter = FightFileSource(FUNNEL).prepare()
    for i in range(3):
        s = fight_seed(7, i)
        rng = dice.seeded(s)
        start = build(load_fight(FUNNEL), Path(FUNNEL).parent, rng, rules)
        after, events = run_fight(start, rng, rules, 20)
        mine = fighter(s)
        assert mine[0] == start and mine[1] == after
        assert [e.to_dict() for e in mine[2]] == [e.to_dict() for e in events]


def test_F_CMBT_05_results_are_the_same_for_any_number_of_workers() -> None:
    one = simulate(FightFileSource(FUNNEL), 24, 3, workers=1)
    two = simulate(FightFileSource(FUNNEL), 24, 3, workers=2)
    assert one == two
    assert [o.index for o in two.outcomes] == list(range(24))


def test_F_DEATH_02_summary_counts_deaths_wins_and_luck() -> None:
    told: list[int] = []
    summary = simulate(FightFileSource(FUNNEL), 20, 1, progress=told.append)
    assert sum(told) == 20
    assert summary.party == ("Agna", "Bertil", "Corra", "Dunstan", "Edda", "Fennick", "Gisla", "Hob")
    wins = sum(o.won for o in summary.outcomes)
    assert summary.p_victory() == wins / 20
    assert summary.p_dies()["Agna"] == sum("Agna" in o.dead for o in summary.outcomes) / 20
    assert sum(summary.rounds().values()) == 20
    assert sum(summary.outcomes_count().values()) == 20
    assert "the party wins" in summary.explain()


def test_F_LUCK_03_luck_dice_spent_are_the_log_s_spends() -> None:
    fighter = FightFileSource(FUNNEL).prepare()
    s = fight_seed(1, 0)
    fought = fighter(s)
    got = outcome(0, s, fought)
    assert got.luck_spent == sum(1 for e in fought[2] if e.kind == "luck")
    assert got.tpk == (len(got.dead) == 8)


def test_fight_seed_is_stable_and_distinct() -> None:
    assert fight_seed(1, 0) == fight_seed(1, 0)
    assert len({fight_seed(1, i) for i in range(1000)} | {fight_seed(2, i) for i in range(1000)}) == 2000


def test_bad_counts_are_refused() -> None:
    with pytest.raises(FurnaceError, match="number of fights"):
        simulate(FightFileSource(FUNNEL), 0, 1)
    with pytest.raises(FurnaceError, match="number of workers"):
        simulate(FightFileSource(FUNNEL), 1, 1, workers=0)


def test_plots_are_pure_text() -> None:
    assert text_histogram({3: 2, 4: 1}, width=4).splitlines() == [
        "round   3 ████       2 (66.7%)", "round   4 ██         1 (33.3%)"]
    svg = simulation_svg("a <fight>", {"party wins": 3}, {2: 3})
    assert svg.startswith("<svg") and "a &lt;fight&gt;" in svg and "3 (100.0%)" in svg

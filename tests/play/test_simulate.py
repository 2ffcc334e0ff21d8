"""furnace.play.simulate: many fights of one encounter through the engine's own build and run_fight.

F-CMBT-01..05, F-INIT-01 (each fight is the engine's fight, replayed from its seed), F-DEATH-02 (who dies),
F-LUCK-03 (Luck Dice spent are counted from the log).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from furnace import dice
from furnace.errors import FurnaceError
from furnace.play.encounter import run_fight
from furnace.play.fightfile import build, load_fight
from furnace.play.simulate import (
    MAX_FIGHTS,
    FightFileSource,
    cell_seed,
    check_size,
    fight_seed,
    grid,
    outcome,
    parameter,
    simulate,
    sweep,
    varied,
)
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
        assert mine.start == start and mine.end == after
        assert [e.to_dict() for e in mine.events] == [e.to_dict() for e in events]


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
    assert got.luck_spent == sum(1 for e in fought.events if e.kind == "luck")
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


# -- sweeps --------------------------------------------------------------------------------------------------

RULES = load_ruleset("furnace")


def test_D_2_vary_reads_fields_monsters_and_options() -> None:
    """room_dc (D-2: the monsters' AC and ATK follow it), a monster's count by its name in the file, an option."""
    src = FightFileSource(FUNNEL)
    dc = parameter("room_dc=10..12", src, RULES)
    goblins = parameter("goblin=2,4", src, RULES)
    morale = parameter("option:enemy_morale=true,false", src, RULES)
    assert (dc.kind, dc.values) == ("field", (10, 11, 12))
    assert (goblins.kind, goblins.values) == ("monster", (2, 4))
    assert (morale.kind, morale.values) == ("option", (True, False))
    cells = grid([dc, goblins, morale])
    assert len(cells) == 12
    cell = varied(src, cells[-1])
    assert isinstance(cell, FightFileSource)
    assert (cell.room_dc, cell.counts, cell.options) == (12, (("goblin", 4),), (("enemy_morale", False),))
    start = cell.prepare()(fight_seed(1, 0)).start
    assert sum(c.kind == "monster" for c in start.combatants) == 4 and start.room_dc == 12
    assert all(c.ac == 12 for c in start.combatants if c.kind == "monster")


@pytest.mark.parametrize(("text", "why"), [
    ("ogre=1..3", "not a fight field"), ("room_dc=16..10", "goes up"), ("room_dc=a..b", "two whole numbers"),
    ("room_dc=41", "outside 1 to 40"), ("option:enemy_morale=maybe", "enemy_morale"), ("goblin", "NAME=VALUES"),
    ("goblin=0..2", "outside 1 to 100"),
])
def test_bad_vary_is_refused_in_a_sentence(text: str, why: str) -> None:
    with pytest.raises(FurnaceError, match=why):
        parameter(text, FightFileSource(FUNNEL), RULES)


def test_a_sweep_is_bounded_before_it_starts() -> None:
    with pytest.raises(FurnaceError, match="fights per cell"):
        check_size(98, 20_000)
    check_size(98, MAX_FIGHTS // 98)
    with pytest.raises(FurnaceError, match="cells"):
        sweep(FightFileSource(FUNNEL), [parameter("room_dc=1..40", FightFileSource(FUNNEL), RULES),
                                        parameter("goblin=1..30", FightFileSource(FUNNEL), RULES)], 1, 1)


def test_F_CMBT_05_each_cell_has_its_own_seed_and_replays_alone() -> None:
    """A cell's fights are seeded from the run seed and its settings: a sweep of that one cell gives the same
    fights, and fight i of the cell is the cell's source fought with fight_seed(cell seed, i)."""
    src = FightFileSource(FUNNEL)
    dc, goblins = parameter("room_dc=10,12", src, RULES), parameter("goblin=3,6", src, RULES)
    whole = sweep(src, [dc, goblins], 6, 9, workers=1)
    assert len({c.seed for c in whole.cells}) == 4
    target = whole.cells[3]
    alone = sweep(src, [parameter("room_dc=12", src, RULES), parameter("goblin=6", src, RULES)], 6, 9)
    assert alone.cells[0].seed == target.seed == cell_seed(9, target.settings)
    assert alone.cells[0].summary == target.summary
    s = fight_seed(target.seed, 2)
    replayed = outcome(2, s, varied(src, target.settings).prepare()(s))
    assert target.summary.outcomes[2] == replayed
    assert "P(TPK)" in whole.table() and whole.to_dict()["cells"][3]["settings"] == {"room_dc": 12, "goblin": 6}


def test_F_CMBT_05_a_sweep_is_the_same_on_two_workers() -> None:
    src = FightFileSource(FUNNEL)
    params = [parameter("option:enemy_morale=true,false", src, RULES)]
    assert sweep(src, params, 8, 2, workers=1) == sweep(src, params, 8, 2, workers=2)


# -- Dask: the same tasks on a cluster ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def cluster_address() -> Iterator[str]:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        yield cluster.scheduler_address


def test_F_CMBT_05_dask_gives_the_local_result(cluster_address: str) -> None:
    src = FightFileSource(FUNNEL)
    assert simulate(src, 16, 5, scheduler=cluster_address) == simulate(src, 16, 5)
    params = [parameter("room_dc=10,13", src, RULES), parameter("goblin=3,5", src, RULES)]
    told: list[int] = []
    on_dask = sweep(src, params, 5, 5, scheduler=cluster_address, progress=told.append)
    assert on_dask == sweep(src, params, 5, 5) and sum(told) == 20


def test_an_unreachable_scheduler_is_a_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("distributed")
    monkeypatch.setattr("furnace.play.simulate.CONNECT_TIMEOUT", "1s")
    with pytest.raises(FurnaceError, match="cannot reach the Dask scheduler"):
        simulate(FightFileSource(FUNNEL), 2, 1, scheduler="tcp://127.0.0.1:9")

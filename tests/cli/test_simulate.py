"""`furnace simulate`, run in-process. F-INIT-01, F-CMBT-05: fight i of a run replays with `furnace fight FILE
--seed <its seed>` (the same log)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from furnace.cli.app import main
from furnace.play.encounter import log_text
from furnace.play.simulate import FightFileSource, fight_seed

FUNNEL = str(Path(__file__).resolve().parents[2] / "examples" / "funnel-vs-goblins.yaml")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_F_INIT_01_fight_i_replays_with_furnace_fight(capsys: pytest.CaptureFixture[str]) -> None:
    s = fight_seed(5, 2)
    code, out, _ = run(capsys, "fight", FUNNEL, "--seed", str(s), "--option", "enemy_morale=true")
    assert code == 0
    source = FightFileSource(FUNNEL, options=(("enemy_morale", True),))
    _start, _after, events = source.prepare()(s)
    assert log_text(events) in out
    code, out, _ = run(capsys, "simulate", FUNNEL, "--fights", "3", "--seed", "5", "--json",
                       "--option", "enemy_morale=true")
    assert code == 0 and json.loads(out)["fight_seeds"][2] == s


def test_F_CMBT_05_simulate_prints_odds_histogram_and_plot(capsys: pytest.CaptureFixture[str],
                                                          tmp_path: Path) -> None:
    plot = tmp_path / "p.svg"
    code, out, err = run(capsys, "simulate", FUNNEL, "--fights", "10", "--seed", "1", "--plot", str(plot))
    assert code == 0, err
    assert "the party wins" in out and "round " in out and "replays with --seed" in out
    assert plot.read_text(encoding="utf-8").startswith("<svg")
    code, _, err = run(capsys, "simulate", FUNNEL, "--fights", "10", "--seed", "1", "--plot", str(plot))
    assert code == 2 and "error:" in err
    code, _, err = run(capsys, "simulate", FUNNEL, "--fights", "10", "--seed", "1", "--plot", str(plot), "--force")
    assert code == 0, err


def test_simulate_json_is_the_same_for_two_workers(capsys: pytest.CaptureFixture[str]) -> None:
    one = run(capsys, "simulate", FUNNEL, "--fights", "12", "--seed", "9", "--json")
    two = run(capsys, "simulate", FUNNEL, "--fights", "12", "--seed", "9", "--json", "--workers", "2")
    assert one[0] == two[0] == 0 and json.loads(one[1]) == json.loads(two[1])


def test_simulate_without_file_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "simulate", "--fights", "2")
    assert code == 2 and "fight FILE" in err


def test_F_CMBT_05_simulate_the_campaign_party_writes_nothing(capsys: pytest.CaptureFixture[str],
                                                             tmp_path: Path) -> None:
    """The campaign form: the roster against the bestiary, and the campaign's log is the same length after."""
    from furnace.campaign.store import Store

    db = str(tmp_path / "c.db")
    brakka = str(Path(FUNNEL).parent / "characters" / "brakka.json")
    assert main(["--db", db, "campaign", "new", "keep"]) == 0
    assert main(["--db", db, "--campaign", "keep", "campaign", "join", brakka]) == 0
    store = Store(f"sqlite:///{db}")
    before = store.count("keep")
    store.close()
    capsys.readouterr()
    code, out, err = run(capsys, "--db", db, "--campaign", "keep", "simulate", "--party", "all",
                         "--monsters", "goblin x2", "--fights", "20", "--seed", "3", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["fights"] == 20 and 0.0 <= data["p_victory"] <= 1.0
    assert set(data["p_dies"]) == {"Brakka"}
    store = Store(f"sqlite:///{db}")
    assert store.count("keep") == before
    store.close()

"""`furnace simulate`, run in-process. F-INIT-01, F-CMBT-05: fight i of a run replays with `furnace fight FILE
--seed <its seed>` (the same log)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from furnace.cli.app import main
from furnace.play.simulate import FightFileSource, fight_seed

FUNNEL = str(Path(__file__).resolve().parents[2] / "examples" / "funnel-vs-goblins.yaml")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.rule("F-INIT-01")
def test_F_INIT_01_fight_i_replays_with_furnace_fight(capsys: pytest.CaptureFixture[str]) -> None:
    s = fight_seed(5, 2)
    code, out, _ = run(capsys, "fight", FUNNEL, "--seed", str(s), "--option", "enemy_morale=true", "--json")
    assert code == 0
    source = FightFileSource(FUNNEL, options=(("enemy_morale", True),))
    events = source.prepare()(s).events
    assert json.loads(out)["events"] == json.loads(json.dumps([e.to_dict() for e in events], default=str))
    code, out, _ = run(capsys, "simulate", FUNNEL, "--fights", "3", "--seed", "5", "--json",
                       "--option", "enemy_morale=true")
    assert code == 0 and json.loads(out)["fight_seeds"][2] == s


@pytest.mark.rule("F-CMBT-05")
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


@pytest.mark.rule("F-CMBT-05")
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


@pytest.mark.rule("F-CMBT-05")
def test_F_CMBT_05_a_sweep_prints_its_table_json_and_heat_map(capsys: pytest.CaptureFixture[str],
                                                              tmp_path: Path) -> None:
    plot = tmp_path / "sweep.svg"
    args = ("simulate", FUNNEL, "--fights", "4", "--seed", "2", "--vary", "room_dc=10,12", "--vary", "goblin=3..4",
            "--vary", "option:enemy_morale=true,false")
    code, out, err = run(capsys, *args, "--plot", str(plot))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "8 cells × 4 fights (seed 2):"
    assert lines[1].split() == ["room_dc", "goblin", "option:enemy_morale", "P(TPK)", "P(victory)", "cell", "seed"]
    assert len(lines) == 2 + 8 + 1
    svg = plot.read_text(encoding="utf-8")
    assert svg.startswith("<svg") and "room_dc=12" in svg and "goblin=4, option:enemy_morale=false" in svg
    code, out, _ = run(capsys, *args, "--json")
    cells = json.loads(out)["cells"]
    assert len(cells) == 8 and cells[0]["settings"] == {"room_dc": 10, "goblin": 3, "option:enemy_morale": True}


def test_a_sweep_past_the_bound_is_refused_before_it_starts(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "simulate", FUNNEL, "--fights", "100000", "--vary", "room_dc=10..25")
    assert code == 2 and "16 cells × 100,000 fights" in err and err.count("\n") == 1


@pytest.mark.rule("F-CMBT-05")
def test_F_CMBT_05_simulate_on_a_dask_cluster(capsys: pytest.CaptureFixture[str]) -> None:
    distributed = pytest.importorskip("distributed")
    args = ("simulate", FUNNEL, "--fights", "6", "--seed", "4", "--vary", "goblin=3,5", "--json")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        remote = run(capsys, *args, "--scheduler", cluster.scheduler_address)
    local = run(capsys, *args)
    assert remote[0] == local[0] == 0 and json.loads(remote[1]) == json.loads(local[1])


@pytest.mark.parametrize("args", [
    ["fight", "examples/funnel-vs-goblins.yaml", "--seed", "1"], ["funnel", "--seed", "1"],
    ["simulate", "examples/funnel-vs-goblins.yaml", "--fights", "2", "--seed", "1"], ["odds", "d20+3", "--dc", "15"],
])
def test_without_a_campaign_the_database_layer_is_not_imported(args: list[str], tmp_path: Path) -> None:
    """Start-up: sqlalchemy, alembic and furnace.campaign load only when a campaign is used."""
    import os
    import subprocess
    import sys

    code = ("import sys; from furnace.cli import main; main(sys.argv[1:]); "
            "print('LOADED', sorted(m for m in sys.modules if m.split('.')[0] in ('sqlalchemy', 'alembic') "
            "or m.startswith('furnace.campaign')))")
    env = {k: v for k, v in os.environ.items() if not k.startswith("FURNACE_")} | {"HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env,
                          cwd=Path(FUNNEL).parents[1], check=True)
    assert done.stdout.splitlines()[-1] == "LOADED []"


@pytest.mark.rule("F-CMBT-05")
def test_F_CMBT_05_a_campaign_sweep_varies_the_bestiary_count(capsys: pytest.CaptureFixture[str],
                                                               tmp_path: Path) -> None:
    db = str(tmp_path / "c.db")
    brakka = str(Path(FUNNEL).parent / "characters" / "brakka.json")
    assert main(["--db", db, "campaign", "new", "keep"]) == 0
    assert main(["--db", db, "--campaign", "keep", "campaign", "join", brakka]) == 0
    capsys.readouterr()
    code, out, err = run(capsys, "--db", db, "--campaign", "keep", "simulate", "--monsters", "goblin x2",
                         "--fights", "4", "--seed", "3", "--vary", "goblin=1,3", "--json")
    assert code == 0, err
    cells = json.loads(out)["cells"]
    assert [c["settings"] for c in cells] == [{"goblin": 1}, {"goblin": 3}]
    code, _, err = run(capsys, "--db", db, "--campaign", "keep", "simulate", "--monsters", "goblin x2",
                       "--fights", "4", "--vary", "ogre=1,3")
    assert code == 2 and "a monster of this fight (Goblin)" in err

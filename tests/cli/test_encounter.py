"""The campaign's fights through the CLI, in-process: `furnace fight --party … --monsters …` settled onto the
roster, `furnace encounter start|status|next|actions|act|end` turn by turn with the state checked after
reopening the store (F-INIT-01, F-CMBT-01, F-BASE-05), and the fight file's refusals (docs/fight-file.md).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from furnace.campaign import encounters
from furnace.campaign.store import Store
from furnace.cli.app import main
from furnace.play import turns
from tests.helpers.factories import reopened

ROOT = Path(__file__).resolve().parents[2]
BRAKKA = str(ROOT / "examples" / "characters" / "brakka.json")
DUNSTAN = str(ROOT / "examples" / "characters" / "dunstan.json")


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A campaign "keep" in a fresh SQLite file, with Brakka on its roster; no user config read."""
    monkeypatch.setenv("FURNACE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.delenv("FURNACE_CAMPAIGN", raising=False)
    path = str(tmp_path / "campaigns.db")
    assert main(["--db", path, "campaign", "new", "keep"]) == 0
    assert main(["--db", path, "--campaign", "keep", "campaign", "join", BRAKKA]) == 0
    yield path


def run(capsys: pytest.CaptureFixture[str], db: str, *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["--db", db, "--campaign", "keep", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def logged(db: str) -> int:
    """How many events the campaign "keep" has logged."""
    store = Store(f"sqlite:///{db}")
    try:
        return store.count("keep")
    finally:
        store.close()


@pytest.mark.rule("F-INIT-01", "F-CMBT-01")
def test_F_INIT_01_F_CMBT_01_turn_by_turn_through_the_cli(capsys: pytest.CaptureFixture[str], db: str) -> None:
    code, out, _ = run(capsys, db, "encounter", "start", "--monsters", "goblin x2", "--seed", "3")
    assert code == 0 and "a fight with Goblin x2 begins, ROOM DC 10" in out and "due:" in out
    assert run(capsys, db, "encounter", "next", "--seed", "4")[0] == 0
    state, count = reopened(db), logged(db)
    assert turns.due(encounters.current(state).turns) == encounters.current(state).turns.encounter.get("brak1")
    code, _, err = run(capsys, db, "encounter", "act", "goblin-1", "attack", "brak1")
    assert code == 2 and err == "error: it is not Goblin 1's turn: Brakka is due (round 1)\n"
    code, _, err = run(capsys, db, "encounter", "act", "brak1", "stabilise", "goblin-1")
    assert code == 2 and err == "error: Brakka stabilises an ally, and Goblin 1 is not one\n"
    code, _, err = run(capsys, db, "encounter", "act", "Brakka", "cast", "goblin-1", "--spell", "Fireball")
    assert code == 2 and err == "error: Brakka casts no spells\n"
    assert (reopened(db), logged(db)) == (state, count)                 # refused: nothing stored
    code, out, _ = run(capsys, db, "encounter", "actions", "--json")
    menu = {a["kind"]: a for a in json.loads(out)["actions"]}
    assert code == 0 and menu["dodge"]["legal"] and not menu["stabilise"]["legal"]
    assert menu["stabilise"]["reason"] == "no ally of hers is dying"
    code, out, _ = run(capsys, db, "encounter", "act", "brak1", "attack", "goblin-1", "--seed", "5", "--rage",
                       "--cleave")                                     # her lethal blow asks no question (F-FTR-03)
    assert code == 0 and out.startswith("Brakka: ") and "hits Goblin 1" in out and "ATK: d20" in out
    state, after = reopened(db), logged(db)
    now = encounters.current(state)
    assert after > count
    assert turns.due(now.turns) != now.turns.encounter.get("brak1")
    code, out, _ = run(capsys, db, "encounter", "status", "--json")
    shown = json.loads(out)["encounter"]
    assert code == 0 and shown["round"] == now.turns.encounter.round and shown["name"] == "a fight with Goblin x2"
    hp = now.turns.encounter.get("brak1").hp
    code, out, _ = run(capsys, db, "encounter", "end")
    assert code == 0 and "a fight with Goblin x2 is over" in out
    state = reopened(db)
    assert state.encounter is None and state.member("brak1").character.hp == hp
    code, _, err = run(capsys, db, "encounter", "status")
    assert code == 2 and "no encounter is in progress" in err


def test_a_campaign_fight_through_the_cli(capsys: pytest.CaptureFixture[str], db: str) -> None:
    """`fight --party … --monsters …`: one command, the roster written back (a death with cause and round)."""
    assert run(capsys, db, "campaign", "join", DUNSTAN)[0] == 0
    code, out, _ = run(capsys, db, "fight", "--party", "all", "--monsters", "ogre x2", "--room-dc", "12",
                       "--seed", "7", "--json")
    data = json.loads(out)
    assert code == 0 and data["campaign"] == "keep"
    assert len({e["command_id"] for e in data["events"]}) == 1
    state = reopened(db)
    dunstan = state.member("Dunstan")
    assert dunstan.status == "dead" and dunstan.death is not None and dunstan.death.round is not None
    assert data["roster"]["duns1"]["death"]["round"] == dunstan.death.round
    assert state.member("brak1").character.hp == data["roster"]["brak1"]["hp"]
    code, out, _ = run(capsys, db, "campaign", "log", "--no-rolls")
    assert f"Dunstan: is dead in round {dunstan.death.round} of a fight with Ogre x2" in out


@pytest.mark.parametrize(("args", "message"), [
    (["fight"], "give a fight FILE, or --monsters"),
    (["fight", "examples/party-vs-ogre.yaml", "--monsters", "goblin"], "name the monsters once"),
    (["fight", "--monsters", "goblin", "--profile", "middle-sea"], "plays by the profile furnace, not middle-sea"),
    (["fight", "--monsters", "gobbo"], "unknown monster 'gobbo'"),
    (["fight", "--party", "nobody", "--monsters", "goblin"], "nobody"),
    (["encounter", "act", "brak1", "wait"], "no encounter is in progress"),
])
def test_campaign_fights_refuse_bad_input(capsys: pytest.CaptureFixture[str], db: str, args: list[str],
                                          message: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    before = (reopened(db), logged(db))
    code, _, err = run(capsys, db, *args)
    assert code == 2 and err.startswith("error: ") and message in err
    assert (reopened(db), logged(db)) == before


def test_one_fight_at_a_time(capsys: pytest.CaptureFixture[str], db: str) -> None:
    assert run(capsys, db, "encounter", "start", "--monsters", "goblin", "--seed", "1")[0] == 0
    for args in (["encounter", "start", "--monsters", "goblin"], ["fight", "--monsters", "goblin"]):
        code, _, err = run(capsys, db, *args)
        assert code == 2 and "a fight with Goblin is in progress" in err


def test_fight_file_without_a_campaign_is_unchanged(capsys: pytest.CaptureFixture[str], db: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """`fight FILE` stores nothing, even with a campaign chosen."""
    monkeypatch.chdir(ROOT)
    before = (reopened(db), logged(db))
    code, out, _ = run(capsys, db, "fight", "examples/party-vs-ogre.yaml", "--seed", "3")
    assert code == 0 and "ROOM DC" in out.splitlines()[0] and "\nAfter " in out
    assert (reopened(db), logged(db)) == before


@pytest.mark.parametrize(("text", "expected"), [
    ("room_dc: 12\nspeed: 3\nparty: [{file: a.json}]\nmonsters: [{name: Orc}]\n",
     "field speed: a fight file has no field 'speed'; its fields are name, room_dc, initiative, surprised, party, "
     "monsters"),
    ("party: [{file: a.json, hp: 3}]\nmonsters: [{name: Orc}]\n",
     "field party.0.hp: a party entry has no field 'hp'; its fields are file, zone, side"),
    ("party: [{file: a.json}]\nmonsters: [{name: Orc, speed: 30}]\n",
     "field monsters.0.speed: a monster entry has no field 'speed'; its fields are name, count, hp, hd, damage, "
     "weapon, ac, attack_bonus, save_bonus, ranged, armor, morale, zone, side, named"),
])
def test_a_wrong_field_in_a_fight_file_is_refused_with_the_fields_allowed(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, expected: str) -> None:
    """docs/fight-file.md: an unknown field is refused naming the fields allowed where it stands."""
    path = tmp_path / "fight.yaml"
    path.write_text(text, encoding="utf-8")
    code = main(["fight", str(path)])
    err = capsys.readouterr().err
    assert code == 2 and expected in err and str(path) in err


@pytest.mark.rule("F-MAGIC-02")
def test_F_MAGIC_02_AMB_59_a_magic_item_used_on_her_turn_from_the_cli(capsys: pytest.CaptureFixture[str],
                                                                      db: str) -> None:
    """`encounter act WHO use --item I`: the Shield of Shielding's +1d4 AC (the entered 3) until her next turn;
    its one use a day is spent, refused the second time, and carried onto the roster when the fight ends."""
    assert run(capsys, db, "give", "Brakka", "Shield of Shielding")[0] == 0
    assert run(capsys, db, "encounter", "start", "--party", "Brakka", "--monsters", "goblin", "--seed", "4")[0] == 0
    run(capsys, db, "encounter", "next", "--seed", "1")
    code, out, err = run(capsys, db, "encounter", "act", "Brakka", "use", "--item", "Shield of Shielding",
                         "--faces", "3")
    assert code == 0, err
    assert "uses Shield of Shielding: +3 AC until her turn in round 2" in out and "0 uses left today" in out
    state = reopened(db)
    assert state.encounter is not None
    held = encounters.current(state).turns.encounter.get("brak1").held
    assert [(h.value, h.source) for h in held if h.source == "Shield of Shielding"] == [(3, "Shield of Shielding")]
    assert run(capsys, db, "encounter", "end")[0] == 0
    code, _, err = run(capsys, db, "encounter", "start", "--party", "Brakka", "--monsters", "goblin", "--seed", "4")
    run(capsys, db, "encounter", "next", "--seed", "1")
    code, _, err = run(capsys, db, "encounter", "act", "Brakka", "use", "--item", "Shield of Shielding",
                       "--faces", "3")
    assert code == 2 and "no use of Shield of Shielding left today" in err

"""Work bounded before it starts, and every file read checked before it is read (issue 26): numbers the store
cannot hold and NaN refused by every numeric option; `--vary` of one field twice; a `--scheduler` that is no
address or does not answer; 1,000 files joined at once; a FIFO, a device or a 900 MB file to restore or
import; a backup without `alembic_version`; a forged export whose chain of hashes was recomputed around a
campaign that is a list; a referee's table whose rows lack the data the rules read. Each is one `error:` line,
exit 2, nothing changed, never "please report it".
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
import pytest
import yaml

from furnace.campaign.store import GENESIS, chain_hash
from furnace.cli.app import LAZY_COMMANDS, cli, main
from furnace.cli.numbers import BIGINT_MAX, BIGINT_MIN, Finite
from furnace.rules.tables import TableSet
from tests.helpers.databases import BRAKKA, furnace_db, sql

ROOT = Path(__file__).resolve().parents[2]
FIGHT = str(ROOT / "examples" / "funnel-vs-goblins.yaml")


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.chdir(tmp_path)
    return str(furnace_db(tmp_path / "campaigns.db", hits=2))


def refused(capsys: pytest.CaptureFixture[str], *args: str, says: str = "") -> str:
    code = main(list(args))
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert err.startswith("error: ") and err.count("\n") == 1 and "please report" not in out + err, err
    assert says in err, err
    return err


def usage_refused(capsys: pytest.CaptureFixture[str], *args: str, says: str = "") -> None:
    """A value click itself refuses (exit 2, its usage message, which names the option), never a bug."""
    code = main(list(args))
    out, err = capsys.readouterr()
    assert code == 2 and "please report" not in out + err and "Traceback" not in err, err
    assert says in err, err


def _verified(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--db", db, "campaign", "verify", "keep"]) == 0
    capsys.readouterr()


# -- numbers ----------------------------------------------------------------------------------------------------
def _parameters() -> list[tuple[str, click.Parameter]]:
    for module in set(LAZY_COMMANDS.values()):
        importlib.import_module(module)
    found: list[tuple[str, click.Parameter]] = []

    def walk(command: click.Command, path: list[str]) -> None:
        if isinstance(command, click.Group):
            for name, sub in command.commands.items():
                walk(sub, [*path, name])
            return
        found.extend((" ".join(path), p) for p in command.params)

    walk(cli, [])
    return found


def test_every_numeric_option_takes_only_what_the_store_can_hold() -> None:
    """Every whole-number option or argument is bounded within a 64-bit integer (SQLite's and PostgreSQL's
    BIGINT) and every decimal is `Finite` (click's FloatRange lets NaN through: it compares as inside)."""
    wrong = []
    for where, param in _parameters():
        kind = param.type
        if isinstance(kind, click.types.FloatParamType) and not isinstance(kind, Finite):
            wrong.append(f"{where} {param.name}: a decimal that may be NaN")
        elif isinstance(kind, click.types.IntParamType):
            low, high = getattr(kind, "min", None), getattr(kind, "max", None)
            if low is None or high is None or low < BIGINT_MIN or high > BIGINT_MAX:
                wrong.append(f"{where} {param.name}: {kind}")
    assert not wrong, wrong


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "NaN", "1e999"])
def test_clock_light_turns_nan_is_refused(value: str, db: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`clock light … --turns nan` (was: an internal error)."""
    usage_refused(capsys, "--db", db, "--campaign", "keep", "clock", "light", "Brakka", "torch", "--turns", value,
                  says="--turns")
    _verified(db, capsys)


@pytest.mark.parametrize("value", [str(10**30), str(2**63), str(-(2**63) - 1)])
def test_campaign_log_since_past_the_store_is_refused(value: str, db: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`campaign log --since 10**30` (was: OverflowError, an internal error)."""
    usage_refused(capsys, "--db", db, "--campaign", "keep", "campaign", "log", "--since", value, says="--since")


def test_campaign_log_since_the_largest_the_store_holds_is_an_empty_log(db: str,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--db", db, "--campaign", "keep", "campaign", "log", "--since", str(2**63 - 1), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []


@pytest.mark.parametrize("args", [["xp", "award", str(2**64), "Brakka"], ["clock", "cancel", str(10**20)],
                                  ["roll", "d20", "--seed", str(10**19)], ["table", "roll", "crit-fighter", "--level",
                                                                              str(-(10**20))]])
def test_a_whole_number_past_64_bits_is_refused_by_its_option(args: list[str], db: str,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    usage_refused(capsys, "--db", db, "--campaign", "keep", *args, says="range")


def test_finite_turns_are_still_turns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "hazards.db")
    assert main(["--db", db, "campaign", "new", "h", "--profile", "hazards"]) == 0
    assert main(["--db", db, "--campaign", "h", "campaign", "join", str(BRAKKA), "--player", "Ann"]) == 0
    capsys.readouterr()
    usage_refused(capsys, "--db", db, "--campaign", "h", "clock", "light", "Brakka", "torch", "--turns", "nan",
                  says="--turns")
    assert main(["--db", db, "--campaign", "h", "clock", "light", "Brakka", "torch", "--turns", "2.5"]) == 0
    assert "torch" in capsys.readouterr().out


# -- simulate ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("vary", [["room_dc=10,11", "room_dc=10,11"], ["room_dc=10,11", "ROOM_DC=12"],
                                  ["goblin=2,3", "Goblin=4"], ["room_dc=10,10"]])
def test_a_sweep_that_would_fight_a_cell_twice_is_refused(vary: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """`--vary room_dc=10,11 --vary room_dc=10,11` (was: "4 cells" of the same sweep)."""
    err = refused(capsys, "simulate", FIGHT, "--fights", "2", "--seed", "1", *[a for v in vary for a in ("--vary", v)])
    assert "given twice" in err


@pytest.mark.parametrize(("address", "says"), [
    ("garbage", "is not a Dask scheduler's address"), ("tcp://", "is not a Dask scheduler's address"),
    ("tcp://127.0.0.1:99999", "is not a Dask scheduler's address"), ("http://127.0.0.1:8786", "not a Dask"),
    ("tcp://127.0.0.1:1", "cannot reach the Dask scheduler at tcp://127.0.0.1:1: connection refused"),
    ("tcp://no-such-host.invalid:8786", "the host name is not known"),
])
def test_a_scheduler_that_is_no_address_or_does_not_answer_is_one_line(address: str, says: str,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """`simulate --scheduler garbage` (was: 20 s, then a traceback): refused before any fight."""
    pytest.importorskip("distributed")
    err = refused(capsys, "simulate", FIGHT, "--fights", "2", "--seed", "1", "--scheduler", address, says=says)
    assert "fighting" not in err


# -- many files, big files, odd files ------------------------------------------------------------------------------
def test_a_thousand_files_to_join_are_refused_before_one_is_read(db: str, tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """`campaign join` of 1,000 character files (was: MemoryError)."""
    folder = tmp_path / "many"
    folder.mkdir()
    for i in range(1000):
        shutil.copy(BRAKKA, folder / f"c{i}.json")
    names = [str(p) for p in sorted(folder.iterdir())]
    for command in (["campaign", "join", *names, "--player", "Ann"], ["campaign", "import-files", *names]):
        refused(capsys, "--db", db, "--campaign", "keep", *command, says="at most 100 are read at a time")
    _verified(db, capsys)


def test_files_to_join_too_large_together_are_refused_by_their_size(db: str, tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    big = []
    for i in range(12):                       # sparse: 3 MB each on paper, nothing on the disk
        path = tmp_path / f"big{i}.json"
        with path.open("wb") as stream:
            stream.truncate(3 * 1024 * 1024)
        big.append(str(path))
    refused(capsys, "--db", db, "--campaign", "keep", "campaign", "join", *big, "--player", "Ann", says="in all")


def _sparse(path: Path, megabytes: int) -> str:
    with path.open("wb") as stream:
        stream.truncate(megabytes * 1024 * 1024)
    return str(path)


@pytest.mark.parametrize("command", [["campaign", "restore"], ["campaign", "import"], ["campaign", "join"],
                                     ["campaign", "override", "add"]])
@pytest.mark.parametrize("kind", ["fifo", "/dev/zero", "/dev/urandom", "folder", "900 MB"])
def test_a_file_to_read_is_a_regular_file_of_a_bounded_size(command: list[str], kind: str, db: str, tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """`campaign restore` of a FIFO (was: a hang), an export padded to 900 MB (was: read whole), a device."""
    if kind == "fifo":
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs here")
        os.mkfifo(tmp_path / "pipe")
        path = str(tmp_path / "pipe")
    elif kind == "folder":
        path = str(tmp_path)
    elif kind == "900 MB":
        path = _sparse(tmp_path / "padded.json", 900)
    else:
        if not os.path.exists(kind):
            pytest.skip(f"no {kind} here")
        path = kind
    says = {"fifo": "FIFO", "folder": "folder", "900 MB": "too large (900.0 MB"}.get(kind, "device")
    refused(capsys, "--db", db, "--campaign", "keep", *command, path, says=says)
    _verified(db, capsys)


def test_the_database_is_not_restored_into_itself(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    refused(capsys, "--db", db, "campaign", "restore", db, "--force", says="this store's own database")
    _verified(db, capsys)


@pytest.mark.parametrize(("change", "says"), [
    ("DROP TABLE alembic_version", "it has no alembic_version table"),
    ("DELETE FROM alembic_version", "no schema revision"),
    ("UPDATE alembic_version SET version_num = '9999'", "written by a newer Furnace (revision 9999"),
    ("CREATE TABLE people (name TEXT)", "tables Furnace never makes: people"),
])
def test_a_sqlite_backup_that_is_not_furnaces_is_refused_naming_it(change: str, says: str, db: str, tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """A backup to restore that lacks `alembic_version` (was: an internal error), or whose revision is empty,
    newer or foreign: named by the file given, never by the temporary copy read."""
    backup = sql(furnace_db(tmp_path / "backup.db"), change)
    err = refused(capsys, "--db", str(tmp_path / "new.db"), "campaign", "restore", str(backup), says=says)
    assert str(backup) in err and "furnace-restore-" not in err and "restore.db" not in err


# -- forged exports ---------------------------------------------------------------------------------------------------
BODY = ("seq", "command_id", "command", "kind", "who", "what", "rolls", "data", "changes", "undoes", "created_at")


def _forged(export: Path, forge: Callable[[dict[str, Any]], None]) -> Path:
    """The export with its events changed by `forge`, the chain of hashes recomputed around the change (as a
    forger would), so the hashes hold and only what they hold is wrong."""
    doc = json.loads(export.read_text(encoding="utf-8"))
    forge(doc)
    prev = GENESIS
    for event in doc["events"]:
        event["prev_hash"] = prev
        event["hash"] = prev = chain_hash(prev, {k: event[k] for k in BODY})
    doc["campaign"]["last_hash"] = prev
    forged = export.with_name("forged.json")
    forged.write_text(json.dumps(doc), encoding="utf-8")
    return forged


def _entity(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """A forger's change: the entity at `path` set to `value` by the campaign's first event (later events may
    set it right again: an import checks every entity as each event changes it, not only the state at the end)."""
    def forge(doc: dict[str, Any]) -> None:
        for change in doc["events"][0]["changes"]:
            if change["path"] == path:
                change["after"] = value
                return
        doc["events"][0]["changes"].append({"path": path, "before": None, "after": value})
    return forge


@pytest.mark.parametrize(("forge", "says"), [
    (_entity("campaign", [1, 2, 3]), "the entity 'campaign' holds list"),
    (_entity("campaign", "keep"), "the entity 'campaign' holds str"),
    (_entity("campaign", {"profile": "furnace", "clock": {}}), "has fields a campaign has not: clock"),
    (_entity("clock", 7), "the entity 'clock' holds int"),
    (_entity("member/brak1", "Brakka"), "the entity 'member/brak1' holds str"),
    (_entity("treasure", {"gold": 1}), "the entity 'treasure' is not one Furnace keeps"),
    (_entity("member/", {}), "is not one Furnace keeps"),
])
@pytest.mark.parametrize("command", ["import", "restore"])
def test_a_forged_export_is_checked_entity_by_entity_before_anything_is_written(
        forge: Callable[[dict[str, Any]], None], says: str, command: str, db: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A forged export whose chain of hashes is recomputed but whose campaign entity is a list or a string (was:
    an internal error): refused naming the entity; the database it was brought to is unchanged."""
    assert main(["--db", db, "campaign", "export", "keep", "--out", str(tmp_path / "keep.json")]) == 0
    forged = _forged(tmp_path / "keep.json", forge)
    target = str(furnace_db(tmp_path / "target.db"))
    before = Path(target).read_bytes()
    extra = ["--as", "copy"] if command == "import" else ["--force"]
    refused(capsys, "--db", target, "campaign", command, str(forged), *extra, says=says)
    assert Path(target).read_bytes() == before


# -- a referee's table -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "change", "says"), [
    ("classes", lambda row: row["data"].pop("save_ability", None), "data.save_ability is missing"),
    ("classes", lambda row: row.pop("data", None), "is missing"),
    ("classes", lambda row: row["data"].update(hp_after_5="lots"), "data.hp_after_5 is text, not a whole number"),
])
def test_a_referees_table_whose_rows_lack_the_data_the_rules_read_is_refused_when_added(
        name: str, change: Callable[[dict[str, Any]], object], says: str, db: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A referee's table file with rows lacking data (was: KeyError where the rules read it, an internal error):
    refused when it is added, naming the file, the row and the column."""
    table: dict[str, Any] = TableSet.packaged().get(name).model_dump(mode="json", exclude_defaults=True)
    change(table["rows"][0])
    path = tmp_path / "my-classes.yaml"
    path.write_text(yaml.safe_dump(table), encoding="utf-8")
    err = refused(capsys, "--db", db, "--campaign", "keep", "campaign", "override", "add", str(path), "--kind",
                  "table", says=says)
    assert str(path) in err and "row 1" in err
    refused(capsys, "rules", "list", "--profile", str(_profile(tmp_path, path)), says=says)
    _verified(db, capsys)


def _profile(folder: Path, table: Path) -> Path:
    profile = folder / "house.yaml"
    profile.write_text(f"name: house\nextends: furnace\ntables: [{table.name}]\n", encoding="utf-8")
    return profile

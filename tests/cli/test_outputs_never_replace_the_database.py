"""No output of any command can replace the campaign database (issue 26: `campaign export keep --out
data/furnace.db --force`, `character show X --html data/furnace.db`, `campaign backup data/furnace.db --force`
… each replaced it, exit 0).

The click command tree is walked for every parameter that names a file (a metavar with FILE, or a name such as
`--out`, `--html`, `--plot`, `--state`, a backup's FILE, a character file updated in place); each is given,
with `--force`, the database, its live -wal, a symlink to each and a hard link to the database. Every try is
refused (exit 2, one `error:` line), and the database is intact after all of them: `campaign verify` passes
and it holds the same events. A parameter the walk finds that the table below does not run fails the test:
a new output option is tried the day it is added.
"""

from __future__ import annotations

import importlib
import os
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import click
import pytest

from furnace.cli.app import LAZY_COMMANDS, cli, main
from tests.helpers.databases import furnace_db

ROOT = Path(__file__).resolve().parents[2]
PATHISH = {"file", "files", "out", "html", "plot", "state_file", "caster_file", "character_file", "character"}

# Each file parameter, as (command, parameter name): a run that succeeds with an ordinary file in the place of
# {}; {hero} is a character file, {fight} a fight file, {state} a clock state file with entry 1.
RUNS: dict[tuple[str, str], list[str]] = {
    ("funnel", "html"): ["funnel", "--seed", "1", "--html", "{}"],
    ("character show", "html"): ["character", "show", "{hero}", "--html", "{}"],
    ("character show", "who"): ["character", "show", "{}"],
    ("character promote", "who"): ["character", "promote", "{}", "--random", "--seed", "1"],
    ("character level-up", "who"): ["character", "level-up", "{}", "--ability", "STR", "--seed", "1"],
    ("character retire", "who"): ["character", "retire", "{}"],
    ("character rename", "who"): ["character", "rename", "{}", "Grakka"],
    ("campaign join", "files"): ["campaign", "join", "{}"],
    ("campaign import-files", "files"): ["campaign", "import-files", "{}"],
    ("campaign export", "out"): ["campaign", "export", "keep", "--out", "{}"],
    ("campaign import", "file"): ["campaign", "import", "{}", "--as", "copy"],
    ("campaign backup", "file"): ["campaign", "backup", "{}"],
    ("campaign restore", "file"): ["campaign", "restore", "{}"],
    ("campaign override add", "file"): ["campaign", "override", "add", "{}"],
    ("spell cast", "caster_file"): ["spell", "cast", "Sleep", "--caster", "{}", "--write", "--seed", "1"],
    ("spell new", "out"): ["spell", "new", "--seed", "4", "--out", "{}"],
    ("item new", "out"): ["item", "new", "Frost Brand", "--tier", "rare", "--out", "{}"],
    ("clock status", "state_file"): ["clock", "status", "--state", "{}"],
    ("clock advance", "state_file"): ["clock", "advance", "1", "turn", "--state", "{}"],
    ("clock timer", "state_file"): ["clock", "timer", "drip", "--in", "1", "turn", "--state", "{}"],
    ("clock edit", "state_file"): ["clock", "edit", "1", "--in", "2", "turns", "--state", "{}"],
    ("clock cancel", "state_file"): ["clock", "cancel", "1", "--state", "{}"],
    ("clock join", "character_file"): ["clock", "join", "{}", "--state", "{state}"],
    ("clock join", "state_file"): ["clock", "join", "{hero}", "--state", "{}"],
    ("simulate", "file"): ["simulate", "{}", "--fights", "2", "--seed", "1"],
    ("simulate", "plot"): ["simulate", "{fight}", "--fights", "2", "--seed", "1", "--plot", "{}"],
    ("encounter start", "file"): ["--campaign", "keep", "encounter", "start", "--file", "{}"],
    ("fight", "file"): ["fight", "{}", "--seed", "1"],
    ("odds attack", "character_file"): ["odds", "attack", "--character", "{}", "--ac", "14"],
    ("stunt", "file"): ["stunt", "{}", "--skill", "Athletics", "--seed", "1"],
    ("poison", "toxin"): ["--campaign", "keep", "poison", "Brakka", "{}", "--seed", "1"],
    ("pc-morale", "file"): ["pc-morale", "{}", "--option", "pc_morale=true", "--seed", "1"],
}
OUTPUTS = {key for key in RUNS if key[1] in ("html", "out", "plot") or key == ("campaign backup", "file")}
WRITTEN_BACK = {key for key in RUNS if (key[1] == "state_file" and key[0] != "clock status")
                or key == ("spell cast", "caster_file")
                or (key[0].startswith("character ") and key[0] != "character show")}   # read, then updated in place


def file_parameters() -> Iterator[tuple[str, str]]:
    """Every parameter of every command that names a file."""
    for module in set(LAZY_COMMANDS.values()):
        importlib.import_module(module)

    def walk(command: click.Command, path: list[str]) -> Iterator[tuple[str, str]]:
        if isinstance(command, click.Group):
            for name, sub in command.commands.items():
                yield from walk(sub, [*path, name])
            return
        where = " ".join(path)
        for param in command.params:
            metavar = getattr(param, "metavar", None) or ""
            if param.name is not None and ("FILE" in metavar.upper() or param.name in PATHISH
                                           or (path[0] == "character" and param.name == "who")):
                yield where, param.name

    yield from walk(cli, [])


def test_the_table_runs_every_file_parameter_of_every_command() -> None:
    found = set(file_parameters())
    assert found == set(RUNS), f"not run: {sorted(found - set(RUNS))}; gone: {sorted(set(RUNS) - found)}"
    assert {("campaign export", "out"), ("campaign backup", "file"), ("simulate", "plot"), ("funnel", "html"),
            ("spell new", "out"), ("character show", "html")} <= OUTPUTS
    assert {("clock advance", "state_file"), ("character level-up", "who")} <= WRITTEN_BACK


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder with a campaign database whose -wal is live (a reader holds it open), a character, a fight
    and a clock state; the current folder."""
    monkeypatch.chdir(tmp_path)
    shutil.copytree(ROOT / "examples" / "characters", tmp_path / "characters")
    shutil.copy(ROOT / "examples" / "characters" / "brakka.json", tmp_path / "hero.json")
    (tmp_path / "fight.yaml").write_text("room_dc: 10\nparty:\n  - {file: characters/agna.json}\n"
                                         "monsters:\n  - {name: Goblin, count: 2}\n", encoding="utf-8")
    assert main(["clock", "timer", "torch", "--in", "6", "turns", "--state", str(tmp_path / "state.json")]) == 0
    db = furnace_db(tmp_path / "campaigns.db", hits=4)
    reader = sqlite3.connect(db)              # holds the -wal and -shm in place while the commands run
    reader.execute("SELECT count(*) FROM events").fetchone()
    (tmp_path / "db-link").symlink_to(db)
    (tmp_path / "wal-link").symlink_to(f"{db}-wal")
    os.link(db, tmp_path / "db-hardlink")
    try:
        yield tmp_path
    finally:
        reader.close()


TARGETS = ["campaigns.db", "campaigns.db-wal", "campaigns.db-shm", "db-link", "wal-link", "db-hardlink"]


def _args(key: tuple[str, str], target: str, folder: Path) -> list[str]:
    fill = {"hero": str(folder / "hero.json"), "fight": str(folder / "fight.yaml"), "state": str(folder / "state.json")}
    return [target if a == "{}" else a.format(**fill) for a in RUNS[key]]


def _events(db: Path) -> list[tuple[int, str]]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return list(conn.execute("SELECT seq, hash FROM events ORDER BY campaign_id, seq"))
    finally:
        conn.close()


@pytest.mark.parametrize("key", sorted(RUNS), ids=[" ".join(k) for k in sorted(RUNS)])
def test_no_file_parameter_can_replace_the_database(key: tuple[str, str], table: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    db = table / "campaigns.db"
    events = _events(db)
    assert os.path.exists(f"{db}-wal")
    for target in TARGETS:
        code = main(["--db", str(db), "--force", *_args(key, target, table)])
        out, err = capsys.readouterr()
        assert code == 2, (key, target, out, err)
        assert err.startswith("error: ") and err.count("\n") == 1 and "please report" not in err, err
    assert _events(db) == events
    assert main(["--db", str(db), "campaign", "verify", "keep", "--deep"]) == 0, capsys.readouterr()


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("key", sorted(OUTPUTS), ids=[" ".join(k) for k in sorted(OUTPUTS)])
def test_each_output_names_the_database_when_refused(key: tuple[str, str], target: str, table: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """An output given a file of the database says it is part of the campaign database: refused for what it
    is, not because something else went wrong first."""
    code = main(["--db", str(table / "campaigns.db"), "--force", *_args(key, target, table)])
    err = capsys.readouterr().err
    assert code == 2 and "part of the campaign database" in err, err


@pytest.mark.parametrize("key", sorted(WRITTEN_BACK), ids=[" ".join(k) for k in sorted(WRITTEN_BACK)])
def test_a_file_updated_in_place_is_never_a_new_wal(key: tuple[str, str], tmp_path: Path, table: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """A state file, a character or a caster updated in place, named as the -wal of a database whose log is
    folded (no -wal there yet, so nothing to read first): refused as part of the database, not made."""
    db = furnace_db(tmp_path / "quiet.db")
    code = main(["--db", str(db), "--force", *_args(key, f"{db}-wal", table)])
    err = capsys.readouterr().err
    assert code == 2 and not os.path.exists(f"{db}-wal"), err


def test_force_still_replaces_an_ordinary_earlier_output(table: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = table / "keep.json"
    out.write_text("an earlier export", encoding="utf-8")
    assert main(["--db", str(table / "campaigns.db"), "campaign", "export", "keep", "--out", str(out), "--force"]) == 0
    assert out.read_text(encoding="utf-8").startswith("{")
    capsys.readouterr()


def test_a_fight_read_is_never_the_plot_written(table: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`simulate fight.yaml --plot characters/agna.json --force` (was: a character the fight reads replaced by
    the SVG)."""
    agna = table / "characters" / "agna.json"
    before = agna.read_bytes()
    code = main(["--force", "simulate", "fight.yaml", "--fights", "2", "--seed", "1", "--plot", str(agna)])
    err = capsys.readouterr().err
    assert code == 2 and "input of this command" in err and agna.read_bytes() == before

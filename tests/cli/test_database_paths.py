"""Every database, path, URL and environment mistake is the user's: one line `error: …` naming what is wrong,
exit 2, nothing changed, no password printed, never "please report it" (issue 26).

A table of cases — a folder, a FIFO, /dev/zero, a text file, random bytes, a truncated or corrupted database,
a symlink loop, a 5,000-character name, a folder that cannot be written, another program's SQLite file, a
newer or an empty schema revision, a -wal or -shm that is a folder or a FIFO, URLs of an unknown scheme, of
no driver, of an unreachable PostgreSQL, `://`, data and config folders that are files or devices, a
campaign.json that is a FIFO or a link to /dev/zero — is run in process through `furnace.cli.app.main`
against `campaign list`, `campaign new`, `damage` and `serve --check`. The folder the case lives in is
fingerprinted before and after: a refused command changes nothing in it.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from furnace.cli.app import main
from tests.helpers.databases import corrupted, fingerprint, furnace_db, sql, truncated

COMMANDS = {
    "campaign list": ["campaign", "list"],
    "campaign new": ["campaign", "new", "c1"],
    "damage": ["damage", "Brakka", "1"],
    "serve --check": ["serve", "--check"],
}
READS_CONFIG = tuple(COMMANDS)     # every command that opens the database reads the campaign in use first

posix = os.name == "posix"


@dataclass(frozen=True)
class Case:
    """A situation made in a folder: `make(folder)` returns the --db to pass (None: none), `env(folder)` the
    environment; the error line holds `says`."""

    make: Callable[[Path], str | None]
    says: str
    env: Callable[[Path], dict[str, str]] = field(default=lambda _f: {})
    commands: tuple[str, ...] = tuple(COMMANDS)
    only_posix: bool = False
    names_campaign: bool = True      # damage --campaign keep; False: the campaign in use is read from the config


def _made(name: str, content: bytes) -> Callable[[Path], str]:
    def make(folder: Path) -> str:
        (folder / name).write_bytes(content)
        return str(folder / name)
    return make


def _fifo(folder: Path) -> str:
    os.mkfifo(folder / "pipe.db")
    return str(folder / "pipe.db")


def _dir(folder: Path) -> str:
    (folder / "dir.db").mkdir()
    return str(folder / "dir.db")


def _loop(folder: Path) -> str:
    (folder / "a.db").symlink_to(folder / "b.db")
    (folder / "b.db").symlink_to(folder / "a.db")
    return str(folder / "a.db")


def _dangling(folder: Path) -> str:
    (folder / "gone.db").symlink_to(folder / "deleted.db")
    return str(folder / "gone.db")


def _unwritable(folder: Path) -> str:
    (folder / "locked").mkdir(mode=0o555)
    return str(folder / "locked" / "x.db")


def _under_a_file(folder: Path) -> str:
    (folder / "file").write_text("x", encoding="utf-8")
    return str(folder / "file" / "x.db")


def _db(folder: Path) -> Path:
    return furnace_db(folder / "campaigns.db")


def _with_sql(*statements: str) -> Callable[[Path], str]:
    def make(folder: Path) -> str:
        return str(sql(_db(folder), *statements))
    return make


def _schema_not_utf8(folder: Path) -> str:
    """A Furnace database one byte of whose schema is not UTF-8: SQLite's message about it quotes that byte."""
    db = _db(folder)
    data = bytearray(db.read_bytes())
    at = data.index(b"NOT NULL", data.index(b"CREATE TABLE events (")) + len(b"NOT ")
    data[at] = 0x82      # NOT \x82ULL: SQLite's syntax error quotes the byte
    db.write_bytes(bytes(data))
    return str(db)


def _foreign(folder: Path) -> str:
    return str(sql(folder / "other.db", "CREATE TABLE people (name TEXT)", "INSERT INTO people VALUES ('Ann')"))


def _part(suffix: str, kind: str) -> Callable[[Path], str]:
    def make(folder: Path) -> str:
        db = _db(folder)
        part = Path(f"{db}{suffix}")
        if kind == "dir":
            part.mkdir()
        elif kind == "bytes":
            part.write_bytes(random.Random(26).randbytes(4096))
        else:
            os.mkfifo(part)
        return str(db)
    return make


def _config(kind: str) -> Callable[[Path], str]:
    """A good database, and the config folder's campaign.json of the given kind."""
    def make(folder: Path) -> str:
        config = folder / "config"
        config.mkdir(exist_ok=True)
        target = config / "campaign.json"
        if kind == "fifo":
            os.mkfifo(target)
        elif kind.startswith("/dev/"):
            target.symlink_to(kind)
        elif kind == "dir":
            target.mkdir()
        elif kind == "huge":
            with target.open("wb") as stream:
                stream.truncate(10 * 1024 * 1024)
        else:
            target.write_text(kind, encoding="utf-8")
        return str(_db(folder))
    return make


def _in_config(make: Callable[[Path], str | None], says: str, env: Callable[[Path], dict[str, str]] | None = None, *,
               only_posix: bool = False) -> Case:
    """A case of the config folder: every command reads the campaign in use (damage names no campaign)."""
    return Case(make, says, env or (lambda _f: {}), READS_CONFIG, only_posix, names_campaign=False)


def _env(name: str, value: Callable[[Path], str]) -> Callable[[Path], dict[str, str]]:
    return lambda folder: {name: value(folder)}


def _a_file(folder: Path) -> str:
    (folder / "not-a-folder").write_text("x", encoding="utf-8")
    return str(folder / "not-a-folder")


def _read_only_folder(folder: Path) -> str:
    (folder / "ro").mkdir(mode=0o555)
    return str(folder / "ro")


NO_DB: Callable[[Path], str | None] = lambda _f: None   # noqa: E731
CASES: dict[str, Case] = {
    # -- the path names no database file
    "a folder": Case(_dir, "it is a folder"),
    "a FIFO": Case(_fifo, "FIFO", only_posix=True),
    "/dev/zero": Case(lambda _f: "/dev/zero", "it is a device", only_posix=True),
    "a text file": Case(_made("notes.txt", b"the party rests at the inn\n"), "is not a Furnace database"),
    "random bytes": Case(_made("noise.db", random.Random(26).randbytes(64 * 1024)), "is not a Furnace database"),
    "a few bytes": Case(_made("short.db", b"SQLite fo"), "is not a Furnace database"),
    "a SQLite header and junk": Case(_made("junk.db", b"SQLite format 3\x00" + b"\xff" * 5000),
                                     "is not a Furnace database"),
    "a truncated database": Case(lambda f: str(truncated(f / "cut.db")), "is damaged"),
    "a corrupted database": Case(lambda f: str(corrupted(f / "bad.db")), "is damaged"),
    "a schema byte not UTF-8": Case(_schema_not_utf8, "is damaged"),
    "a symlink loop": Case(_loop, "symlink loop", only_posix=True),
    "a dangling symlink": Case(_dangling, "symlink to a file that does not exist", only_posix=True),
    "a 5,000-character name": Case(lambda f: str(f / ("x" * 5000)), "name is too long"),
    "a NUL byte": Case(lambda f: str(f / "a\0b.db"), "NUL byte"),
    "a missing folder": Case(lambda f: str(f / "no" / "such" / "x.db"), "does not exist"),
    "a path through a file": Case(_under_a_file, "not a folder"),
    "a folder that cannot be written": Case(_unwritable, "cannot be written", only_posix=True),
    # -- a SQLite file that is not Furnace's, or not this Furnace's
    "another program's SQLite file": Case(_foreign, "is not a Furnace database (it holds other tables: people)"),
    "Furnace's tables and another's": Case(_with_sql("CREATE TABLE people (name TEXT)"),
                                           "tables Furnace never makes: people"),
    "a newer revision (9999)": Case(_with_sql("UPDATE alembic_version SET version_num = '9999'"),
                                    "this database was written by a newer Furnace (revision 9999"),
    "an empty alembic_version": Case(_with_sql("DELETE FROM alembic_version"), "has no schema revision"),
    "another program's revision": Case(_with_sql("UPDATE alembic_version SET version_num = 'ae1027a6acf'"),
                                       "is not a Furnace database (its schema revision 'ae1027a6acf'"),
    "tables but no alembic_version": Case(_with_sql("DROP TABLE alembic_version"), "is not a Furnace database"),
    # -- what stands beside the file
    "a -wal that is a folder": Case(_part("-wal", "dir"), "write-ahead log"),
    "a -wal that is a FIFO": Case(_part("-wal", "fifo"), "write-ahead log", only_posix=True),
    "a -shm that is a folder": Case(_part("-shm", "dir"), "shared-memory file"),
    "a -shm that is a FIFO": Case(_part("-shm", "fifo"), "shared-memory file", only_posix=True),
    "a -journal that is a folder": Case(_part("-journal", "dir"), "rollback journal"),
    "a -wal that is not SQLite's": Case(_part("-wal", "bytes"), "write-ahead log"),
    "a -journal that is not SQLite's": Case(_part("-journal", "bytes"), "is not SQLite's"),
    # -- URLs
    "?mode=ro of no file": Case(lambda f: f"sqlite:///{f}/none.db?mode=ro", "does not exist"),
    "an unknown SQLite option": Case(lambda f: f"sqlite:///{f}/x.db?cache=shared", "not one Furnace reads"),
    "an unknown scheme": Case(lambda _f: "foo://x", "not foo://"),
    "no scheme": Case(lambda _f: "://", "neither a file nor a database URL"),
    "an engine Furnace does not use": Case(lambda _f: "mysql://u@127.0.0.1/x", "SQLite or PostgreSQL"),
    "no driver installed": Case(lambda _f: "postgresql+asyncpg://u:secret@127.0.0.1:1/x", "driver"),
    "an unknown driver": Case(lambda f: f"sqlite+nosuch:///{f}/x.db", "driver Furnace cannot use"),
    "an unreachable PostgreSQL": Case(lambda _f: "postgresql+psycopg://u:secret@127.0.0.1:1/x",
                                      "cannot reach PostgreSQL at 127.0.0.1:1: connection refused"),
    # -- the environment
    "FURNACE_DATABASE_URL of an unknown scheme": Case(NO_DB, "not foo://",
                                                      _env("FURNACE_DATABASE_URL", lambda _f: "foo://x")),
    "FURNACE_DATABASE_URL with a password": Case(NO_DB, "connection refused", _env(
        "FURNACE_DATABASE_URL", lambda _f: "postgresql+psycopg://u:secret@127.0.0.1:1/x")),
    "FURNACE_DATA_DIR a file": Case(NO_DB, "FURNACE_DATA_DIR", _env("FURNACE_DATA_DIR", _a_file)),
    "FURNACE_DATA_DIR /dev/null": Case(NO_DB, "it is a device", _env("FURNACE_DATA_DIR", lambda _f: "/dev/null"),
                                       only_posix=True),
    "FURNACE_DATA_DIR read-only": Case(NO_DB, "cannot be written", _env("FURNACE_DATA_DIR", _read_only_folder),
                                       only_posix=True),
    "FURNACE_DATA_DIR under a file": Case(NO_DB, "not a folder",
                                          _env("FURNACE_DATA_DIR", lambda f: _a_file(f) + "/data")),
    "FURNACE_SQLITE_SYNC unknown": Case(lambda f: str(_db(f)), "FURNACE_SQLITE_SYNC must be full or normal",
                                        _env("FURNACE_SQLITE_SYNC", lambda _f: "sometimes")),
    "FURNACE_CONFIG_DIR a file": _in_config(lambda f: str(_db(f)), "FURNACE_CONFIG_DIR",
                                            _env("FURNACE_CONFIG_DIR", _a_file)),
    "FURNACE_CONFIG_DIR /dev/null": _in_config(lambda f: str(_db(f)), "FURNACE_CONFIG_DIR", _env(
        "FURNACE_CONFIG_DIR", lambda _f: "/dev/null"), only_posix=True),
    "campaign.json a FIFO": _in_config(_config("fifo"), "FIFO", only_posix=True),
    "campaign.json a link to /dev/zero": _in_config(_config("/dev/zero"), "device", only_posix=True),
    "campaign.json a link to /dev/urandom": _in_config(_config("/dev/urandom"), "device", only_posix=True),
    "campaign.json a folder": _in_config(_config("dir"), "folder"),
    "campaign.json of 10 MB": _in_config(_config("huge"), "too large"),
    "campaign.json garbage": _in_config(_config("{not json"), "furnace campaign use NAME"),
}


def one_error_line(code: int, out: str, err: str) -> str:
    """Exit 2, one line `error: …` on stderr, nothing that asks for a bug report, no traceback, no password."""
    assert code == 2, (code, out, err)
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert "please report" not in out + err and "Traceback" not in err
    assert "secret" not in out + err
    return err.strip()


@pytest.fixture
def place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The folder a case is made in, the current folder, with its own data and config folders."""
    folder = tmp_path / "table"
    folder.mkdir()
    monkeypatch.chdir(folder)
    monkeypatch.setenv("FURNACE_DATA_DIR", str(folder / "data"))
    monkeypatch.setenv("FURNACE_CONFIG_DIR", str(folder / "config"))
    return folder


def _params() -> list[object]:
    return [pytest.param(name, command, id=f"{name}-{command}",
                         marks=[pytest.mark.skipif(not posix, reason="POSIX files")] if case.only_posix else [])
            for name, case in CASES.items() for command in case.commands]


@pytest.mark.parametrize(("name", "command"), _params())
def test_a_bad_database_is_one_error_line_and_changes_nothing(name: str, command: str, place: Path,
                                                             monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    case = CASES[name]
    db = case.make(place)
    for key, value in case.env(place).items():
        monkeypatch.setenv(key, value)
    before = fingerprint(place)
    named = ["--campaign", "keep"] if command == "damage" and case.names_campaign else []
    code = main([*(["--db", db] if db is not None else []), *named, *COMMANDS[command]])
    out, err = capsys.readouterr()
    line = one_error_line(code, out, err)
    assert case.says in line, line
    assert fingerprint(place) == before


def test_the_table_covers_every_kind_of_mistake_the_issue_names() -> None:
    """58 answers of the hostile-input harness were "internal error": each kind of them is a case here."""
    assert len(CASES) >= 45 and len(_params()) >= 150


# -- read-only databases: reading works, writing is refused naming why --------------------------------------------
READING = [["campaign", "list"], ["campaign", "show"], ["campaign", "log"], ["campaign", "verify", "keep", "--deep"],
           ["campaign", "replay"], ["campaign", "use", "keep"], ["character", "list"]]
WRITING = [["campaign", "new", "c1"], ["damage", "Brakka", "1"], ["campaign", "undo"],
           ["campaign", "delete", "keep", "--yes"], ["campaign", "rename", "keep", "tomb"],
           ["campaign", "join", str(Path(__file__).resolve().parents[2] / "examples/characters/wren.json")],
           ["serve", "--check"]]


@pytest.mark.parametrize("how", ["file mode", "?mode=ro", "immutable"])
def test_a_read_only_database_is_read_and_never_written(how: str, place: Path, capsys: pytest.CaptureFixture[str],
                                                        ) -> None:
    db = furnace_db(place / "campaigns.db", hits=3)
    content = db.read_bytes()
    given = {"file mode": str(db), "?mode=ro": f"sqlite:///{db}?mode=ro",
             "immutable": f"sqlite:///{db}?immutable=1"}[how]
    if how == "file mode":
        db.chmod(0o444)
    for args in READING:
        code = main(["--db", given, "--campaign", "keep", *args])
        assert code == 0 and capsys.readouterr().err == "", args
    for args in WRITING:
        line = one_error_line(main(["--db", given, "--campaign", "keep", *args]), *capsys.readouterr())
        why = {"file mode": "the file is read-only", "?mode=ro": "?mode=ro", "immutable": "?immutable=1"}[how]
        assert "is read-only" in line and why in line, line
    assert db.read_bytes() == content
    code = main(["--db", given, "campaign", "export", "keep", "--out", str(place / "keep.json")])
    assert code == 0 and (place / "keep.json").exists()
    code = main(["--db", given, "campaign", "backup", str(place / "copy.db")])
    assert code == 0 and main(["--db", str(place / "copy.db"), "campaign", "verify", "keep"]) == 0
    capsys.readouterr()
    assert db.read_bytes() == content


def test_a_database_on_a_read_only_disk_lists_and_verifies(tmp_path: Path) -> None:
    """A real read-only mount (a user and mount namespace: `unshare -rm`), the database without its -wal: it is
    listed and verified (SQLite opens it immutable, makes nothing beside it), and a write says it is read-only."""
    import shutil
    import subprocess
    import sys

    if shutil.which("unshare") is None or subprocess.run(["unshare", "-rm", "true"], capture_output=True,
                                                         check=False).returncode != 0:
        pytest.skip("no user and mount namespaces here (unshare -rm) to mount a folder read-only")
    disk = tmp_path / "disk"
    disk.mkdir()
    furnace_db(disk / "campaigns.db")
    furnace = [sys.executable, "-c", "import sys; from furnace.cli.app import main; sys.exit(main(sys.argv[1:]))",
               "--db", str(disk / "campaigns.db")]
    script = (f"mount --bind {disk} {disk} && mount -o remount,bind,ro {disk} && "
              f"{' '.join(map(repr, furnace))} campaign list && "
              f"{' '.join(map(repr, furnace))} campaign verify keep && "
              f"{' '.join(map(repr, furnace))} campaign new c1")
    env = {**os.environ, "FURNACE_CONFIG_DIR": str(tmp_path / "config")}
    done = subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True, env=env,
                          timeout=120, check=False)
    assert "keep" in done.stdout and "the chain of hashes is whole" in done.stdout, done.stderr
    assert done.returncode == 2 and done.stderr.startswith("error: ") and "read-only disk" in done.stderr
    assert sorted(p.name for p in disk.iterdir()) == ["campaigns.db"]


def test_another_programs_sqlite_file_gets_no_furnace_tables(place: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--db other.db campaign new c1` (was: Furnace's tables written into somebody else's database)."""
    other = Path(_foreign(place))
    before = other.read_bytes()
    line = one_error_line(main(["--db", str(other), "campaign", "new", "c1"]), *capsys.readouterr())
    assert f"{other} is not a Furnace database" in line and other.read_bytes() == before


# -- questions without a terminal ------------------------------------------------------------------------------------
@pytest.mark.parametrize("stdin", ["closed", "none", "at its end"])
def test_delete_without_a_terminal_names_the_flag(stdin: str, place: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """`campaign delete keep` with standard input closed (was: "aborted", exit 1): one line naming --yes."""
    import io
    import sys

    db = str(furnace_db(place / "campaigns.db"))
    stream = io.StringIO("")
    if stdin == "closed":
        stream.close()
    monkeypatch.setattr(sys, "stdin", None if stdin == "none" else stream)
    line = one_error_line(main(["--db", db, "campaign", "delete", "keep"]), *capsys.readouterr())
    assert "pass --yes" in line
    assert main(["--db", db, "campaign", "verify", "keep"]) == 0


def test_a_repair_without_a_terminal_names_what_to_give(place: Path, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    import io
    import sys

    db = str(furnace_db(place / "campaigns.db"))
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert "pass --days" in one_error_line(main(["--db", db, "--campaign", "keep", "repair", "Brakka", "armor"]),
                                           *capsys.readouterr())
    assert "pass --yes" in one_error_line(main(["--db", db, "--campaign", "keep", "repair", "Brakka", "armor",
                                                "--days", "1", "--cost", "2"]), *capsys.readouterr())


def test_a_confirmation_answered_still_works(place: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    import io
    import sys

    db = str(furnace_db(place / "campaigns.db"))
    monkeypatch.setattr(sys, "stdin", io.StringIO("y\n"))
    assert main(["--db", db, "campaign", "delete", "keep"]) == 0
    assert "deleted" in capsys.readouterr().out


# -- the config folder ------------------------------------------------------------------------------------------------
def test_a_read_only_config_folder_refuses_to_remember_but_lets_read(place: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """FURNACE_CONFIG_DIR read-only (was: an internal error): `campaign use` says so and names --campaign;
    reading still works; renaming or deleting the campaign it remembers is refused before the database
    changes (the name remembered could not follow)."""
    db = str(furnace_db(place / "campaigns.db"))
    config = place / "config"
    config.mkdir()
    assert main(["--db", db, "campaign", "use", "keep"]) == 0
    config.chmod(0o555)
    try:
        line = one_error_line(main(["--db", db, "campaign", "use", "keep"]), *capsys.readouterr())
        assert "FURNACE_CONFIG_DIR" in line and "cannot be written" in line and "--campaign" in line
        assert main(["--db", db, "campaign", "list"]) == 0 and "* keep" in capsys.readouterr().out
        before = fingerprint(place)
        for args in (["campaign", "rename", "keep", "tomb"], ["campaign", "delete", "keep", "--yes"]):
            assert "cannot be written" in one_error_line(main(["--db", db, *args]), *capsys.readouterr())
        assert fingerprint(place) == before
    finally:
        config.chmod(0o755)


# -- the server's start-up ---------------------------------------------------------------------------------------------
def test_serve_on_a_port_taken_is_one_line(place: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`furnace serve` where another program listens (was: uvicorn's `ERROR: [Errno 98] …`); nothing is made."""
    import socket

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    try:
        port = taken.getsockname()[1]
        line = one_error_line(main(["--db", str(place / "new.db"), "serve", "--port", str(port)]),
                              *capsys.readouterr())
    finally:
        taken.close()
    assert f"port {port} on 127.0.0.1 is taken" in line and "--port" in line
    assert not (place / "new.db").exists()


@pytest.mark.parametrize(("host", "says"), [
    ("256.1.1.1", "is not an IP address"), ("192.0.2.1", "is not an address of this machine"),
    ("no-such-host.invalid", "nor a name this machine can look up"), ("1.2.3", "not an address of this machine"),
])
@pytest.mark.parametrize("check", [["--check"], []])
def test_serve_on_a_host_that_is_no_address_here_is_one_line(host: str, says: str, check: list[str], place: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    line = one_error_line(main(["--db", str(place / "new.db"), "serve", "--host", host, *check]),
                          *capsys.readouterr())
    assert f"--host {host}" in line and says in line and not (place / "new.db").exists()


def test_serve_check_proves_the_host_without_taking_the_port(place: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    try:
        code = main(["--db", str(place / "new.db"), "serve", "--check", "--port", str(taken.getsockname()[1])])
    finally:
        taken.close()
    assert code == 0 and "signin?token=" in capsys.readouterr().out


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///:memory:"])
def test_an_in_memory_database_is_opened_and_lists_no_campaign(url: str, monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """An in-memory SQLite takes none of a server's pool sizes (the fuzz found a TypeError there)."""
    monkeypatch.setenv("FURNACE_DATABASE_URL", url)
    assert main(["campaign", "list", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["campaigns"] == []

"""Fuzzing where the campaign database is: hostile `--db` paths, database URLs and environment variables.

Each input is a situation made in a fresh folder — a database path (a folder, a FIFO, a device, random bytes,
a Furnace database cut short or with bytes overwritten at random, another program's SQLite file, a schema
revision of random text, a -wal or -shm that is a folder or a FIFO, a symlink loop, a name of random
characters or thousands of them, a NUL byte), or a URL (a scheme, a driver, a user, a password, a host, a
port that nobody listens on, a path and a query, each drawn from hostile pools or random text), and the
environment (FURNACE_DATABASE_URL, FURNACE_DATA_DIR, FURNACE_CONFIG_DIR, FURNACE_SQLITE_SYNC,
FURNACE_CAMPAIGN) — and one command run against it in process: `campaign list`, `campaign new`, `damage` or
`serve --check`.

The property: exit 0 or 2 (never 1: "please report it"), one `error:` line on 2, the password never printed,
within the bound of `bounded`; and a refused command changes nothing in the folder. Share of the budget: 0.05
(the fixed seed of `FURNACE_FUZZ=ci` and `full` runs more of them).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given
from hypothesis import strategies as st

from furnace.cli.app import main
from furnace.errors import FurnaceError
from tests.fuzz.conftest import bounded, fuzz_settings
from tests.helpers.databases import fingerprint, furnace_db, sql

PASSWORD = "s3cr3t-fuzz"
COMMANDS = [["campaign", "list"], ["campaign", "new", "c1"], ["damage", "Brakka", "1"], ["serve", "--check"]]
ENV = ("FURNACE_DATABASE_URL", "FURNACE_DATA_DIR", "FURNACE_CONFIG_DIR", "FURNACE_SQLITE_SYNC", "FURNACE_CAMPAIGN")
NAMES = st.text(st.characters(codec="utf-8", exclude_characters="\0/"), min_size=1, max_size=40).filter(
    lambda n: n not in (".", ".."))


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One Furnace database made once (migrations cost time); each input works on a copy. Each command runs once
    first, so the first input does not pay for importing the table console (the bound is per input)."""
    folder = tmp_path_factory.mktemp("fuzz-db")
    for command in COMMANDS:
        main(["--db", str(folder / "warm.db"), *command])
    return furnace_db(folder / "template.db", hits=6)


Make = Callable[[Path, Path], str]     # (the folder, the template) → a path or URL


@st.composite
def database_paths(draw: st.DrawFn) -> Make:
    """A hostile database path, made in the folder when the input is run."""
    kind = draw(st.sampled_from(["folder", "fifo", "device", "bytes", "cut", "flipped", "foreign", "revision",
                                 "part", "loop", "dangling", "name", "long", "missing", "through a file",
                                 "good", "good, read-only"]))
    blob = draw(st.binary(max_size=2048))
    name = draw(NAMES)
    at = draw(st.integers(0, 64 * 1024))
    # not an older revision of Furnace's own: its upgrade (which backs the file up first) is a test of its own
    revision = draw(st.one_of(st.text(max_size=12), st.sampled_from(["9999", "0000", "", "0003 "])).filter(
        lambda r: r not in ("0001", "0002")))
    part = draw(st.sampled_from(["-wal", "-shm", "-journal"]))
    part_kind = draw(st.sampled_from(["folder", "fifo", "bytes"]))
    length = draw(st.integers(200, 6000))

    def make(folder: Path, template: Path) -> str:
        target = folder / "x.db"
        if kind == "folder":
            target.mkdir()
        elif kind == "fifo":
            os.mkfifo(target)
        elif kind == "device":
            return "/dev/zero" if blob[:1] < b"\x80" else "/dev/null"
        elif kind == "bytes":
            target.write_bytes(blob)
        elif kind in ("cut", "flipped", "revision", "part", "good", "good, read-only"):
            shutil.copy(template, target)
            if kind == "cut":
                with target.open("r+b") as stream:
                    stream.truncate(min(at, target.stat().st_size))
            elif kind == "flipped":
                with target.open("r+b") as stream:
                    stream.seek(min(at, target.stat().st_size))
                    stream.write(blob or b"\xff")
            elif kind == "revision":
                sql(target, f"UPDATE alembic_version SET version_num = '{revision.replace(chr(39), '')}'")
            elif kind == "part":
                _part(Path(f"{target}{part}"), part_kind, blob)
            elif kind == "good, read-only":
                target.chmod(0o444)
        elif kind == "foreign":
            sql(target, "CREATE TABLE notes (text TEXT)")
        elif kind == "loop":
            target.symlink_to(folder / "y.db")
            (folder / "y.db").symlink_to(target)
        elif kind == "dangling":
            target.symlink_to(folder / "gone")
        elif kind == "name":
            return str(folder / name)
        elif kind == "long":
            return str(folder / ("x" * length))
        elif kind == "missing":
            return str(folder / name / "x.db")
        elif kind == "through a file":
            (folder / "file").write_bytes(blob)
            return str(folder / "file" / "x.db")
        return str(target)

    return make


def _part(path: Path, kind: str, blob: bytes) -> None:
    if kind == "folder":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    else:
        path.write_bytes(blob)


@st.composite
def database_urls(draw: st.DrawFn) -> Make:
    """A hostile database URL: each part from a hostile pool or random text; no port anybody listens on."""
    scheme = draw(st.one_of(st.sampled_from(["sqlite", "sqlite+pysqlite", "postgresql", "postgresql+psycopg",
                                             "postgresql+asyncpg", "postgresql+pg8000", "mysql", "foo", "", "sqlite+x",
                                             "SQLITE", "file", "http"]), st.text(max_size=10)))
    user = draw(st.sampled_from(["", "u", "u:" + PASSWORD, ":" + PASSWORD, "u:", "ü@:"]))
    host = draw(st.sampled_from(["", "127.0.0.1", "[::1]", "127.0.0.1:1", "127.0.0.1:9", "[::1]:1", "127.0.0.1:x",
                                 "127.0.0.1:99999", "127.0.0.1:-1", "%00", "localhost:1"]))
    rest = draw(st.one_of(st.sampled_from(["/x", "/", "", "//abs", "/x.db", "/x.db?mode=ro", "/x.db?immutable=1",
                                           "/x.db?cache=shared", "/x.db?mode=rwc", "/x?sslmode=bogus", "/x?%ff=1",
                                           "/x.db?mode=ro&mode=rw"]), st.text(max_size=20)))

    def make(folder: Path, _template: Path) -> str:
        at = f"{user}@" if user else ""
        if scheme.lower().startswith("sqlite") and rest.startswith("/") and not rest.startswith("//"):
            return f"{scheme}:///{folder}{rest}"
        return f"{scheme}://{at}{host}{rest}"

    return make


@st.composite
def environments(draw: st.DrawFn) -> Callable[[Path, Path], dict[str, str]]:
    """Some of the environment variables that say where things are, each hostile or plain."""
    chosen = draw(st.lists(st.sampled_from(ENV), unique=True, max_size=3))
    paths = {name: draw(database_paths()) for name in chosen}
    url = draw(database_urls())
    text = draw(st.text(st.characters(codec="utf-8", exclude_characters="\0"), max_size=20))

    def make(folder: Path, template: Path) -> dict[str, str]:
        env: dict[str, str] = {}
        for name in chosen:
            if name == "FURNACE_DATABASE_URL":
                env[name] = url(folder, template)
            elif name in ("FURNACE_SQLITE_SYNC", "FURNACE_CAMPAIGN"):
                env[name] = text or "x"
            else:
                sub = folder / name.lower()
                sub.mkdir()
                env[name] = paths[name](sub, template)
        return env

    return make


def _kept(folder: Path) -> dict[str, tuple[str, int, str]]:
    """The folder's fingerprint but a database's -shm: SQLite's shared-memory index, which any reader rebuilds
    (and removes with the last connection) when it does not hold what it should."""
    return {name: entry for name, entry in fingerprint(folder).items() if not name.endswith("-shm")}


class _Refused(FurnaceError):
    """`main` returned 2: counted as refused."""


@contextmanager
def _environment(values: dict[str, str]) -> Iterator[None]:
    clean = {k: v for k, v in os.environ.items() if k not in ENV}
    given = {k: v.replace("\0", "") for k, v in values.items()}    # an environment holds no NUL byte
    with mock.patch.dict(os.environ, {**clean, **given}, clear=True):
        yield


def _run(target: str, folder: Path, args: list[str], env: dict[str, str],
         capsys: pytest.CaptureFixture[str]) -> None:
    before = _kept(folder)
    code: int | None = None
    try:
        with _environment(env), bounded(target):
            code = main(args)
            if code == 2:
                raise _Refused
    finally:
        out, err = capsys.readouterr()
    assert code in (0, 2), f"{args} {env}: exit {code}: {err}"
    assert "please report" not in out + err and PASSWORD not in out + err, err
    if code == 2:
        assert err.startswith("error: ") and err.count("\n") == 1, err
        assert _kept(folder) == before, f"{args} {env}: a refused command changed the folder"


@fuzz_settings(0.05)
@given(where=st.one_of(database_paths(), database_urls()), env=environments(),
       command=st.sampled_from(COMMANDS), with_db=st.booleans())
def test_database_paths_urls_and_environment(where: Make, env: Callable[[Path, Path], dict[str, str]],
                                             command: list[str], with_db: bool, template: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    with tempfile.TemporaryDirectory(prefix="furnace-fuzz-db-") as name:
        folder = Path(name)
        try:
            db = where(folder, template) if with_db else None
            values = env(folder, template)
        except (OSError, ValueError, sqlite3.Error):    # what this system cannot make (a name too long): no input
            return
        previous = Path.cwd()
        os.chdir(folder)
        try:
            _run("database path/URL/env", folder, [*(["--db", db] if db is not None else []), *command], values, capsys)
        finally:
            os.chdir(previous)
            _writable(folder)


def _writable(folder: Path) -> None:
    """Give back write permission where an input took it, so the folder can be removed."""
    for root, dirs, files in os.walk(folder):
        for entry in [*dirs, *files]:
            path = os.path.join(root, entry)
            if not os.path.islink(path):
                os.chmod(path, 0o755)

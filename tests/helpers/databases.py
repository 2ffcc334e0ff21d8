"""Campaign databases for the tests of bad databases, paths and URLs: a real Furnace database, its damaged and
foreign forms, what stands beside it, and a fingerprint of a folder to show a refused command changed nothing."""

from __future__ import annotations

import hashlib
import os
import random
import sqlite3
import stat
from pathlib import Path

from furnace.campaign import commands, fightedit
from furnace.campaign.store import Store
from furnace.characters.character import Character

ROOT = Path(__file__).resolve().parents[2]
BRAKKA = ROOT / "examples" / "characters" / "brakka.json"
PAGE = 4096


def furnace_db(path: Path, *, hits: int = 0) -> Path:
    """A Furnace database at `path`: the campaign 'keep' with Brakka on its roster (and `hits` damage events),
    its log folded into the file (no -wal beside it)."""
    store = Store(f"sqlite:///{path}")
    try:
        store.create("keep")
        store.apply("keep", "campaign join", commands.join(Character.from_file(BRAKKA)))
        for i in range(hits):   # a stone falls, a draught heals: the log grows, Brakka lives
            fn = fightedit.damage("Brakka", 1, "a stone") if i % 2 == 0 else fightedit.heal("Brakka", 1, "a draught")
            store.apply("keep", "damage" if i % 2 == 0 else "heal", fn)
    finally:
        store.close()        # the last connection closed folds the log into the file and removes it
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    return path


def sql(path: Path, *statements: str) -> Path:
    """Run SQL on a SQLite file as someone with a database shell would (in rollback-journal mode, so nothing is
    left beside it)."""
    conn = sqlite3.connect(path)
    try:
        for statement in statements:
            conn.execute(statement)
        conn.commit()
    finally:
        conn.close()
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    return path


def truncated(path: Path) -> Path:
    """A Furnace database cut after its first page (a copy that stopped half-way)."""
    furnace_db(path, hits=40)
    with path.open("r+b") as stream:
        stream.truncate(PAGE + 100)
    return path


def corrupted(path: Path, seed: int = 26) -> Path:
    """A Furnace database whose pages after the first are overwritten with random bytes (its header intact)."""
    furnace_db(path, hits=40)
    rng = random.Random(seed)
    size = path.stat().st_size
    with path.open("r+b") as stream:
        stream.seek(PAGE)
        stream.write(rng.randbytes(size - PAGE))
    return path


def fingerprint(folder: Path) -> dict[str, tuple[str, int, str]]:
    """Every entry under `folder` (not following symlinks): its kind, size and, for a regular file, a digest."""
    seen: dict[str, tuple[str, int, str]] = {}
    for root, dirs, names in os.walk(folder):
        for name in [*dirs, *names]:
            path = os.path.join(root, name)
            st = os.lstat(path)
            kind = ("dir" if stat.S_ISDIR(st.st_mode) else "link" if stat.S_ISLNK(st.st_mode) else
                    "fifo" if stat.S_ISFIFO(st.st_mode) else "file" if stat.S_ISREG(st.st_mode) else "other")
            digest = ""
            if kind == "file":
                digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
            elif kind == "link":
                digest = os.readlink(path)
            seen[os.path.relpath(path, folder)] = (kind, st.st_size if kind == "file" else 0, digest)
    return seen

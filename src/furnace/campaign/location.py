"""Where the campaign database is: --db, FURNACE_DATABASE_URL, or a SQLite file in the user's data folder."""

from __future__ import annotations

import os
from pathlib import Path


def data_dir() -> Path:
    """The user's data directory (platformdirs), or FURNACE_DATA_DIR."""
    if os.environ.get("FURNACE_DATA_DIR"):
        return Path(os.environ["FURNACE_DATA_DIR"])
    import platformdirs

    return Path(platformdirs.user_data_dir("furnace", appauthor=False))


def resolve_url(db: str | None = None) -> str:
    """--db (a path or a URL) > FURNACE_DATABASE_URL > the default SQLite file in the data directory."""
    chosen = db or os.environ.get("FURNACE_DATABASE_URL") or str(data_dir() / "furnace.db")
    if "://" in chosen:
        return chosen
    return f"sqlite:///{Path(chosen).expanduser().resolve()}"


def sqlite_path(url: str) -> Path | None:
    return Path(url.removeprefix("sqlite:///")) if url.startswith("sqlite:///") else None



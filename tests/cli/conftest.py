"""Shared CLI fixtures: the commands run in-process on a temporary campaign database, no user setting read."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from furnace.cli.app import main

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def furnace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Run:
    """`furnace(*args)` on the tmp database (campaigns.db): (exit code, stdout, stderr)."""
    monkeypatch.setenv("FURNACE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("FURNACE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("FURNACE_CAMPAIGN", raising=False)
    monkeypatch.delenv("FURNACE_DATABASE_URL", raising=False)
    db = str(tmp_path / "campaigns.db")

    def run(*args: str) -> tuple[int, str, str]:
        code = main(["--db", db, *args])
        out = capsys.readouterr()
        return code, out.out, out.err

    return run

"""Golden logs: the example fights, funnels and characters print exactly what they printed before.

Regenerate on purpose only (a rule change): `python -m tests.golden.regen`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from furnace.cli.app import main
from tests.golden.cases import CASES

ROOT = Path(__file__).resolve().parents[2]
LOGS = Path(__file__).parent / "logs"


@pytest.mark.parametrize("name", sorted(CASES))
def test_output_is_unchanged(name: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    assert main(CASES[name]) == 0
    assert capsys.readouterr().out == (LOGS / f"{name}.txt").read_text(encoding="utf-8")

"""docs/rules-status.md is what scripts/gen_rules_status.py makes from the code today (REF-01: the docs stay
true), and no rule of RULES.md is left without an engine reading."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _generator():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("gen_rules_status", ROOT / "scripts" / "gen_rules_status.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_rules_status_page_is_current() -> None:
    page = _generator().page()
    assert (ROOT / "docs" / "rules-status.md").read_text(encoding="utf-8") == page, \
        "run: python scripts/gen_rules_status.py"


def test_every_rule_is_applied_prompted_or_needs_a_book() -> None:
    page = _generator().page()
    assert "| not applied |" not in page

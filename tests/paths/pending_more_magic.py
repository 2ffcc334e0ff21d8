"""A path test that fails on a defect in magic and the fight's SAVEs (`magic/casting.py`, `play/apply.py`, owned by
other parts of issue 22), kept out of the suite (the file's name is not test_*): rename it to test_… once an
Arcane Trickster's magic resistance is applied.

Run it with: .venv/bin/pytest tests/paths/pending_more_magic.py -p no:cacheprovider
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from furnace.cli.app import main
from tests.helpers.factories import EXAMPLES


def ok(capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    code = main([*args, "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)


@pytest.mark.rule("F-TAB-09")
def test_F_TAB_09_an_arcane_tricksters_save_against_her_own_mishap_is_EASY(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """F-TAB-09 magic-resistance: "SAVEs against magical effects are EASY". Wren (Arcane Trickster with the scroll
    reader and magic resistance; INT 9: +0, PROF +2, CON 5: −2) reads Fireball from a scroll (a HARD SPELLCHECK:
    ROOM DC 12 + 3 = 15): a natural 1 is a mishap; row 4, a flash of light: everyone NEAR makes a CON SAVE or is
    BLINDED. Her 12 − 2 = 10 should meet the EASY DC 12 − 3 = 9; today she saves against 12 and fails
    (`magic.casting._saves` reads no marker; `play.apply._save` in a fight does not either, and the row's
    `easy_saves: [magic]` has no reader)."""
    wren = json.loads((EXAMPLES / "characters" / "wren.json").read_text(encoding="utf-8"))
    path = tmp_path / "wren.json"
    path.write_text(json.dumps({**wren, "archetype_features": ["scroll-reader", "magic-resistance"]}), encoding="utf-8")
    out = ok(capsys, "spell", "cast", "Fireball", "--caster", str(path), "--scroll", "--faces", "1,4,12")
    check = next(e for e in out["events"] if e["kind"] == "spellcheck")["data"]
    assert (check["natural"], check["mishap"], check["dc"]) == (1, True, 15)
    save = next(e for e in out["events"] if e["kind"] == "save")["data"]
    assert (save["ability"], save["total"], save["dc"], save["saved"]) == ("CON", 10, 9, True)

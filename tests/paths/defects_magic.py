"""Path tests that fail on defects in `furnace.magic` (owned by another engineer during issue 22), kept out of the
suite (the file's name is not test_*): rename a test's module to test_… once its defect is fixed.

Run them with: .venv/bin/pytest tests/paths/defects_magic.py -p no:cacheprovider
"""

from __future__ import annotations

import json
import shutil
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


@pytest.mark.rule("F-CLR-04")
def test_F_CLR_04_the_disapproval_rows_effects_reach_the_cleric_outside_a_fight(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """X-TAB-02 row 5 ("the cleric takes 1d4 radiant DAM") is rolled and shown by `spell cast --write` but her
    HP is not lowered; row 4 ("-1 to SPELLCHECKs until rest") leaves nothing on her sheet, so her next
    SPELLCHECK has no −1 (`magic.casting.disapproval` keeps only the lockouts, `_lockouts`; the same through
    the console's cast, `campaign.table.cast`). Ilse, 11 HP, disapproval range 3: a natural 3, then 2 on the
    d4 (5), then 4 radiant DAM: 7 HP. Then a natural 1 and a 3 (4: −1 until rest): her next prayer on a 13 is
    13 − 1 + 2 − 1 = 13."""
    ilse = tmp_path / "ilse.json"
    shutil.copy(EXAMPLES / "characters" / "ilse.json", ilse)
    ilse.write_text(json.dumps({**json.loads(ilse.read_text(encoding="utf-8")), "disapproval": 3}), encoding="utf-8")
    ok(capsys, "spell", "cast", "Chill Touch", "--caster", str(ilse), "--faces", "3,2,4", "--write")
    assert json.loads(ilse.read_text(encoding="utf-8"))["hp"] == 11 - 4
    ok(capsys, "spell", "cast", "Chill Touch", "--caster", str(ilse), "--faces", "1,3", "--write")
    after = ok(capsys, "spell", "cast", "Chill Touch", "--caster", str(ilse), "--faces", "13,5")
    assert after["check"]["total"] == 13

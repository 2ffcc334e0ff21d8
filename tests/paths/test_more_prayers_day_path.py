"""Lay on Hands across in-game days: the daily cap on magical healing (F-CLR-07) resets when a new day starts on
the campaign clock (`campaign.days`), not at a long rest."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.paths.test_more_prayers_path import Keep, spent


@pytest.mark.rule("F-CLR-07")
def test_F_CLR_07_no_more_magical_hit_dice_a_day_than_her_level_until_a_new_day(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """F-CLR-07 (AMB-14, CF-17): a character is magically healed no more HD a day than her level, counted per
    in-game day, reset when a new day starts and not at every long rest. Brakka (level 3) at 2 HP takes 1 HD
    (Ilse's 13 + 1 = 14, d10 4: 2 → 6) and 2 HD (17 + 1 = 18, d10 6 and 3: 6 → 15): 3 of 3 today, her pool
    empty. A long rest (day 1, 08:00) fills her pool again but not her day: 19 + 1 = 20 would give 2 HD, she may
    spend none. A day later, 13 + 1 = 14 gives her 1 HD again (d10 5: 15 → 20).
    Today the count is never reset: `magic.casting.new_day` has no caller."""
    keep = Keep(capsys, tmp_path)
    keep.ok("damage", "Brakka", "20")
    assert spent(keep.lay("Sister Ilse", "Brakka", "--faces", "13,4")) == [(4, 6, 2)]
    assert spent(keep.lay("Sister Ilse", "Brakka", "--faces", "17,6,3")) == [(6, 12, 1), (3, 15, 0)]
    assert keep.sheet("Brakka")["healed_today"] == 3
    keep.ok("rest", "long", "Brakka")
    assert keep.sheet("Brakka")["hit_dice"] == 3
    capped = keep.lay("Sister Ilse", "Brakka", "--faces", "19")
    assert {k: capped["lay_on_hands"][0]["data"][k] for k in ("total", "hd", "allowed", "pool", "today", "cap")} == {
        "total": 20, "hd": 2, "allowed": 0, "pool": 3, "today": 3, "cap": 3}
    assert "hit_die" not in capped and keep.sheet("Brakka")["hp"] == 15
    keep.ok("clock", "advance", "1", "day")
    again = keep.lay("Sister Ilse", "Brakka", "--faces", "13,5")
    assert (again["lay_on_hands"][0]["data"]["today"], again["lay_on_hands"][0]["data"]["allowed"]) == (0, 1)
    assert spent(again) == [(5, 20, 2)]

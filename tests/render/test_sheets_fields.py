"""The sheet's fields on every format (`furnace.render.sheets`, `furnace.render.text`), from one model
(`furnace.characters.sheet`): a peasant with nothing in hand, a level-10 veteran, a player's Luck pool, names
that need escaping."""

from __future__ import annotations

import pytest

from furnace.characters.sheet import sheet
from furnace.render.sheets import character_html, character_markdown
from furnace.render.text import character_sheet
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import fighter, peasant

RULES = load_ruleset()


def test_a_peasant_with_nothing_in_hand_fights_with_her_fist(capsys: pytest.CaptureFixture[str]) -> None:
    c = peasant(items=["pitchfork", "a|b"])
    s = sheet(c, RULES)
    assert (s.weapons, s.worn, s.carried, s.hit_dice_pool, s.hit_dice_used) == ((), (), ("pitchfork", "a|b"), 1, 0)
    md = character_markdown(c, RULES)
    assert "| fist | — | — | no weapon wielded |" in md and "- **Carried:** pitchfork, a\\|b" in md
    assert "- **Worn:** —" in md and "- **Coins:** 0" in md and "- **XP:** 0 (level 1 when the referee says)" in md
    assert "<td>fist</td>" in character_html(c, RULES) and "<dt>Worn</dt><dd>nothing</dd>" in character_html(c, RULES)
    character_sheet(c, RULES)
    out = capsys.readouterr().out
    assert "weapons" in out and "fist" in out and "a|b" in out


def test_level_ten_has_no_next_level_and_the_players_pool_stands_for_luck(capsys: pytest.CaptureFixture[str]) -> None:
    c = fighter(level=10, hit_dice=5, luck_dice=1, extensions={"xp": [{"amount": 90000, "reason": "a life"}]})
    s = sheet(c, RULES, luck=3)
    assert (s.next_level, s.next_xp, s.xp, s.luck_dice) == (None, None, 90000, 3)
    assert "- **XP:** 90,000\n" in character_markdown(c, RULES) and "- **Luck Dice:** 1" in character_markdown(c, RULES)
    assert "- **Luck Dice:** 3" in character_markdown(c, RULES, luck=3)
    assert "<dt>Luck Dice</dt><dd>3</dd>" in character_html(c, RULES, luck=3)
    character_sheet(c, RULES, luck=3)
    assert "3 / 0" in capsys.readouterr().out                      # Luck Dice / coins


def test_html_escapes_what_the_referee_typed() -> None:
    c = fighter(items=["<script>"], conditions=["PRONE"])
    page = character_html(c, RULES)
    assert "<script>" not in page and "&lt;script&gt;" in page and "<dd>PRONE</dd>" in page

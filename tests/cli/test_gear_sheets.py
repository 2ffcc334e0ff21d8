"""The sheets a referee plays from, through `furnace character show` on a campaign member (terminal, Markdown,
HTML): coins, XP and the next level's, Luck Dice, the Hit Dice pool used and left, each weapon's ATK and damage,
what is worn and what is carried, conditions and injuries in words, features by name; and `campaign recap`
telling the levels gained.

RULES.md: F-HP-06 (the Hit Dice pool), F-EQ-04 and F-EQ-05 (weapon damage, the two-handed STR bonus), F-LOAD-01
(load), F-ADV-01 (PROF by level), F-BASE-08 (XP, the referee's table, REF-24), M-BONE-01 (a broken arm).
"""

from __future__ import annotations

import html as markup
from pathlib import Path
from typing import Any

import pytest
import yaml

from furnace.characters.character import Weapon
from tests.cli.conftest import Run
from tests.cli.test_gear_equip import begin, ok
from tests.helpers.factories import fighter, scores

SWORD = Weapon(name="arming sword", category="martial", kind="one-handed", damage="1d8", notches=1)
LONGSWORD = Weapon(name="longsword", category="martial", kind="two-handed", damage="1d10")


# Hrolf at level 3 (PROF +2), STR 16 (+2), DEX 14 (+1): chain mail (15), a shield (+2), the Defense style (+1): AC
# 18; a notched arming sword (ATK 2 + 2 − 1 = +3, 1d8+1) and a longsword (+4, 1d10 + ceil(1.5 × 2) = 1d10+3); one
# Hit Die left of the level's 3; 2 Luck Dice; prone, scarred, and a held HARD on CHECKs
VETERAN: dict[str, Any] = {
    "name": "Hrolf", "level": 3, "hp_max": 24, "hp": 17, "hit_dice": 1, "luck_dice": 2,
    "scores": scores(STR=16, DEX=14), "archetype": "Barbarian", "archetype_features": ["rage", "fearless"],
    "features": ["Cleave", "Fighting Style"], "fighting_style": "Defense", "armor": "chain-mail",
    "shield": True, "helmet": True, "weapons": [SWORD, LONGSWORD], "items": ["rope", "boiled leather"],
    "conditions": ["PRONE"], "injuries": ["a horrible scar"], "until_rest": ["MOD:checks:HARD: Spell Depletion"],
    "extensions": {"gear": {"pieces": {"boiled leather": {"armor": "boiled-leather", "armor_damage": 1}}}},
}


def xp_table(tmp_path: Path) -> Path:
    """The referee's XP table (REF-24): level 4 at 1,000 XP."""
    path = tmp_path / "xp-levels.yaml"
    path.write_text(yaml.safe_dump({"id": "house:xp-levels", "name": "xp-levels", "title": "XP by level",
                                    "source": "house", "kind": "keyed", "key_name": "level",
                                    "rows": [{"key": 4, "text": "level 4", "data": {"xp": 1000}}]}))
    return path


def md_fields(text: str) -> dict[str, str]:
    return {line.split(":**", 1)[0][4:]: line.split(":** ", 1)[1] for line in text.splitlines()
            if line.startswith("- **")}


@pytest.mark.rule("F-HP-06", "F-EQ-04", "F-EQ-05", "F-LOAD-01", "F-ADV-01", "F-BASE-08")
def test_F_HP_06_every_sheet_shows_what_a_referee_plays_from(furnace: Run, tmp_path: Path) -> None:
    begin(furnace, tmp_path, fighter(VETERAN))
    ok(furnace, "purse", "Hrolf", "+1200")
    ok(furnace, "xp", "award", "250", "Hrolf")
    fields = md_fields(ok(furnace, "character", "show", "Hrolf", "--markdown"))
    assert fields["XP"] == "250 (level 4 when the referee says)"
    ok(furnace, "campaign", "override", "add", str(xp_table(tmp_path)), "--kind", "table")
    md = ok(furnace, "character", "show", "Hrolf", "--markdown")
    fields = md_fields(md)
    # 2 items + 2 weapons + armor + shield + helmet + 1,200 coins (2 bundles of 1000) = 9 of 10 + STR 2
    assert {k: fields[k] for k in ("AC", "Load", "Luck Dice", "Coins", "XP", "Hit Dice", "Hit Dice pool")} == {
        "AC": "18", "Load": "9 of 12", "Luck Dice": "2", "Coins": "1,200", "XP": "250 (level 4 at 1,000)",
        "Hit Dice": "1 × d10", "Hit Dice pool": "1 left, 2 used (of 3)"}
    assert fields["Worn"] == "chain mail (heavy armor, Stealth HARD), shield (on the left arm, AC +2), helmet"
    assert fields["Carried"] == "rope, boiled leather (1 protection lost)"
    assert fields["Archetype features"] == "Rage, Immune to FEAR effects"
    assert fields["Conditions / injuries"] == "PRONE, a horrible scar, checks HARD (Spell Depletion)"
    assert "| arming sword | +3 | 1d8+1 | 1 notched |" in md and "| longsword | +4 | 1d10+3 | — |" in md

    out = ok(furnace, "character", "show", "Hrolf")             # the terminal sheet: PROF +2 at level 3 (F-ADV-01)
    for shown in ("+2 / 18 / 9 of 12", "2 / 1,200", "250 (level 4 at 1,000)", "1 left, 2 used (of 3)",
                  "arming sword: ATK +3, 1d8+1 (1 notched)", "longsword: ATK +4, 1d10+3",
                  "chain mail (heavy armor, Stealth HARD)", "rope, boiled leather (1 protection lost)",
                  "Cleave, Fighting Style: Defense, Rage, Immune to FEAR effects", "PRONE, a horrible scar"):
        assert shown in out, shown

    sheet = tmp_path / "hrolf.html"
    ok(furnace, "character", "show", "Hrolf", "--html", str(sheet))
    page = markup.unescape(sheet.read_text(encoding="utf-8"))
    for shown in ("<dt>Coins</dt><dd>1,200</dd>", "<dt>Luck Dice</dt><dd>2</dd>",
                  "<dt>XP</dt><dd>250 (level 4 at 1,000)</dd>", "<dt>Hit Dice pool</dt><dd>1 left, 2 used (of 3)</dd>",
                  '<tr class="weapon"><td>longsword</td><td>+4</td><td>1d10+3</td>', "<div class=\"val\">9/12</div>",
                  "<dt>Worn</dt><dd>chain mail (heavy armor, Stealth HARD), shield (on the left arm, AC +2), helmet",
                  "<dt>Conditions</dt><dd>PRONE, a horrible scar, checks HARD (Spell Depletion)</dd>"):
        assert shown in page, shown


@pytest.mark.rule("M-BONE-01")
def test_M_BONE_01_the_sheet_says_what_a_broken_arm_cannot_hold(furnace: Run, tmp_path: Path) -> None:
    broken = {"middle_sea": {"breaks": {"L. Arm": {"count": 1, "weeks": 10, "injury": "broken left arm"}}}}
    begin(furnace, tmp_path, fighter(VETERAN, extensions=broken, fighting_style=None), "middle-sea")
    fields = md_fields(ok(furnace, "character", "show", "Hrolf", "--markdown"))
    assert fields["AC"] == "15"                                            # chain mail alone: the shield is lost
    assert "shield (on the left arm, broken: no AC)" in fields["Worn"]
    md = ok(furnace, "character", "show", "Hrolf", "--markdown")
    assert "| longsword | +4 | 1d10+3 | cannot be wielded: her left arm is broken |" in md


def test_the_recap_tells_the_levels_gained_in_the_session(furnace: Run, tmp_path: Path) -> None:
    """A peasant of the session's funnel promoted (0 → 1) and a veteran levelled (3 → 4) the same evening."""
    begin(furnace, tmp_path, fighter(VETERAN))
    ok(furnace, "campaign", "session", "start", "The barrow")
    ok(furnace, "funnel", "--player", "Ann", "--per-player", "1", "--seed", "3")
    ok(furnace, "character", "promote", "Ann-1", "--class", "Fighter", "--random", "--seed", "2")
    ok(furnace, "character", "level-up", "Hrolf", "--ability", "CON", "--seed", "3")
    out = ok(furnace, "campaign", "recap")
    assert "Ann-1 joined the campaign" in out and "Ann-1 went from level 0 to level 1" in out
    assert "Hrolf went from level 3 to level 4" in out

"""`furnace equip` and `furnace unequip` on a campaign in a temporary SQLite file: armor, shields, helmets and
weapons between the pack and the body, each change logged and undoable; AC, ATK, Stealth and the load follow
what is worn, and a broken arm holds no shield or weapon.

RULES.md: F-EQ-01 (armor and shield AC), F-EQ-02 (Stealth HARD in heavy armor), F-EQ-04 (weapon damage),
F-TAB-40 (the kits' weapons), F-LOAD-01 (load), M-BONE-01 (a broken arm), M-ARM-03 (a destroyed shield replaced).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from furnace.campaign.store import Store
from furnace.campaign.table import sheet_roll
from furnace.characters.character import Character, Weapon
from tests.cli.conftest import Run
from tests.helpers.factories import dice, fighter, reopened, scores

SWORD = Weapon(name="arming sword", category="martial", kind="one-handed", damage="1d8")
BROKEN_LEFT = {"middle_sea": {"breaks": {"L. Arm": {"count": 1, "weeks": 11, "injury": "broken left arm",
                                                    "entry": None}}}}


# Hrolf: a level-1 Fighter (PROF +1), STR 16 (+2), DEX 14 (+1), in boiled leather (AC 11 + 1 = 12) with an arming
# sword (ATK +3, 1d8+2); load 10 + 2 = 12
HROLF: dict[str, Any] = {"name": "Hrolf", "scores": scores(STR=16, DEX=14), "armor": "boiled-leather",
                         "weapons": [SWORD]}


def begin(run: Run, tmp_path: Path, character: Character, profile: str = "furnace") -> None:
    path = tmp_path / "hrolf.json"
    path.write_text(character.to_json(), encoding="utf-8")
    for args in (("campaign", "new", "keep", "--profile", profile), ("campaign", "use", "keep"),
                 ("clock", "join", str(path))):
        code, _, err = run(*args)
        assert code == 0, err


def ok(run: Run, *args: str) -> str:
    code, out, err = run(*args)
    assert code == 0 and err == "", err
    return out


def refused(run: Run, *args: str) -> str:
    code, _, err = run(*args)
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1, err
    return err


def hero(tmp_path: Path) -> Any:
    """Hrolf as the store keeps him (a reader of the campaign, not a factory)."""
    return reopened(tmp_path / "campaigns.db").roster["hrol1"].character


def rolled(tmp_path: Path, kind: str, face: int, **how: Any) -> dict[str, Any]:
    """A roll from Hrolf's sheet (the console's button) with the d20 showing `face`: the fact's values."""
    store = Store(f"sqlite:///{tmp_path / 'campaigns.db'}")
    try:
        applied = store.apply("keep", "sheet roll", sheet_roll("hrol1", kind, dice(face), **how))
    finally:
        store.close()
    return dict(applied.events[-1].data)


@pytest.mark.rule("F-EQ-01", "F-LOAD-01")
def test_F_EQ_01_a_shield_given_is_worn_then_put_down_and_undone(furnace: Run, tmp_path: Path) -> None:
    begin(furnace, tmp_path, fighter(HROLF))
    assert "load 3 of 12" in ok(furnace, "give", "Hrolf", "shield")
    assert hero(tmp_path).ac() == 12                     # in the pack: no AC
    out = ok(furnace, "equip", "Hrolf", "Shield")
    assert "takes up her shield on her left arm: AC 12 → 14; load 3 of 12" in out
    c = hero(tmp_path)
    assert c.shield and c.items == [] and c.ac() == 14
    assert "puts down her shield (into her pack): AC 14 → 12" in ok(furnace, "unequip", "Hrolf", "shield")
    assert hero(tmp_path).items == ["shield"] and not hero(tmp_path).shield
    shown = json.loads(ok(furnace, "campaign", "undo", "--show", "--json"))     # it asks first; --yes names it
    ok(furnace, "campaign", "undo", "--yes", str(shown["undo"]["command"]))
    assert hero(tmp_path).shield and hero(tmp_path).ac() == 14
    assert "already bears a shield" in refused(furnace, "equip", "Hrolf", "shield")  # none left in the pack
    assert "no 'lamp' in her pack" in refused(furnace, "equip", "Hrolf", "lamp")
    assert "wears and wields no 'helmet'" in refused(furnace, "unequip", "Hrolf", "helmet")
    data = json.loads(ok(furnace, "unequip", "Hrolf", "shield", "--json"))
    assert data[-1]["data"] | {"ac_before": 14, "ac_after": 12, "piece": "shield", "off": True} == data[-1]["data"]


@pytest.mark.rule("F-EQ-01", "F-EQ-02")
def test_F_EQ_02_chain_mail_swapped_for_leather_makes_stealth_hard(furnace: Run, tmp_path: Path) -> None:
    begin(furnace, tmp_path, fighter(HROLF, skills=["Stealth"]))
    assert rolled(tmp_path, "check", 10, skill="Stealth")["dc"] == 12
    ok(furnace, "give", "Hrolf", "chain mail")
    out = ok(furnace, "equip", "Hrolf", "chain mail")
    assert "puts on chain mail: AC 12 → 15; Stealth HARD in it; boiled leather into her pack" in out   # heavy: no DEX
    c = hero(tmp_path)
    assert (c.armor, c.items, c.ac()) == ("chain-mail", ["boiled leather"], 15)
    stealth = rolled(tmp_path, "check", 10, skill="Stealth")
    assert stealth["dc"] == 15 and any("F-EQ-02" in h for h in stealth["hard"])      # 12 made HARD: +3
    assert "AC 15 → 12" in ok(furnace, "equip", "Hrolf", "boiled leather")
    assert rolled(tmp_path, "check", 10, skill="Stealth")["dc"] == 12
    assert "takes off boiled leather (into her pack): AC 12 → 11" in ok(furnace, "unequip", "Hrolf", "armor")
    assert hero(tmp_path).items == ["chain mail", "boiled leather"]                   # unarmored: 10 + DEX


@pytest.mark.rule("F-EQ-04", "F-TAB-40")
def test_F_EQ_04_weapons_put_away_and_readied_from_the_tables(furnace: Run, tmp_path: Path) -> None:
    begin(furnace, tmp_path, fighter(HROLF, weapons=[SWORD.model_copy(update={"notches": 1})]))
    assert rolled(tmp_path, "attack", 10)["weapon"] == "arming sword"
    assert "puts away her arming sword (into her pack)" in ok(furnace, "unequip", "Hrolf", "arming sword")
    assert rolled(tmp_path, "attack", 10)["weapon"] == "fist"
    out = ok(furnace, "equip", "Hrolf", "arming sword")
    assert "readies her arming sword: ATK +2, damage 1d8+1" in out                  # the notch kept: −1 (M-WPN-02)
    ok(furnace, "give", "Hrolf", "spear", "frying pan", "warhammer")
    assert "readies her spear: ATK +3, damage 1d6+2" in ok(furnace, "equip", "Hrolf", "spear")  # the kit's spear
    assert hero(tmp_path).weapons[-1].tags == ["Thrown"]
    assert "ATK +3, damage 1d8+2" in ok(furnace, "equip", "Hrolf", "warhammer")     # F-TAB-22's example
    assert "--as" in refused(furnace, "equip", "Hrolf", "frying pan")
    assert "ATK +3, damage 1d6+2" in ok(furnace, "equip", "Hrolf", "frying pan", "--as", "simple-one-handed")
    assert [w.name for w in hero(tmp_path).weapons] == ["arming sword", "spear", "warhammer", "frying pan"]


@pytest.mark.rule("M-BONE-01")
def test_M_BONE_01_a_broken_left_arm_holds_no_shield_or_weapon(furnace: Run, tmp_path: Path) -> None:
    begin(furnace, tmp_path, fighter(HROLF, shield=True, extensions=BROKEN_LEFT, items=["longsword"]), "middle-sea")
    assert hero(tmp_path).ac() == 12                     # the shield on the broken arm counts for nothing
    assert "**AC:** 12" in ok(furnace, "character", "show", "Hrolf", "--markdown")
    ok(furnace, "unequip", "Hrolf", "shield")
    err = refused(furnace, "equip", "Hrolf", "shield")
    assert "Hrolf's left arm is broken and holds no shield (M-BONE-01); bear it on the right arm with --arm right" \
        in err
    assert "AC 12 → 14" in ok(furnace, "equip", "Hrolf", "shield", "--arm", "right")
    assert rolled(tmp_path, "attack", 10)["weapon"] == "fist"     # the right arm bears the shield, the left is broken
    assert "takes both arms and her left arm is broken (M-BONE-01)" in refused(furnace, "equip", "Hrolf", "longsword")
    ok(furnace, "unequip", "Hrolf", "shield")
    attack = rolled(tmp_path, "attack", 10)
    assert attack["weapon"] == "arming sword" and attack["total"] == 13             # 10 + STR 2 + PROF 1


@pytest.mark.rule("M-ARM-03")
def test_M_ARM_03_a_destroyed_magic_shield_is_replaced_by_a_new_one(furnace: Run, tmp_path: Path) -> None:
    """The shield was destroyed (M-ARM-03: shield off, a point of damage left on the record): a new one given and
    equipped gives +2 again, with no plus and no damage of the old one."""
    lost = {"middle_sea": {"shield_damage": 1}}
    begin(furnace, tmp_path, fighter(HROLF, shield=False, shield_magic=1, extensions=lost), "middle-sea")
    ok(furnace, "give", "Hrolf", "shield")
    assert "AC 12 → 14" in ok(furnace, "equip", "Hrolf", "shield")
    c = hero(tmp_path)
    assert c.shield and c.shield_magic == 0 and "shield_damage" not in c.extensions["middle_sea"]


def test_a_helmet_counts_to_the_load_worn_or_packed(furnace: Run, tmp_path: Path) -> None:
    begin(furnace, tmp_path, fighter(HROLF))
    assert "load 3 of 12" in ok(furnace, "give", "Hrolf", "helmet")
    out = ok(furnace, "equip", "Hrolf", "helmet")
    assert "puts on her helmet: load 3 of 12" in out and hero(tmp_path).helmet
    assert "takes off her helmet (into her pack)" in ok(furnace, "unequip", "Hrolf", "helm")


@pytest.mark.parametrize("name", ["equip", "unequip"])
def test_equip_commands_have_help_with_an_example(furnace: Run, name: str) -> None:
    out = ok(furnace, name, "--help")
    assert f"Example: furnace {name} Brakka " in out and "--json" in out


@pytest.mark.rule("M-ARM-01", "M-ARM-03")
def test_M_ARM_01_the_item_saves_follow_what_is_worn(furnace: Run, tmp_path: Path) -> None:
    """A goblin's natural 20 on Hrolf under the Middle Sea rules: in helmet and leather the d6 picks the piece (1:
    the helmet) and a failed save (5) destroys it; with no helmet no piece die is rolled and the leather takes it
    (and saves: 15 vs 12); with a shield taken up, the shield takes it first (5: destroyed). A new helmet and a
    new shield given and equipped replace the destroyed ones."""
    begin(furnace, tmp_path, fighter(HROLF, hp_max=30), "middle-sea")
    ok(furnace, "give", "Hrolf", "helmet", "shield")

    def natural_20(faces: str) -> str:
        assert "Goblin: is due" in ok(furnace, "encounter", "start", "--party", "hrol1", "--monsters", "goblin",
                                      "--seed", "4")
        out = ok(furnace, "encounter", "next", "--faces", faces)     # ATK d20, DAM d6, [piece d6], item save d20
        ok(furnace, "encounter", "end")
        return out

    ok(furnace, "equip", "Hrolf", "helmet")
    assert "the helmet is destroyed" in natural_20("20,6,1,5")
    assert not hero(tmp_path).helmet
    assert "leather saves vs crushing blow: 15 vs 12" in natural_20("20,6,15")   # no helmet: no piece die
    ok(furnace, "give", "Hrolf", "helmet")
    assert "puts on her helmet" in ok(furnace, "equip", "Hrolf", "helmet")
    assert "AC 12 → 14" in ok(furnace, "equip", "Hrolf", "shield")
    assert "the shield is destroyed" in natural_20("20,6,5")
    c = hero(tmp_path)
    assert not c.shield and c.helmet
    ok(furnace, "give", "Hrolf", "shield")
    assert "AC 12 → 14" in ok(furnace, "equip", "Hrolf", "shield")


def test_a_piece_taken_from_the_pack_leaves_nothing_kept(furnace: Run, tmp_path: Path) -> None:
    begin(furnace, tmp_path, fighter(HROLF, weapons=[SWORD.model_copy(update={"notches": 2})]))
    ok(furnace, "unequip", "Hrolf", "arming sword")
    assert "arming sword" in hero(tmp_path).extensions["gear"]["pieces"]
    ok(furnace, "take", "Hrolf", "arming sword")
    assert "pieces" not in hero(tmp_path).extensions["gear"]
    ok(furnace, "give", "Hrolf", "arming sword")
    assert "readies her arming sword: ATK +3, damage 1d8+2" in ok(furnace, "equip", "Hrolf", "arming sword")  # new
    ok(furnace, "give", "Hrolf", "helmet")
    ok(furnace, "equip", "Hrolf", "helmet")
    assert "already wears a helmet" in refused(furnace, "equip", "Hrolf", "helmet")

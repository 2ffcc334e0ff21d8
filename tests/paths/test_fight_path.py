"""Rules at the fight table through `furnace encounter …`: the actions a turn allows and the zones they reach, a Rogue's
crit, the Fighter's styles, a magic item's power, and the items' dice budgets (`furnace item …`). Each test names
the RULES.md ids it shows and works out their numbers from the faces entered.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from tests.paths.keep_cli import EXAMPLES, Keep, hero, keep

__all__ = ["keep"]
DUELIST = [{"name": "arming sword", "category": "martial", "kind": "one-handed", "damage": "1d8", "tags": []}]
GREAT = [{"name": "longsword", "category": "martial", "kind": "two-handed", "damage": "1d10", "tags": []}]
ARCHER = [{"name": "warbow", "category": "martial", "kind": "ranged", "damage": "1d8", "tags": []}]


def party(keep: Keep, *stems: str) -> None:
    keep.new()
    keep.ok("campaign", "join", *(str(EXAMPLES / "characters" / f"{stem}.json") for stem in stems))


def actions(keep: Keep, who: str = "") -> dict[str, tuple[bool, str | None]]:
    shown = keep.json("encounter", "actions", *((who,) if who else ()))
    return {a["kind"]: (a["legal"], a["reason"]) for a in shown["actions"]}


@pytest.mark.rule("F-TAB-42", "F-BASE-06", "F-BASE-05")
def test_F_TAB_42_F_BASE_05_06_one_action_a_turn_and_the_zones_it_reaches(keep: Keep, tmp_path: Path) -> None:
    """A turn is one action from F-TAB-42 (ATK, go NEAR and ATK, go RANGED, DODGE, DISENGAGE, or a free-form one):
    after Brakka goes NEAR and hits, a second action of hers is refused until her next turn (F-BASE-06). The zones
    (F-BASE-05): from NEAR a melee blow needs going NEAR first (NEAR is "reach and attack in the same turn"); from
    RANGED Wren cannot reach a foe and strike in one turn, and the Archer shoots her warbow (a missile reaches anyone
    not FAR)."""
    party(keep, "brakka", "wren")
    keep.ok("campaign", "join", str(hero(tmp_path, "Archer", weapons=ARCHER, archetype_features=[], shield=False)))
    keep.ok("encounter", "start", "--party", "all", "--monsters", "goblin x2", "--seed", "4")
    first = actions(keep)
    assert list(first) == ["attack", "move_attack", "go_ranged", "dodge", "disengage", "stabilise", "wait", "free",
                           "cast", "lay_on_hands", "use"]
    assert first["attack"] == (False, "Goblin 1 is out of reach: Brakka is NEAR and Goblin 1 NEAR; a melee blow needs "
                                      "both CLOSE — go NEAR and attack (move_attack) instead (F-BASE-05)")
    assert first["move_attack"][0] and first["go_ranged"][0] and first["dodge"][0] and first["free"][0]
    hit = keep.ok("encounter", "act", "brak1", "attack", "goblin-1", "--faces", "12,5", "--rage")
    assert "Brakka: goes NEAR Goblin 1 and attacks" in hit and "HP 1 → -7" in hit
    assert "it is not Brakka's turn: Wren is due (round 1)" in keep.refused("encounter", "act", "brak1", "dodge")
    keep.ok("encounter", "act", "wren1", "move", "RANGED")
    keep.ok("encounter", "act", "arch1", "move", "RANGED")
    keep.ok("encounter", "next", "--seed", "2")                 # Goblin 2 goes NEAR Brakka and strikes
    keep.ok("encounter", "answer", "q1", "--no-sunder")         # F-EQ-03: she keeps her shield
    status = keep.ok("encounter", "status")
    assert "Wren (wren1) · HP 17/17 · RANGED" in status and "Archer (arch1) · HP 22/22 · RANGED" in status
    keep.ok("encounter", "act", "brak1", "wait")
    assert actions(keep, "wren1")["move_attack"] == (
        False, "Wren is RANGED: too far to reach a foe and attack in one turn (F-BASE-05)")
    keep.ok("encounter", "act", "wren1", "wait")
    assert actions(keep, "arch1")["attack"] == (True, None)
    shot = keep.ok("encounter", "act", "arch1", "attack", "goblin-2", "--faces", "12,3")
    assert "hits Goblin 2 with warbow" in shot
    rows = [row["key"] for row in keep.json("table", "show", "combat-actions")["rows"]]
    assert rows == ["attack", "near-and-attack", "go-ranged", "dodge", "disengage", "other"]


@pytest.mark.rule("F-TAB-33")
def test_F_TAB_33_a_rogues_crit_in_a_fight(keep: Keep) -> None:
    """A natural 20 by Wren, a level-3 Rogue, deals her weapon's maximum (arming sword 1d8 + STR 0 = 8) and rolls the
    Rogue crit table (F-TAB-33) on the level-3 crit die, a d10: 6 is "+2d6 DAM" (3 + 4), so the ogre's 27 HP fall
    by 8 and 7 to 12; 8 is "+1d8 DAM and foe is STUNNED for 1 round"."""
    party(keep, "wren")
    keep.ok("encounter", "start", "--party", "Wren", "--monsters", "ogre", "--seed", "1")
    crit = keep.ok("encounter", "act", "wren1", "attack", "ogre", "--faces", "20,6,3,4")
    assert "deals maximum 1d8 = 8" in crit and "HP 27 → 19" in crit
    assert "crit table: 6 on the d10 for level 3 → +2d6 DAM." in crit and "HP 19 → 12" in crit
    rows = {(r.get("min"), r.get("max")): r["text"] for r in keep.json("table", "show", "crit-rogue")["rows"]}
    assert rows[(6, 6)] == "+2d6 DAM." and rows[(28, None)].startswith("+3d6 DAM")
    stun = json.loads(keep.free("table", "roll", "crit-rogue", "--level", "3", "--faces", "8,5", "--json"))
    assert (stun["die_reason"], stun["roll"]["total"]) == ("d10 for level 3", 8)
    assert [e["kind"] for e in stun["row"]["effects"]] == ["damage", "condition"]
    assert [(r["expression"], r["total"]) for r in stun["effect_rolls"]] == [("1d8", 5)]


@pytest.mark.rule("F-TAB-39")
def test_F_TAB_39_the_fighting_styles_in_a_fight(keep: Keep, tmp_path: Path) -> None:
    """Fighting styles (F-TAB-39): Dueling +1 DAM with a one-handed weapon (1d8 + STR 1 + 1: a 4 deals 6); the
    two-handed weapon master rolls a 1 again once, as her player says (1d10ro1 + 2: 1 then 7 deals 9); Archery +1
    ATK with a ranged weapon (d20 10 + DEX 0 + PROF 2 + 1 = 13); Defense +1 AC (Brakka's AC 14 = 11 + 2 + 1)."""
    keep.new()
    plain = {"archetype_features": [], "shield": False}
    for name, style, weapons in (("Duelist", "Dueling", DUELIST), ("Greatsword", "2H weapon master", GREAT),
                                 ("Archer", "Archery", ARCHER)):
        keep.ok("campaign", "join", str(hero(tmp_path, name, fighting_style=style, weapons=weapons, **plain)))
    keep.ok("encounter", "start", "--party", "Duelist,Greatsword", "--monsters", "ogre", "--seed", "1")
    duel = keep.ok("encounter", "act", "duel1", "attack", "ogre", "--faces", "15,4")
    assert "DAM: 1d8+2 → [4] + 2 = 6" in duel
    great = keep.ok("encounter", "act", "grea1", "attack", "ogre", "--power", "--faces", "15,1,7")   # asked: yes
    assert "1d10ro1+2" in great and "= 9" in great
    archer = keep.sheet_roll("Archer", "attack", [10], dc=12).data
    assert (archer["weapon"], archer["total"]) == ("warbow", 13)
    assert keep.sheet(str(EXAMPLES / "characters" / "brakka.json"), free=True)["AC"] == "14"
    styles = {row["key"]: row["data"] for row in keep.json("table", "show", "fighting-styles")["rows"]}
    assert len(styles) == 6


@pytest.mark.rule("F-TAB-27", "F-TAB-26")
def test_F_TAB_27_the_shield_of_shielding_in_a_fight(keep: Keep) -> None:
    """The Shield of Shielding (F-TAB-27): an Uncommon item, its 1 die "+1d4 AC" (an effect: a d4, F-TAB-26) "for
    1 round", "once a day" (free). Brakka uses it: the d4 shows 3, so the ogre's 20 must beat AC 14 + 3 = 17 until
    her turn in round 2, when it ends; a second use that day is refused."""
    party(keep, "brakka")
    keep.ok("give", "Brakka", "Shield of Shielding")
    keep.ok("encounter", "start", "--party", "Brakka", "--monsters", "ogre", "--seed", "1")
    used = keep.ok("encounter", "act", "brak1", "use", "--item", "Shield of Shielding", "--faces", "3")
    assert "+3 AC until her turn in round 2" in used and "1d4 → [3] = 3" in used
    struck = keep.ok("encounter", "next", "--faces", "16,5,5")
    assert "(20 vs AC 17: AC 14, +3 AC)" in struck and "may sunder her shield" in struck   # F-EQ-03: she is asked
    assert "HP 22 → 10" in keep.ok("encounter", "answer", "q1", "--no-sunder")
    assert "AC +3" not in keep.ok("encounter", "status")
    assert "no use of Shield of Shielding left today" in keep.refused("encounter", "act", "brak1", "use", "--item",
                                                                      "Shield of Shielding")
    item = keep.json("item", "show", "shield-of-shielding")
    assert (item["tier"], item["budget"]) == ("uncommon", 1)
    assert [(e["data"]["effect"], e["data"]["cost"]) for e in item["entries"]] == [
        ("+1d4 AC", 1), ("for 1 round", 0), ("once a day", 0)]


@pytest.mark.rule("F-TAB-25", "F-TAB-26")
def test_F_TAB_25_26_an_items_tier_buys_its_dice_and_its_kind_their_size(keep: Keep, tmp_path: Path) -> None:
    """Magic item tiers (F-TAB-25): Common no die, Uncommon 1, Rare 3, Epic 5; the die by kind (F-TAB-26): d4 for an
    effect, duration or charge, d6 ranged damage, d8 melee damage. The builder spends exactly the budget; a
    referee's item that spends 4 dice on a Rare is refused naming the count."""
    budgets = {tier: _built(keep, tmp_path, tier, "melee") for tier in ("common", "uncommon", "rare", "epic")}
    assert {tier: rows["item"]["budget"] for tier, rows in budgets.items()} == {"common": 0, "uncommon": 1, "rare": 3,
                                                                              "epic": 5}
    assert budgets["rare"]["effect"] == {"effect": "+2d8 DAM", "dice": "2d8", "cost": 2}
    assert budgets["rare"]["duration"]["cost"] == 1 and budgets["rare"]["uses"]["cost"] == 0
    kinds = {kind: _built(keep, tmp_path, "uncommon", kind)["effect"]["dice"] for kind in ("effect", "ranged", "melee")}
    assert kinds == {"effect": "1d4", "ranged": "1d6", "melee": "1d8"}
    out = tmp_path / "frost.yaml"
    keep.free("item", "new", "Frost Brand", "--tier", "rare", "--kind", "melee", "--out", str(out))
    out.write_text(out.read_text(encoding="utf-8").replace("dice: 2d8", "dice: 3d8").replace("cost: 2", "cost: 3"),
                   encoding="utf-8")
    (tmp_path / "house.yaml").write_text("name: house\nextends: furnace\ntables: [frost.yaml]\n", encoding="utf-8")
    code, _, err = keep.run("item", "show", "Frost Brand", "--profile", str(tmp_path / "house.yaml"))
    assert code == 2 and "its entries cost 4 dice where a rare item has 3" in err
    tiers = {row["key"]: row["data"]["dice"] for row in keep.json("table", "show", "item-tiers")["rows"]}
    assert tiers == {"common": 0, "uncommon": 1, "rare": 3, "epic": 5}


def _built(keep: Keep, tmp_path: Path, tier: str, kind: str) -> dict[str, dict[str, object]]:
    """`furnace item new` of this tier and kind, written to a file: its rows' data by key."""
    out = tmp_path / f"{tier}-{kind}.yaml"
    keep.free("--force", "item", "new", f"{tier} {kind}", "--tier", tier, "--kind", kind, "--out", str(out))
    table = yaml.safe_load(out.read_text(encoding="utf-8"))
    return {row["key"]: row["data"] for row in table["rows"]}

"""Magic items (`furnace.magic.items`): a tier's Magic Item Dice are a budget the item's entries spend.

RULES.md F-MAGIC-01 (tiers: Common 0, Uncommon 1, Rare 3, Epic 5; F-TAB-25, CF-18), F-MAGIC-02 (die kinds d4/d6/d8,
'(-)' entries free; F-TAB-26, AMB-59), F-MAGIC-03 (Shield of Shielding and Mjölnir, F-TAB-27/28), F-MAGIC-04
(curses).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from furnace.errors import DataFileError, UnknownNameError
from furnace.magic.items import all_items, get_item, tier_dice
from furnace.rules.ruleset import load_ruleset

RULES = load_ruleset()


@pytest.mark.parametrize(("tier", "dice"), [("common", 0), ("uncommon", 1), ("rare", 3), ("epic", 5),
                                            ("Epic", 5)])
def test_F_MAGIC_01_tier_dice(tier: str, dice: int) -> None:
    """F-MAGIC-01 (F-TAB-25): Common no die, Uncommon +1, Rare +3, Epic +5; four tiers (CF-18)."""
    assert tier_dice(tier, RULES) == dice


def test_F_MAGIC_01_CF_18_four_tiers() -> None:
    """CF-18: the text says three tiers, the table has four; all four are kept."""
    assert [str(r.key) for r in RULES.tables.get("item-tiers").rows] == ["common", "uncommon", "rare", "epic"]


@pytest.mark.parametrize(("kind", "die"), [("effect", "d4"), ("ranged-damage", "d6"), ("melee-damage", "d8")])
def test_F_MAGIC_02_item_die_kinds(kind: str, die: str) -> None:
    """F-MAGIC-02 (F-TAB-26): d4 an effect, duration or charge; d6 ranged damage; d8 melee damage."""
    assert RULES.tables.get("item-dice").lookup(kind).die == die


def test_F_MAGIC_03_shield_of_shielding_validates_with_1_die() -> None:
    """F-MAGIC-03 (F-TAB-27): Uncommon shield, 1 die spent on +1d4 AC; 'for 1 round' and 'once a day' are free."""
    shield = get_item(RULES, "Shield of Shielding")
    assert (shield.tier, shield.item_type, shield.budget, shield.cursed) == ("uncommon", "shield", 1, False)
    assert [(str(r.key), r.data["cost"]) for r in shield.entries] == [("ac", 1), ("duration", 0), ("uses", 0)]


def test_F_MAGIC_03_mjolnir_validates_with_5_dice() -> None:
    """F-MAGIC-03 (F-TAB-28): Epic warhammer, 5 dice = 2 (2d8 DAM) + 1 (its duration) + 1 (CHILL) + 1 (CHILL's
    duration); 'once a day' free. Found as 'Mjolnir' without the accent."""
    hammer = get_item(RULES, "Mjolnir")
    assert hammer.name == "Mjölnir" and (hammer.tier, hammer.budget) == ("epic", 5)
    assert [r.data["cost"] for r in hammer.entries] == [2, 1, 1, 1, 0]
    assert sum(r.data["cost"] for r in hammer.entries) == tier_dice("epic", RULES)
    assert "5 Magic Item Dice" in hammer.explain()
    assert get_item(RULES, "item-mjolnir").name == "Mjölnir" and get_item(RULES, "F-TAB-28").budget == 5


def test_F_MAGIC_03_all_shipped_items_load() -> None:
    assert sorted(i.name for i in all_items(RULES)) == ["Mjölnir", "Shield of Shielding"]


def test_unknown_item_names_the_known_ones() -> None:
    with pytest.raises(UnknownNameError) as err:
        get_item(RULES, "Vorpal Blade")
    assert "mjolnir" in str(err.value)


def item_file(tmp_path: Path, tier: str, costs: list[int], *, name: str = "Test Ring", budget: int | None = None,
              cursed: bool | None = None, curse_cost: int | None = None) -> Path:
    slug = name.lower().replace(" ", "-")
    head: dict[str, Any] = {"item_type": "ring", "tier": tier}
    if budget is not None:
        head["budget"] = budget
    if cursed is not None:
        head["cursed"] = cursed
    rows: list[dict[str, Any]] = [{"key": "item", "text": f"{name}: a {tier} ring", "data": head}]
    rows += [{"key": f"entry-{i}", "text": f"entry {i}", "data": {"cost": c}} for i, c in enumerate(costs)]
    if curse_cost is not None:
        rows.append({"key": "curse", "text": "The wearer's ATKs are HARD (curse)",
                     "effects": [{"kind": "modifier", "applies_to": "atk", "mode": "HARD", "target": "self"}],
                     "data": {"cost": curse_cost, "curse": True}})
    table = {"id": f"house:item-{slug}", "name": f"item-{slug}", "title": f"Magic item: {name}", "source": "test",
             "kind": "keyed", "key_name": "component", "rows": rows}
    path = tmp_path / f"{slug}.yaml"
    path.write_text(yaml.safe_dump(table, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def test_F_MAGIC_01_03_an_item_file_that_overspends_its_tier_is_refused(tmp_path: Path) -> None:
    """F-MAGIC-01/03, AMB-59: a Rare item has 3 dice; entries costing 2 + 2 = 4 are refused with the count."""
    rules = load_ruleset(table_files=[item_file(tmp_path, "rare", [2, 2])])
    with pytest.raises(DataFileError) as err:
        get_item(rules, "Test Ring")
    assert "overspends" in str(err.value) and "cost 4 dice" in str(err.value) and "has 3" in str(err.value)


def test_F_MAGIC_01_an_item_file_that_underspends_is_refused(tmp_path: Path) -> None:
    """F-MAGIC-01, AMB-59: an Epic item whose entries cost 3 of its 5 dice is refused too."""
    rules = load_ruleset(table_files=[item_file(tmp_path, "epic", [2, 1])])
    with pytest.raises(DataFileError, match="underspends: its entries cost 3 dice where a epic item has 5"):
        get_item(rules, "Test Ring")


def test_F_MAGIC_01_a_stated_budget_must_match_the_tier(tmp_path: Path) -> None:
    """F-MAGIC-01: an Uncommon item that claims 2 dice is refused (Uncommon has 1)."""
    rules = load_ruleset(table_files=[item_file(tmp_path, "uncommon", [1], budget=2)])
    with pytest.raises(DataFileError, match="uncommon item has 1 Magic Item Dice, not 2"):
        get_item(rules, "Test Ring")


def test_F_MAGIC_02_free_entries_cost_nothing(tmp_path: Path) -> None:
    """F-MAGIC-02, AMB-59: a Rare item spending 3 dice with two '(-)' entries at 0 loads."""
    rules = load_ruleset(table_files=[item_file(tmp_path, "rare", [2, 1, 0, 0])])
    ring = get_item(rules, "test-ring")
    assert (ring.tier, ring.budget, len(ring.entries)) == ("rare", 3, 4)


def test_F_MAGIC_04_a_cursed_item_carries_the_flag_and_its_curse_spends_dice(tmp_path: Path) -> None:
    """F-MAGIC-04, F-TAB-25 note: a Rare item with cursed: true on its item row; the curse entry (1 die, harms the
    user) spends dice like any other: 2 + 1 = 3."""
    rules = load_ruleset(table_files=[item_file(tmp_path, "rare", [2], cursed=True, curse_cost=1)])
    ring = get_item(rules, "Test Ring")
    assert ring.cursed is True and ring.to_dict()["cursed"] is True
    assert "(cursed)" in ring.explain()
    curse = ring.entries[-1]
    assert curse.data["curse"] is True and curse.effect_list()[0].target == "self"   # type: ignore[attr-defined]


def test_F_MAGIC_04_a_curse_entry_over_budget_is_refused(tmp_path: Path) -> None:
    """F-MAGIC-04, F-MAGIC-01: the curse is not free: 3 + 1 on a Rare item (3 dice) overspends."""
    rules = load_ruleset(table_files=[item_file(tmp_path, "rare", [3], cursed=True, curse_cost=1)])
    with pytest.raises(DataFileError, match="cost 4 dice"):
        get_item(rules, "Test Ring")


def test_F_MAGIC_04_uncursed_by_default() -> None:
    """F-MAGIC-04: the shipped items carry no curse."""
    assert not any(i.cursed for i in all_items(RULES))


def test_item_to_dict_shape() -> None:
    data = get_item(RULES, "Mjolnir").to_dict()
    assert set(data) == {"name", "type", "tier", "budget", "cursed", "entries"}
    assert data["budget"] == 5 and data["type"] == "warhammer" and len(data["entries"]) == 5

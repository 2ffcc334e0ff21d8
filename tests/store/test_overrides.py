"""A referee's files kept in a campaign (`furnace.campaign.overrides`): tables, options, a profile, spells,
items, archetypes and monsters, validated when added, logged, and laid over the rules by
`campaign_ruleset`. On SQLite and PostgreSQL (FURNACE_TEST_POSTGRES_URL, set by `scripts/with-postgres`;
without it the PostgreSQL cases skip, and fail when CI=true)."""

from __future__ import annotations

import random
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
import yaml

from furnace.campaign import overrides, transfer
from furnace.campaign.state import CampaignError, CampaignState
from furnace.campaign.store import Store
from furnace.errors import DataFileError, UnknownNameError
from furnace.magic.items import get_item
from furnace.magic.spells import get_spell
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import stored_campaign
from tests.helpers.telling import what

TABLES = resources.files("furnace") / "data" / "tables"


@pytest.fixture
def store(store: Store) -> Store:
    """The conftest's store on each engine, with the campaign "keep" made."""
    stored_campaign(store)
    return store


def _packaged(table_id: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((TABLES / f"{table_id}.yaml").read_text(encoding="utf-8"))
    return data


def _write(folder: Path, name: str, data: Any) -> Path:
    path = folder / name
    path.write_text(data if isinstance(data, str) else yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def _house_fumbles() -> dict[str, Any]:
    """The referee's fumble table: the packaged id, twelve rows of her own."""
    data = _packaged("F-TAB-36")
    data["source"] = "the referee's house rules"
    data["rows"] = [{"min": i, "max": i, "text": f"House fumble {i}: the weapon flies {i} feet.",
                     "effects": [{"kind": "nothing"}]} for i in range(1, 13)]
    return data


def _unchanged(store: Store, before: CampaignState, version: int, count: int) -> None:
    assert store.open("keep") == before and store.version("keep") == version and store.count("keep") == count


# -- the referee's table --------------------------------------------------------------------------------
@pytest.mark.rule("F-TAB-36", "F-TAB-35")
def test_a_referee_fumble_table_changes_what_the_campaign_rolls(store: Store, tmp_path: Path) -> None:
    path = _write(tmp_path, "fumbles.yaml", _house_fumbles())
    applied = overrides.add_override(store, "keep", path)
    state = store.open("keep")
    assert list(state.overrides) == ["table:F-TAB-36"]
    kept = state.overrides["table:F-TAB-36"]
    assert kept.text == path.read_text(encoding="utf-8") and kept.source == "fumbles.yaml"
    assert "adds table:F-TAB-36 from fumbles.yaml" in what(applied.events[0])

    rules, packaged = overrides.campaign_ruleset(state), load_ruleset(state.profile)
    for armor in ("none", "light", "heavy"):
        ours = rules.tables.roll("fumble", random.Random(5), key=armor)
        theirs = packaged.tables.roll("fumble", random.Random(5), key=armor)
        assert ours.roll.total == theirs.roll.total      # the same die (the packaged F-TAB-35) and the same roll
        assert ours.row.text == f"House fumble {ours.roll.total}: the weapon flies {ours.roll.total} feet."
        assert theirs.row.text != ours.row.text
    assert rules.tables.source_of("F-TAB-36") == "campaign override table:F-TAB-36 (fumbles.yaml)"
    assert overrides.campaign_ruleset(store.open("keep")).tables.get("fumble").source == "the referee's house rules"

    removed = overrides.remove_override(store, "keep", "table:F-TAB-36")
    assert "the packaged table is in force again" in what(removed.events[0])
    assert overrides.campaign_ruleset(store.open("keep")).tables.get("fumble") == packaged.tables.get("fumble")
    assert [e.command for e in store.events("keep")][-2:] == ["override add", "override remove"]
    store.undo("keep")          # the removal is taken back: the referee's table again
    assert overrides.campaign_ruleset(store.open("keep")).tables.get("F-TAB-36").rows[0].text.startswith("House")


def _gap() -> dict[str, Any]:
    data = _house_fumbles()
    del data["rows"][4]
    return data


def _overspent_spell() -> dict[str, Any]:
    data = _packaged("F-TAB-13")
    data.update(id="house:spell-big-fireball", name="spell-big-fireball", title="Big Fireball")
    data["data"] = {**data["data"], "spell": "Big Fireball"}
    data["rows"][0]["data"] = {"components": [{"text": "3d6 fire DAM", "cost": 3}], "total_cost": 3}
    return data


def _underspent_item() -> dict[str, Any]:
    data = _packaged("F-TAB-28")
    data.update(id="house:item-small-hammer", name="item-small-hammer", title="Magic item: Small Hammer")
    data["rows"] = [r for r in data["rows"] if r["key"] in ("item", "uses")]
    return data


MALFORMED: dict[str, tuple[Any, str]] = {
    "a gap between rows": (_gap(), r"row 5: gap between 4 and 6"),
    "broken YAML": ("id: F-TAB-36\nrows: [\n", "not valid YAML"),
    "not a mapping": ("- just\n- a list\n", "one YAML mapping"),
    "an unknown option": ("death_model: hazards\nluck_of_the_irish: true\n", "unknown rule option 'luck_of_the_irish'"),
    "a bad option value": ("death_model: sudden\n", r"death_model.*'sudden' is not one of"),
    "an option naming no table": ("injury_table: F-TAB-99\n", "injury_table.*'F-TAB-99'"),
    "a monster without hit dice": ("name: Cave Bear\nhd: lots\n", "Hit Dice are a number"),
    "a monster with bad damage": ("name: Cave Bear\nhd: 4\nhp: 30\ndamage: 2d\n", "field damage"),
    "an overspending spell": (_overspent_spell(), "SL1 overspends: 3 dice where SL1 buys 1"),
    "an underspending item": (_underspent_item(), "the item underspends"),
    "a profile extending nothing known": ("name: grim\nextends: grimdark\n", "extends unknown profile 'grimdark'"),
    "a profile listing itself as a table": ("name: loop\nextends: furnace\ntables: [house-file.yaml]\n",
                                            "id: Field required"),
    "an archetype without features": ({**_packaged("F-TAB-07"), "id": "house:archetype-brute",
                                       "name": "archetype-brute",
                                       "rows": [_packaged("F-TAB-07")["rows"][0]]}, "no rows with data.part = feature"),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_a_malformed_override_is_refused_with_path_and_reason(store: Store, tmp_path: Path, case: str) -> None:
    overrides.add_override(store, "keep", _write(tmp_path, "fumbles.yaml", _house_fumbles()))
    before, version, count = store.open("keep"), store.version("keep"), store.count("keep")
    content, reason = MALFORMED[case]
    path = _write(tmp_path, "house-file.yaml", content)
    with pytest.raises(DataFileError, match=reason) as refused:
        overrides.add_override(store, "keep", path)
    assert refused.value.path == str(path) and str(refused.value).startswith(str(path))
    _unchanged(store, before, version, count)


@pytest.mark.rule("F-TAB-36")
def test_a_missing_file_or_an_unknown_kind_is_refused(store: Store, tmp_path: Path) -> None:
    before, version, count = store.open("keep"), store.version("keep"), store.count("keep")
    with pytest.raises(DataFileError, match="no such file"):
        overrides.add_override(store, "keep", tmp_path / "nothing.yaml")
    with pytest.raises(CampaignError, match="unknown override kind 'bestiary'"):
        overrides.add_override(store, "keep", _write(tmp_path, "f.yaml", _house_fumbles()), kind="bestiary")
    with pytest.raises(DataFileError, match="not a spell file"):
        overrides.add_override(store, "keep", _write(tmp_path, "f.yaml", _house_fumbles()), kind="spell")
    with pytest.raises(UnknownNameError, match="unknown override 'table:F-TAB-36'"):
        overrides.remove_override(store, "keep", "table:F-TAB-36")
    _unchanged(store, before, version, count)


# -- options and profiles ---------------------------------------------------------------------------------
def test_option_files_set_options_and_may_not_clash(store: Store, tmp_path: Path) -> None:
    assert overrides.campaign_ruleset(store.open("keep"))["death_model"] == "furnace"
    overrides.add_override(store, "keep", _write(tmp_path, "house-rules.yaml", "death_model: hazards\n"))
    state = store.open("keep")
    rules = overrides.campaign_ruleset(state)
    assert rules["death_model"] == "hazards"
    assert rules.option("death_model").source == "campaign override option:house-rules (house-rules.yaml)"
    assert [f"{o.kind}:{o.id}" for o in overrides.list_overrides(state)] == ["option:house-rules"]
    with pytest.raises(DataFileError, match="option death_model is set by option:house-rules already"):
        overrides.add_override(store, "keep", _write(tmp_path, "more.yaml", "death_model: middle-sea\n"))
    # the same file again replaces itself
    overrides.add_override(store, "keep", _write(tmp_path, "house-rules.yaml", "death_model: middle-sea\n"))
    assert overrides.campaign_ruleset(store.open("keep"))["death_model"] == "middle-sea"
    assert len(store.open("keep").overrides) == 1


@pytest.mark.rule("F-TAB-38")
def test_a_table_an_option_needs_cannot_be_removed(store: Store, tmp_path: Path) -> None:
    lingering = _packaged("F-TAB-38")
    lingering.update(id="house:dmg-injuries", name="dmg-injuries", title="The referee's lingering injuries",
                     aliases=[])
    overrides.add_override(store, "keep", _write(tmp_path, "injuries.yaml", lingering))
    options = _write(tmp_path, "options.yaml", "lingering_injury_table: house:dmg-injuries\n")
    overrides.add_override(store, "keep", options)
    rules = overrides.campaign_ruleset(store.open("keep"))
    assert rules.tables.get(rules["lingering_injury_table"]).title == "The referee's lingering injuries"
    before, version, count = store.open("keep"), store.version("keep"), store.count("keep")
    with pytest.raises(CampaignError, match=r"cannot remove table:house:dmg-injuries from 'keep': the campaign "
                                            r"needs it.*lingering_injury_table"):
        overrides.remove_override(store, "keep", "table:house:dmg-injuries")
    _unchanged(store, before, version, count)
    overrides.remove_override(store, "keep", "option:options")
    overrides.remove_override(store, "keep", "table:house:dmg-injuries")
    assert store.open("keep").overrides == {}


@pytest.mark.rule("F-TAB-36")
def test_a_profile_file_brings_its_options_and_tables(store: Store, tmp_path: Path) -> None:
    (tmp_path / "tables").mkdir()
    _write(tmp_path / "tables", "fumbles.yaml", _house_fumbles())
    path = _write(tmp_path, "grim.yaml", {"name": "grim", "title": "Grim and perilous", "extends": "hazards",
                                          "options": {"enemy_morale": True}, "tables": ["tables/fumbles.yaml"]})
    applied = overrides.add_override(store, "keep", path)
    assert [e.data["key"] for e in applied.events] == ["profile:grim", "table:F-TAB-36"]
    rules = overrides.campaign_ruleset(store.open("keep"))
    assert rules.profile == "grim" and rules["enemy_morale"] is True
    assert rules.option("enemy_morale").source == "profile grim"
    assert rules["death_model"] == "hazards" and rules.option("death_model").source == "profile hazards"
    assert rules.tables.get("fumble").rows[0].text.startswith("House fumble")
    # a second profile takes the first one's place
    overrides.add_override(store, "keep", _write(tmp_path, "soft.yaml", "name: soft\nextends: furnace\n"))
    state = store.open("keep")
    assert sorted(state.overrides) == ["profile:soft", "table:F-TAB-36"]
    assert overrides.campaign_ruleset(state).profile == "soft"


def test_without_overrides_the_ruleset_is_the_profile_with_the_campaigns_options() -> None:
    state = CampaignState(name="x", profile="hazards", options={"enemy_morale": True, "death_model": "furnace"})
    rules = overrides.campaign_ruleset(state)
    assert rules.profile == "hazards" and rules["death_model"] == "furnace" and rules["enemy_morale"] is True
    # the same values as the profile with those options; each set one says it was set in the campaign
    assert rules.to_dict() == load_ruleset("hazards").with_options(state.options, overrides.SET_SOURCE).to_dict()


# -- spells, items, archetypes, monsters ----------------------------------------------------------------
@pytest.mark.rule("F-TAB-13", "F-TAB-28", "F-TAB-07")
def test_spells_items_archetypes_and_monsters_are_kept_by_kind(store: Store, tmp_path: Path) -> None:
    spell = _packaged("F-TAB-13")
    spell.update(id="house:spell-frost-lance", name="spell-frost-lance", title="Frost Lance")
    spell["data"] = {**spell["data"], "spell": "Frost Lance"}
    item = _packaged("F-TAB-28")
    item.update(id="house:item-frost-hammer", name="item-frost-hammer", title="Magic item: Frost Hammer")
    archetype = _packaged("F-TAB-07")
    archetype.update(id="house:archetype-brute", name="archetype-brute", title="Archetype: Brute (Fighter)")
    for name, data in (("lance.yaml", spell), ("hammer.yaml", item), ("brute.yaml", archetype),
                       ("bear.yaml", "name: Cave Bear\nhd: 5\nhp: 5d8\ndamage: 2d6\nweapon: claws\n")):
        overrides.add_override(store, "keep", _write(tmp_path, name, data))
    state = store.open("keep")
    assert [f"{o.kind}:{o.id}" for o in overrides.list_overrides(state)] == [
        "archetype:house:archetype-brute", "spell:house:spell-frost-lance", "item:house:item-frost-hammer",
        "monster:cave-bear"]
    rules = overrides.campaign_ruleset(state)
    assert get_spell(rules, "Frost Lance").kind == "ranged"
    assert get_item(rules, "Frost Hammer").tier == get_item(rules, "Mjolnir").tier
    assert rules.tables.get("archetype-brute").title == "Archetype: Brute (Fighter)"
    assert "cave-bear" not in {t.name for t in rules.tables}      # monsters wait for the bestiary


# -- overrides travel with the campaign -----------------------------------------------------------------
@pytest.mark.rule("F-TAB-36")
def test_overrides_travel_in_an_export(store: Store, tmp_path: Path) -> None:
    overrides.add_override(store, "keep", _write(tmp_path, "fumbles.yaml", _house_fumbles()))
    overrides.add_override(store, "keep", _write(tmp_path, "house.yaml", "enemy_morale: true\n"))
    other = Store(f"sqlite:///{tmp_path / 'other.db'}")
    try:
        transfer.import_campaign(other, transfer.export_campaign(store, "keep"))
        theirs, ours = overrides.campaign_ruleset(other.open("keep")), overrides.campaign_ruleset(store.open("keep"))
        assert theirs.to_dict() == ours.to_dict() and theirs["enemy_morale"] is True
        assert theirs.tables.get("F-TAB-36") == ours.tables.get("F-TAB-36")
    finally:
        other.close()

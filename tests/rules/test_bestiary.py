"""The bestiary: every packaged monster validates and fights; a referee's files override by id or add; bad
files are refused with path, entry and reason; `parse_monsters` reads a command line's list; the doc is current."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import yaml

from furnace.errors import DataFileError, FurnaceError, UnknownNameError
from furnace.play.combatant import monster, monster_hd
from furnace.rules.bestiary import (
    FEATURES,
    Bestiary,
    Monster,
    MonsterFileError,
    UnknownMonsterError,
    default_hp,
    hd_value,
    markdown_list,
    parse_monsters,
)
from furnace.rules.tables import TableSet

ROOT = Path(__file__).resolve().parents[2]
PACKAGED = Bestiary.packaged()
BEGIN, END = "<!-- monster list: begin -->\n", "<!-- monster list: end -->"


def write(tmp_path: Path, entries: Any, name: str = "house.yaml") -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump({"monsters": entries} if isinstance(entries, list) else entries), encoding="utf-8")
    return path


def entry(**fields: Any) -> dict[str, Any]:
    return {"id": "bone-hound", "name": "Bone hound", "hd": 2, "damage": "1d8", **fields}


# -- the packaged monsters ---------------------------------------------------------------------------------

def test_a_few_dozen_monsters_cover_what_a_campaign_meets() -> None:
    assert 36 <= len(PACKAGED) <= 40
    wanted = ["giant rat", "wolf", "boar", "bear", "giant spider", "giant bat", "blood bat", "goblin", "kobold",
              "orc", "hobgoblin", "bugbear", "gnoll", "lizardfolk", "bandit", "bandit captain", "cultist", "guard",
              "knight", "berserker", "skeleton", "zombie", "ghoul", "wight", "wraith", "ogre", "troll", "minotaur",
              "owlbear", "wyvern", "hill giant", "young dragon", "creeping ooze"]
    for name in wanted:
        assert PACKAGED.get(name)
    tags = {t for m in PACKAGED.values() for t in m.tags}
    assert {"beast", "vermin", "humanoid", "undead", "giant", "dragon", "ooze"} <= tags


@pytest.mark.parametrize("monster_id", sorted(PACKAGED))
def test_every_packaged_monster_validates_and_fights(monster_id: str) -> None:
    m = PACKAGED[monster_id]
    assert Monster.model_validate(m.model_dump()) == m          # round-trips through its own validation
    assert m.description and m.xp > 0 and m.tags
    room_dc = m.room_dc
    c = monster(m.spec(), "monsters", room_dc, random.Random(7), id=m.id)
    assert c.name == m.name and c.kind == "monster"
    assert c.hd == pytest.approx(m.hd_value) == pytest.approx(monster_hd(m.hd))
    assert c.ac == (room_dc if m.ac is None else m.ac)
    assert c.attack_bonus == (room_dc - 10 if m.attack_bonus is None else m.attack_bonus)
    assert set(c.saves.values()) == {room_dc - 10 if m.save_bonus is None else m.save_bonus}
    assert c.morale == m.morale and c.damage == m.damage and c.weapon == m.weapon
    assert c.armor_type == m.armor and c.zone == m.zone and c.features == m.features
    assert 1 <= c.hp == c.hp_max
    assert set(m.features) <= set(FEATURES)


@pytest.mark.parametrize("room_dc", [10, 14, 18])
def test_numbers_follow_the_fights_room_dc(room_dc: int) -> None:
    """D-2: the same goblin is AC 10 in a cellar of ROOM DC 10 and AC 18 in a ROOM DC 18 hall."""
    c = monster(PACKAGED.get("goblin").spec(), "monsters", room_dc, random.Random(1), id="goblin")
    assert (c.ac, c.attack_bonus) == (room_dc, room_dc - 10)
    zombie = monster(PACKAGED.get("zombie").spec(), "monsters", room_dc, random.Random(1), id="zombie")
    assert zombie.ac == 8


def test_armor_keys_name_armor_of_the_right_type() -> None:
    armor = TableSet.packaged().get("armor")
    for m in PACKAGED.values():
        if m.armor_key is not None:
            assert armor.lookup(m.armor_key).data["type"] == m.armor, m.id


def test_monsters_under_one_hit_die_exist_for_the_mook_rule() -> None:
    """M-MOOK-02: the Middle Sea fighters' extra attacks need targets under 1 HD; "1-1" and "1/2" are such."""
    mooks = {m.id: m.hd for m in PACKAGED.values() if m.under_one_hd}
    assert {"goblin", "kobold", "giant-rat"} <= set(mooks)
    assert mooks["goblin"] == "1-1" and mooks["kobold"] == mooks["giant-rat"] == "1/2"
    for monster_id in ("goblin", "kobold", "giant-rat"):
        c = monster(PACKAGED[monster_id].spec(), "monsters", 10, random.Random(2), id=monster_id)
        assert c.hd < 1 and c.level == 1
    assert not PACKAGED.get("orc").under_one_hd


@pytest.mark.parametrize(("written", "value", "hp"), [
    (3, 3.0, "3d8"), ("3", 3.0, "3d8"), ("1-1", 0.9, "1d8-1"), ("2-2", 1.9, "2d8-2"), ("1/2", 0.5, "1d4"),
    (0.5, 0.5, "1d4"), ("1/4", 0.25, "1d2"), (2.5, 2.5, "2d8+1d4"), (30, 30.0, "30d8"),
])
def test_hit_dice_are_read_as_the_fight_reads_them(written: Any, value: float, hp: str) -> None:
    assert hd_value(written) == pytest.approx(value) == pytest.approx(monster_hd(written))
    assert default_hp(written) == hp
    assert Monster(id="x", name="X", hd=written).hp == hp


@pytest.mark.parametrize("bad", [-1, "-1", 0, "0", "1/0", "0-1", "1-0", "31", 31, "d8", "1+1", True, None, "nan",
                                 float("inf")])
def test_hit_dice_out_of_range_or_form_are_refused(bad: Any) -> None:
    with pytest.raises(FurnaceError, match="Hit Dice"):
        hd_value(bad)


# -- lookups -----------------------------------------------------------------------------------------------

def test_get_by_name_or_id_any_case() -> None:
    rat = PACKAGED["giant-rat"]
    for key in ("giant-rat", "Giant rat", "GIANT RAT", " giant_rat "):
        assert PACKAGED.get(key) is rat
    assert PACKAGED.get("Wild Boar") is PACKAGED.get("boar")
    assert "giant-rat" in PACKAGED and "Giant rat" not in PACKAGED    # the mapping is by id
    assert PACKAGED.get("nothing-like-it", None) is None


def test_unknown_name_lists_close_names() -> None:
    with pytest.raises(UnknownMonsterError, match="did you mean Goblin") as info:
        PACKAGED.get("gobiln")
    assert isinstance(info.value, UnknownNameError) and info.value.kind == "monster"
    with pytest.raises(UnknownNameError, match="Bandit, Bandit archer, Bandit captain"):
        PACKAGED.get("bandi")
    with pytest.raises(UnknownNameError, match="holds 38 monsters"):
        PACKAGED.get("qqqqqq")


def test_the_bestiary_is_immutable() -> None:
    with pytest.raises(TypeError):
        PACKAGED["goblin"] = PACKAGED["orc"]  # type: ignore[index]
    with pytest.raises(Exception, match="frozen"):
        PACKAGED["goblin"].hd = "3"  # type: ignore[misc]
    assert Bestiary.packaged() is PACKAGED


# -- a referee's files -------------------------------------------------------------------------------------

def test_a_referees_file_overrides_by_id_and_adds_new_ids(tmp_path: Path) -> None:
    goblin = {"id": "goblin", "name": "Goblin", "hd": 1, "damage": "1d6", "weapon": "hooked spear",
              "weapon_class": "pole", "morale": 8, "room_dc": 11, "xp": 10}
    path = write(tmp_path, [goblin, entry(features=["sneak attack"], zone="close", hp="2d8+2")])
    book = PACKAGED.load_files([path])
    assert len(book) == len(PACKAGED) + 1
    assert book.get("goblin").weapon == "hooked spear" and book.get("goblin").hd == "1"
    assert book.source_of("goblin") == str(path) and book.source_of("orc") == "packaged"
    hound = book.get("Bone hound")
    assert hound.features == ("Sneak Attack",) and hound.zone == "CLOSE" and hound.hp == "2d8+2"
    assert PACKAGED.get("goblin").hd == "1-1" and "bone-hound" not in PACKAGED     # the packaged one unchanged
    parsed = parse_monsters("bone hound x3, goblin", book)
    assert [(m.id, n) for m, n in parsed] == [("bone-hound", 3), ("goblin", 1)]


def test_a_bare_list_is_a_monster_file_too(tmp_path: Path) -> None:
    path = tmp_path / "list.yaml"
    path.write_text(yaml.safe_dump([entry()]), encoding="utf-8")
    assert PACKAGED.load_files([path]).get("bone-hound").hp == "2d8"


def _refusal(tmp_path: Path, entries: Any) -> MonsterFileError:
    path = write(tmp_path, entries)
    with pytest.raises(MonsterFileError) as info:
        PACKAGED.load_files([path])
    assert info.value.path == str(path) and str(info.value).startswith(str(path))
    return info.value


def test_a_wrong_field_is_refused_listing_the_fields(tmp_path: Path) -> None:
    err = _refusal(tmp_path, [entry(), entry(id="ghast", name="Ghast", speed=30)])
    assert err.entry == 2 and "monster 2 (ghast)" in str(err)
    assert "'speed' is not a monster field" in err.reason
    assert "the fields are id, name, hd, hp, ac, attack_bonus, save_bonus, damage" in err.reason


def test_too_many_dice_are_refused(tmp_path: Path) -> None:
    err = _refusal(tmp_path, [entry(damage="1001d6")])
    assert "monster 1 (bone-hound)" in str(err) and "field damage" in err.reason and "1000 dice" in err.reason


def test_negative_hit_dice_are_refused(tmp_path: Path) -> None:
    err = _refusal(tmp_path, [entry(hd=-2)])
    assert "field hd" in err.reason and "Hit Dice are above 0" in err.reason


@pytest.mark.parametrize(("fields", "reason"), [
    ({"hp": "d20+STR"}, "no variables"),
    ({"hp": "1000d20"}, "the most is 10,000"),
    ({"damage": "1d4-5"}, "never reach 1"),
    ({"ac": 41}, "field ac"),
    ({"morale": 13}, "field morale"),
    ({"armor": "plate"}, "field armor"),
    ({"zone": "behind"}, "the zones are CLOSE, NEAR, RANGED, FAR"),
    ({"features": ["Regenerate"]}, "the features the engine applies to a monster are Cleave, Sneak Attack"),
    ({"features": ["Cleave", "cleave"]}, "listed twice"),
    ({"weapon_class": "laser"}, "field weapon_class"),
    ({"id": "Bone Hound"}, "not a slug"),
    ({"tags": ["Undead!"]}, "not a slug"),
    ({"name": "two\nlines"}, "printable"),
    ({"xp": -5}, "field xp"),
    ({"hd": "1d8"}, "Hit Dice are a number"),
])
def test_out_of_range_fields_are_refused(tmp_path: Path, fields: dict[str, Any], reason: str) -> None:
    assert reason in _refusal(tmp_path, [entry(**fields)]).reason


def test_a_missing_field_and_a_bad_shape_are_refused(tmp_path: Path) -> None:
    assert "field hd" in _refusal(tmp_path, [{"id": "x", "name": "X"}]).reason
    assert "not list" in _refusal(tmp_path, [["id", "x"]]).reason
    assert "`monsters:`" in _refusal(tmp_path, {"monster": []}).reason
    assert "`monsters:`" in _refusal(tmp_path, {"monsters": []}).reason
    assert "twice in this file" in _refusal(tmp_path, [entry(), entry()]).reason


def test_names_must_stay_unambiguous(tmp_path: Path) -> None:
    path = write(tmp_path, [entry(name="Goblin")])
    with pytest.raises(DataFileError, match="rename one") as info:
        PACKAGED.load_files([path])
    assert info.value.path == str(path)


def test_an_id_in_two_files_loaded_together_is_refused(tmp_path: Path) -> None:
    a, b = write(tmp_path, [entry()], "a.yaml"), write(tmp_path, [entry(hd=3)], "b.yaml")
    with pytest.raises(MonsterFileError, match="also in"):
        PACKAGED.load_files([a, b])


def test_broken_yaml_and_missing_files_are_refused(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("monsters: [\n  {id: x", encoding="utf-8")
    with pytest.raises(DataFileError, match=r"broken\.yaml"):
        PACKAGED.load_files([broken])
    with pytest.raises(DataFileError, match=r"nope\.yaml"):
        PACKAGED.load_files([tmp_path / "nope.yaml"])
    with pytest.raises(FurnaceError, match="list of monster files"):
        PACKAGED.load_files(str(broken))


# -- a command line's monster list -------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "expected"), [
    ("goblin x4, ogre", [("goblin", 4), ("ogre", 1)]),
    ("goblin x6", [("goblin", 6)]),
    ("Giant Rat x 2", [("giant-rat", 2)]),
    ("giant-rat ×3,kobold", [("giant-rat", 3), ("kobold", 1)]),
    ("wolf x2, dire wolf, wolf x3", [("wolf", 5), ("dire-wolf", 1)]),
    ("goblin x100", [("goblin", 100)]),
])
def test_parse_monsters_forms(text: str, expected: list[tuple[str, int]]) -> None:
    assert [(m.id, n) for m, n in parse_monsters(text)] == expected


@pytest.mark.parametrize("text", ["", "goblin,, ogre", "goblin x-1", "4 goblins", "goblin 4", "goblin x4 ogre x2",
                                  "goblin; ogre", ",", "goblin x"])
def test_parse_monsters_refuses_bad_syntax_showing_the_form(text: str) -> None:
    with pytest.raises(FurnaceError, match='write it like "goblin x4, ogre"') as info:
        parse_monsters(text)
    assert not isinstance(info.value, UnknownNameError)


@pytest.mark.parametrize("text", ["goblin x0", "goblin x101", "goblin x60, goblin x41"])
def test_parse_monsters_counts_are_1_to_100(text: str) -> None:
    with pytest.raises(FurnaceError, match=r"1 to 100|at most 100"):
        parse_monsters(text)


def test_parse_monsters_names_the_closest_monsters() -> None:
    with pytest.raises(UnknownNameError, match="did you mean Goblin"):
        parse_monsters("goblim x4")
    with pytest.raises(FurnaceError, match="at most 1,000 characters"):
        parse_monsters("goblin, " * 200)


# -- the docs ----------------------------------------------------------------------------------------------

def test_docs_list_the_packaged_monsters_as_they_are() -> None:
    doc = (ROOT / "docs" / "monsters.md").read_text(encoding="utf-8")
    listed = doc.split(BEGIN, 1)[1].split(END, 1)[0]
    assert listed == markdown_list(), (
        "docs/monsters.md is out of date: put the output of `.venv/bin/python -c \"from furnace.rules.bestiary "
        "import markdown_list; print(markdown_list(), end='')\"` between its monster-list markers")


def test_the_docs_list_every_field_of_a_monster() -> None:
    doc = (ROOT / "docs" / "monsters.md").read_text(encoding="utf-8")
    for field in Monster.model_fields:
        assert f"| `{field}` |" in doc, field

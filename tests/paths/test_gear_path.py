"""Gear on the user's path: the starting kits, armor and AC, the stealth penalty, weapon damage by category and
handling, the two-handed STR bonus, weapon tags and cursed magic items, through `furnace character promote
--kit`, `character show`, `fight`, `item new`, `campaign override add` and a roll from the sheet
(`campaign.table.sheet_roll`, the console's button, through `Store.apply`)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from furnace.campaign import table
from furnace.campaign.state import CampaignError
from furnace.campaign.store import Store, StoredEvent
from furnace.cli.app import main
from tests.helpers.factories import EXAMPLES, dice

CLERIC = ["--class", "Cleric", "--archetype", "Bloodshaman", "--skill", "Religion", "--save", "CON",
          "--spell", "Chill Touch", "--spell", "Flame Shield"]
ROGUE = ["--class", "Rogue", "--archetype", "Arcane Trickster", "--skill", "Stealth", "--skill", "Acrobatics",
         "--skill", "Sleight of Hand", "--expertise", "Perception", "--expertise", "Athletics", "--save", "INT"]
MAGE = ["--class", "Magic-user", "--archetype", "Wizard", "--skill", "Investigation", "--skill", "Medicine",
        "--save", "WIS", "--spell", "Fireball", "--spell", "Chill Touch", "--spell", "Ember Swarm",
        "--cantrip", "Spark", "--cantrip", "Mending"]
FIGHTER = ["--class", "Fighter", "--archetype", "Barbarian", "--skill", "Athletics", "--save", "CON",
           "--style", "Dueling"]
GEAR = ["rations", "rope", "torches", "bedroll"]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def ok(capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    code, out, err = run(capsys, *args, "--json")
    assert code == 0, err
    return json.loads(out)


def survivor(where: Path, stem: str, **changes: Any) -> str:
    """A copy of an example character in `where`, with these fields changed (as the referee edits the file)."""
    path = where / f"{stem}.json"
    shutil.copy(EXAMPLES / "characters" / f"{stem}.json", path)
    if changes:
        path.write_text(json.dumps({**json.loads(path.read_text(encoding="utf-8")), **changes}), encoding="utf-8")
    return str(path)


def first_of_each(char_class: str, kit: tuple[str, ...]) -> tuple[str, ...]:
    """The kit named, and the first alternative of each pick it does not name (the kit is asked: F-TAB-40)."""
    from furnace.rules.ruleset import load_ruleset

    picks = load_ruleset().tables.get("starting-equipment").lookup(char_class.lower()).data["choices"]
    return (*kit, *(str(options[0]) for options in picks if len(options) > 1 and not set(kit) & set(options)))


def promote(capsys: pytest.CaptureFixture[str], file: str, choices: list[str], *kit: str,
            write: bool = False) -> dict[str, Any]:
    """Promoted with a 5 on the hit die and these kit alternatives (the first of each pick not named)."""
    kit = first_of_each(choices[1], kit)
    args = [*choices, *(a for k in kit for a in ("--kit", k)), "--faces", "5", "--write" if write else "--no-write"]
    return dict(ok(capsys, "character", "promote", file, *args)["character"])


def arms(c: dict[str, Any]) -> list[tuple[str, str, str, str, list[str]]]:
    return [(w["name"], w["category"], w["kind"], w["damage"], w["tags"]) for w in c["weapons"]]


@pytest.mark.rule("F-CLR-09", "F-ROG-05", "F-MU-07", "F-EQ-04")
def test_F_CLR_09_ROG_05_MU_07_EQ_04_the_starting_kits_and_their_weapons_damage(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The example kits (F-TAB-40), the first alternative of each pick unless the player names another, each
    weapon's damage by category and handling (F-EQ-04: simple one-handed 1d6, two-handed 1d8, ranged 1d6;
    martial one-handed 1d8, two-handed 1d10, ranged 1d8; the tiny dagger 1d4, F-EQ-06).
    F-CLR-09: a mace and a shield or a two-handed mace; a simple ranged or simple melee weapon; leather or
    scalemail; gear. F-ROG-05: a martial one-handed or ranged weapon; a simple ranged or one-handed one; a
    dagger; leather; tools; gear. F-MU-07: a simple melee weapon, a sling, a spellbook, gear."""
    corra = survivor(tmp_path, "corra")
    c = promote(capsys, corra, CLERIC)
    assert arms(c) == [("mace", "simple", "one-handed", "1d6", []), ("sling", "simple", "ranged", "1d6", ["Low-range"])]
    assert c["shield"] and c["armor"] == "boiled-leather" and c["items"][1:] == [*GEAR, "holy symbol"]
    b = promote(capsys, corra, CLERIC, "two-handed mace", "any simple melee weapon", "scalemail")
    assert arms(b) == [("maul", "simple", "two-handed", "1d8", []),
                       ("spear", "simple", "one-handed", "1d6", ["Thrown"])]
    assert not b["shield"] and b["armor"] == "scale-mail"
    code, _, err = run(capsys, "character", "promote", corra, *CLERIC, "--kit", "longsword", "--faces", "5")  # not one
    assert code == 2 and "not in the Cleric kit" in err and "two-handed mace" in err
    edda = survivor(tmp_path, "edda")
    r = promote(capsys, edda, ROGUE)
    assert arms(r) == [("arming sword", "martial", "one-handed", "1d8", []),
                       ("hunting bow", "simple", "ranged", "1d6", []),
                       ("dagger", "simple", "one-handed", "1d4", ["tiny", "Thrown"])]
    assert r["armor"] == "boiled-leather" and not r["shield"]
    assert r["items"][1:] == ["thieves' tools", "climbing gear", *GEAR]
    b = promote(capsys, edda, ROGUE, "martial ranged weapon", "simple one-handed weapon")
    assert arms(b)[:2] == [("crossbow", "martial", "ranged", "1d8", []), ("club", "simple", "one-handed", "1d6", [])]
    m = promote(capsys, survivor(tmp_path, "dunstan"), MAGE)
    assert arms(m) == [("quarterstaff", "simple", "two-handed", "1d8", []),
                       ("sling", "simple", "ranged", "1d6", ["Low-range"])]
    assert m["armor"] is None and not m["shield"] and m["items"][1:] == ["spellbook", *GEAR]
    f = promote(capsys, survivor(tmp_path, "gisla"), FIGHTER, "martial two-handed weapon")
    assert arms(f)[0] == ("longsword", "martial", "two-handed", "1d10", [])


def ac_of(capsys: pytest.CaptureFixture[str], file: str) -> int:
    code, out, _ = run(capsys, "character", "show", file, "--markdown")
    assert code == 0
    return int(next(line for line in out.splitlines() if line.startswith("- **AC:**")).split()[-1])


@pytest.mark.rule("F-EQ-01")
def test_F_EQ_01_light_armor_adds_DEX_heavy_armor_does_not_a_shield_adds_2(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """F-EQ-01: AC is the armor's value (F-TAB-21); light armor adds DEX, heavy adds nothing, a shield +2;
    unarmored 10 + DEX (AMB-37). Corra (DEX 10: +0) in boiled leather (11) with a shield: 13; in scale mail
    (14): 14. Gisla (DEX 7: −1) in scale mail: 14 (16 with a shield), in boiled leather 11 − 1 = 10. Edda (DEX
    18: +3) in boiled
    leather: 14. Dunstan (DEX 13: +1) unarmored: 11."""
    cases = [("corra", CLERIC, (), 13), ("corra", CLERIC, ("two-handed mace", "scalemail"), 14),
             ("gisla", FIGHTER, ("martial two-handed weapon", "scalemail"), 14), ("gisla", FIGHTER, ("scalemail",), 16),
             ("gisla", FIGHTER, ("martial two-handed weapon",), 10), ("edda", ROGUE, (), 14),
             ("dunstan", MAGE, (), 11)]
    for n, (stem, choices, kit, ac) in enumerate(cases):
        where = tmp_path / str(n)
        where.mkdir()
        file = survivor(where, stem)
        promote(capsys, file, choices, *kit, write=True)
        assert ac_of(capsys, file) == ac, (stem, kit)


def sheet(db: str, who: str, kind: str, face: int, **what: Any) -> StoredEvent:
    store = Store(f"sqlite:///{db}")
    try:
        applied = store.apply("keep", f"roll {kind}", table.sheet_roll(who, kind, dice(face), **what))
        return next(e for e in applied.events if e.kind == "sheet_roll")      # (a Luck Die earned may follow it)
    finally:
        store.close()


def roster(capsys: pytest.CaptureFixture[str], tmp_path: Path, *files: str) -> str:
    db = str(tmp_path / "keep.db")
    assert run(capsys, "--db", db, "campaign", "new", "keep")[0] == 0
    assert run(capsys, "--db", db, "--campaign", "keep", "campaign", "join", *files)[0] == 0
    return db


@pytest.mark.rule("F-EQ-02")
def test_F_EQ_02_stealth_is_HARD_in_scale_mail_not_in_boiled_leather(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """F-EQ-02: Stealth CHECKs are HARD in lamellar, breastplate/scale mail, branded/chain mail and plate.
    Ilse (DEX 7: −1, not proficient in Stealth) rolls 10 against ROOM DC 12: 9 against 12 in boiled leather,
    against 15 in scale mail; a DEX SAVE is not touched."""
    leather = survivor(tmp_path, "ilse")
    scale = survivor(tmp_path, "brakka", armor="scale-mail", name="Scaled Brakka")
    db = roster(capsys, tmp_path, leather, scale)
    plain = sheet(db, "Sister Ilse", "check", 10, skill="Stealth")
    assert plain.data["total"] == 9 and plain.data["dc"] == 12 and plain.data["hard"] == []
    heavy = sheet(db, "Scaled Brakka", "check", 10, skill="Stealth")
    assert heavy.data["dc"] == 15 and heavy.data["hard"] == ["scale-mail (stealth penalty, F-EQ-02)"]
    assert sheet(db, "Scaled Brakka", "save", 10, ability="DEX").data["dc"] == 12


def dealt(events: list[dict[str, Any]]) -> dict[str, set[str]]:
    """Each attacker's damage expressions (the weapon's dice and modifier, before Rage) in a fight's facts."""
    out: dict[str, set[str]] = {}
    for e in events:
        if e["kind"] == "damage_roll" and not e["actor"].startswith("post"):
            out.setdefault(e["actor"], set()).add(e["data"]["damage"])
    return out


@pytest.mark.rule("F-EQ-05", "F-EQ-04")
def test_F_EQ_05_06_two_handed_blows_add_one_and_a_half_STR_and_the_tiny_dagger_uses_DEX(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """F-EQ-05 (F-TAB-23): a two-handed blow adds ceil(1.5 × STR): STR +2 → +3 (Gisla's longsword 1d10+3, Ilse's
    maul 1d8+3), STR +3 → +5 (a Brakka of STR 18: 1d10+5). F-EQ-04: a one-handed blow adds STR (Wren's arming
    sword, STR 9: 1d8). The tags of F-EQ-06 that the engine applies: the tiny dagger deals 1d4 and may use DEX
    for its ATK: Edda (STR 7: −1, DEX 18: +3, PROF 1) hits with d20 + 4 and deals 1d4−1; a Recoil bow adds STR
    instead of DEX if higher: Brakka (STR 18: +3, DEX 12: +0) deals 1d8+3 with one from RANGED. (F-EQ-06 is
    not marked: Thrown and Low-range change no range, tests/paths/defects_play.py.)"""
    gisla = survivor(tmp_path, "gisla")
    promote(capsys, gisla, FIGHTER, "martial two-handed weapon", write=True)
    edda = survivor(tmp_path, "edda")
    r = promote(capsys, edda, ROGUE, write=True)
    Path(edda).write_text(json.dumps({**r, "weapons": r["weapons"][2:]}), encoding="utf-8")   # the dagger in hand
    survivor(tmp_path, "ilse", weapons=[{"name": "maul", "category": "simple", "kind": "two-handed",
                                         "damage": "1d8"}], spells=[])      # she swings, prays nothing
    survivor(tmp_path, "brakka", scores={"STR": 18, "DEX": 12, "CON": 12, "INT": 13, "WIS": 13, "CHA": 8},
             weapons=[{"name": "longsword", "category": "martial", "kind": "two-handed", "damage": "1d10"}])
    survivor(tmp_path, "maelis", name="Archer", char_class="Fighter", archetype="Barbarian",
             scores={"STR": 18, "DEX": 12, "CON": 12, "INT": 13, "WIS": 13, "CHA": 8},
             weapons=[{"name": "recurve bow", "category": "martial", "kind": "ranged", "damage": "1d8",
                       "tags": ["Recoil"]}], spells=[], archetype_features=[])
    survivor(tmp_path, "wren")
    fight = tmp_path / "posts.yaml"
    fight.write_text(yaml.safe_dump({
        "name": "practice posts", "room_dc": 12,
        "party": [{"file": f"{s}.json", "zone": "CLOSE"} for s in ("gisla", "edda", "ilse", "brakka", "wren")]
        + [{"file": "maelis.json", "zone": "RANGED"}],
        "monsters": [{"name": "Post", "count": 6, "hp": 500, "ac": 2, "damage": "1", "zone": "CLOSE"}]}),
        encoding="utf-8")
    out = ok(capsys, "fight", str(fight), "--seed", "3", "--rounds", "3")
    assert dealt(out["events"]) == {"Gisla": {"1d10+3"}, "Edda": {"1d4-1"}, "Sister Ilse": {"1d8+3"},
                                    "Brakka": {"1d10+5"}, "Archer": {"1d8+3"}, "Wren": {"1d8"}}
    (tmp_path / "keep").mkdir()
    db = roster(capsys, tmp_path / "keep", edda)
    attack = sheet(db, "Edda", "attack", 10)
    assert attack.data["weapon"] == "dagger" and attack.data["total"] == 10 + 3 + 1


@pytest.mark.rule("F-EQ-07")
def test_F_EQ_07_a_referee_imports_another_systems_weapon_list_into_the_campaign(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """F-EQ-07 (EXT-08): the rules give no price list, so the equipment catalogue must be importable. A referee's
    weapons table (F-TAB-22 from another system: simple one-handed 1d4, with a price) replaces the packaged one
    in her campaign: Corra's starting mace is then 1d4, the sling still 1d6; another campaign keeps 1d6."""
    packaged = Path(__file__).resolve().parents[2] / "src/furnace/data/tables/F-TAB-22.yaml"
    weapons = yaml.safe_load(packaged.read_text(encoding="utf-8"))
    for row in weapons["rows"]:
        if row["key"] == "simple-one-handed":
            row["data"].update(damage="1d4", price="5 gp")
            row["text"] = "Simple one-handed: 1d4 DAM, 5 gp."
    mine = tmp_path / "osr-weapons.yaml"
    mine.write_text(yaml.safe_dump(weapons, sort_keys=False), encoding="utf-8")
    corra = survivor(tmp_path, "corra")
    db = roster(capsys, tmp_path, corra)
    keep = ["--db", db, "--campaign", "keep"]
    assert ok(capsys, *keep, "campaign", "override", "add", str(mine), "--kind", "table")
    kit = [a for k in first_of_each("Cleric", ()) for a in ("--kit", k)]
    after = ok(capsys, *keep, "character", "promote", "Corra", *CLERIC, *kit, "--faces", "5")["member"]["character"]
    assert arms(after) == [("mace", "simple", "one-handed", "1d4", []), ("sling", "simple", "ranged", "1d6",
                                                                         ["Low-range"])]
    assert arms(promote(capsys, corra, CLERIC))[0] == ("mace", "simple", "one-handed", "1d6", [])


@pytest.mark.rule("F-MAGIC-04")
def test_F_MAGIC_04_a_curse_is_an_entry_of_the_item_and_spends_its_dice(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """F-MAGIC-04: a Magic Item Die may bear a curse on the user, a `curse` flag on its entry; AMB-59: a curse
    spends dice like any other entry. `item new --cursed` marks the item and adds the curse entry; the referee
    writes it (1d4 DAM to the wielder, 1 die): +1d8 DAM (1) + duration (1) + curse (1) = 3, a rare item's
    budget, is accepted into the campaign; a curse of 2 dice makes 4 and is refused."""
    out = tmp_path / "grim-blade.yaml"
    code, said, _ = run(capsys, "item", "new", "Grim Blade", "--tier", "rare", "--kind", "melee", "--cursed",
                        "--out", str(out))
    assert code == 0 and "rare weapon (cursed), 3 Magic Item Dice" in said
    item = yaml.safe_load(out.read_text(encoding="utf-8"))
    rows = {r["key"]: r for r in item["rows"]}
    assert rows["item"]["data"]["cursed"] is True and rows["curse"]["data"]["curse"] is True
    rows["effect"]["data"].update(effect="+1d8 DAM", dice="1d8", cost=1)
    rows["curse"].update(text="Cursed: the wielder takes 1d4 DAM on each hit (1 die).",
                         effects=[{"kind": "damage", "dice": "1d4", "target": "self"}])
    rows["curse"]["data"]["cost"] = 1
    out.write_text(yaml.safe_dump(item, sort_keys=False), encoding="utf-8")
    db = roster(capsys, tmp_path, survivor(tmp_path, "brakka"))
    keep = ["--db", db, "--campaign", "keep"]
    assert run(capsys, *keep, "campaign", "override", "add", str(out), "--kind", "item")[0] == 0
    rows["curse"]["data"]["cost"] = 2
    out.write_text(yaml.safe_dump(item, sort_keys=False), encoding="utf-8")
    code, _, err = run(capsys, *keep, "campaign", "override", "add", str(out), "--kind", "item")
    assert code == 2 and "its entries cost 4 dice where a rare item has 3" in err


@pytest.mark.rule("F-EQ-01", "F-MU-02")
def test_F_EQ_01_MU_02_armor_she_is_not_proficient_in_makes_her_STR_and_DEX_rolls_HARD_and_bars_casting(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """F-EQ-01: armor proficiency per class (F-TAB-04); its lack is AMB-40, read by D-9 (option
    nonproficient_armor like_5e): STR and DEX CHECKs, SAVEs and ATKs HARD, no spellcasting. F-MU-02: a
    Magic-user is proficient in a shield only. Maelis in boiled leather rolls 10 from her sheet against ROOM DC
    12: her DEX CHECK, DEX SAVE and ATK are against 15, her WIS SAVE against 12, and her SPELLCHECK is refused;
    under checks_and_attacks her SAVEs are against 12; under no_penalty all are against 12 and she casts."""
    for mode, save_dc, roll_dc in (("like_5e", 15, 15), ("checks_and_attacks", 12, 15), ("no_penalty", 12, 12)):
        where = tmp_path / mode
        where.mkdir()
        db = str(where / "keep.db")
        assert run(capsys, "--db", db, "campaign", "new", "keep", "--option", f"nonproficient_armor={mode}")[0] == 0
        maelis = survivor(where, "maelis", armor="boiled-leather")
        assert run(capsys, "--db", db, "--campaign", "keep", "campaign", "join", maelis)[0] == 0
        assert sheet(db, "Maelis", "check", 10, ability="DEX").data["dc"] == roll_dc
        assert sheet(db, "Maelis", "attack", 10).data["dc"] == roll_dc
        assert sheet(db, "Maelis", "save", 10, ability="DEX").data["dc"] == save_dc
        assert sheet(db, "Maelis", "save", 10, ability="WIS").data["dc"] == 12
        if mode == "no_penalty":
            assert sheet(db, "Maelis", "spellcheck", 13).data["total"] == 14
        else:
            with pytest.raises(CampaignError, match="cannot cast spells in armor she is not proficient in"):
                sheet(db, "Maelis", "spellcheck", 13)

"""The classes on the user's path: hit points, proficiencies, Expertise, prayers known and the archetypes'
basics, through `furnace character promote|level-up|new` (character files and a campaign's roster) and a roll
from the sheet (`campaign.table.sheet_roll`, the console's button, through `Store.apply`)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from furnace.campaign import table
from furnace.campaign.store import Store, StoredEvent
from furnace.cli.app import main
from tests.helpers.factories import EXAMPLES, dice

CLERIC = ["--class", "Cleric", "--archetype", "Bloodshaman", "--skill", "Religion", "--save", "CON",
          "--spell", "Chill Touch", "--spell", "Flame Shield", "--kit", "shield", "--kit", "simple ranged", "--kit",
          "leather"]
ROGUE = ["--class", "Rogue", "--archetype", "Arcane Trickster", "--skill", "Stealth", "--skill", "Acrobatics",
         "--skill", "Sleight of Hand", "--expertise", "Perception", "--expertise", "Athletics", "--save", "INT",
         "--kit", "martial one-handed", "--kit", "simple ranged"]
MAGE = ["--class", "Magic-user", "--archetype", "Wizard", "--skill", "Investigation", "--skill", "Medicine",
        "--save", "WIS", "--spell", "Fireball", "--spell", "Chill Touch", "--spell", "Ember Swarm",
        "--cantrip", "Spark", "--cantrip", "Mending"]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def ok(capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    """The command's --json answer; it must succeed."""
    code, out, err = run(capsys, *args, "--json")
    assert code == 0, err
    return json.loads(out)


def survivor(tmp_path: Path, stem: str) -> str:
    """A copy of an example 0-level survivor (the command may write it back)."""
    return str(shutil.copy(EXAMPLES / "characters" / f"{stem}.json", tmp_path / f"{stem}.json"))


def profile(tmp_path: Path, **options: str) -> str:
    """A referee's profile file: the furnace profile with these options."""
    path = tmp_path / "house.yaml"
    path.write_text("name: house\nextends: furnace\noptions:\n" + "".join(f"  {k}: {v}\n" for k, v in options.items()),
                    encoding="utf-8")
    return str(path)


def promoted(capsys: pytest.CaptureFixture[str], file: str, choices: list[str], *extra: str) -> dict[str, Any]:
    return dict(ok(capsys, "character", "promote", file, *choices, "--no-write", *extra)["character"])


def check_levels(history: list[dict[str, Any]], con: int, die: str, cap: int, flat: int) -> None:
    """Levels 1–5: the hit die with the floor min(1 + CON, cap); levels 6+: the flat gain, no roll."""
    for gain in history:
        if gain["level"] <= 5:
            assert gain["die"] == die and gain["floor"] == min(1 + con, cap)
            assert gain["gained"] == max(gain["rolled"], gain["floor"])
        else:
            assert gain["die"] is None and gain["rolled"] is None and gain["gained"] == flat


def modifier_of(score: int) -> int:
    return next(m for lo, hi, m in ((1, 3, -3), (4, 5, -2), (6, 8, -1), (9, 12, 0), (13, 15, 1), (16, 17, 2),
                                    (18, 19, 3), (20, 20, 4)) if lo <= score <= hi)


@pytest.mark.rule("F-CLR-01")
def test_F_CLR_01_a_cleric_rolls_d8_with_the_floor_then_gains_2_a_level(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """F-CLR-01: Cleric HD d8; level 1 is 1d8 (or 3 + CON), levels 2–5 1d8 at least 1 + CON, 6–10 +2 each.
    Corra (Half-orc, CON 13: +1, 4 HP at level 0): a 6 on the d8 gives 4 + 6 = 10; a 1 gives the floor
    min(1 + 1, 4) = 2, so 6; the fixed option gives 3 + 1 = 4, so 8, no die; a 9 is no d8 face."""
    corra = survivor(tmp_path, "corra")
    c = promoted(capsys, corra, CLERIC, "--faces", "6")
    assert c["hp_max"] == 10 and c["hit_dice"] == 1
    assert c["hp_history"] == [{"level": 1, "gained": 6, "die": "d8", "rolled": 6, "floor": 2,
                                "reason": "rolled 6 on d8"}]
    assert promoted(capsys, corra, CLERIC, "--faces", "1")["hp_max"] == 4 + 2
    code, _, err = run(capsys, "character", "promote", corra, *CLERIC, "--faces", "9", "--no-write")
    assert code == 2 and "d8" in err
    fixed = promoted(capsys, corra, CLERIC, "--seed", "1", "--profile", profile(tmp_path, level1_hp="fixed"))
    assert fixed["hp_max"] == 4 + 3 + 1 and fixed["hp_history"][0]["die"] is None
    six = ok(capsys, "character", "new", "--class", "Cleric", "--level", "6", "--seed", "11",
              "--random")
    assert [g["level"] for g in six["hp_history"]] == [1, 2, 3, 4, 5, 6] and six["hit_dice"] == 5
    check_levels(six["hp_history"], modifier_of(six["scores"]["CON"]), "d8", 4, 2)


@pytest.mark.rule("F-ROG-01")
def test_F_ROG_01_a_rogue_rolls_d8_per_rogue_level_then_gains_2(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """F-ROG-01 (CF-05: "per Cleric level" is per Rogue level): d8; level 1 1d8 or 3 + CON; 2–5 1d8 at least
    1 + CON; 6–10 +2. Edda (Halfling, CON 10: +0, 3 HP): an 8 gives 11; a 1 is the floor 1, so 4; fixed 3 + 0
    gives 6; a level-4 Rogue levelled with a 5 on the d8 gains 5."""
    edda = survivor(tmp_path, "edda")
    c = promoted(capsys, edda, ROGUE, "--faces", "8")
    assert c["hp_max"] == 3 + 8 and c["hp_history"][0]["die"] == "d8"
    assert promoted(capsys, edda, ROGUE, "--faces", "1")["hp_history"][0] == {
        "level": 1, "gained": 1, "die": "d8", "rolled": 1, "floor": 1, "reason": "rolled 1 on d8"}
    assert promoted(capsys, edda, ROGUE, "--seed", "1",
                    "--profile", profile(tmp_path, level1_hp="fixed"))["hp_max"] == 3 + 3
    wren = survivor(tmp_path, "wren")          # a level-3 Rogue, 17 HP, CON 5 (−2): the floor is 1 − 2
    up = ok(capsys, "character", "level-up", wren, "--ability", "DEX", "--faces", "5", "--no-write")["character"]
    assert up["level"] == 4 and up["hp_max"] == 17 + 5 and up["hp_history"][-1]["die"] == "d8"
    six = ok(capsys, "character", "new", "--class", "Rogue", "--level", "7", "--seed", "11",
              "--random")
    check_levels(six["hp_history"], modifier_of(six["scores"]["CON"]), "d8", 4, 2)


@pytest.mark.rule("F-MU-01")
def test_F_MU_01_a_magic_user_rolls_d6_with_the_floor_capped_at_3_then_gains_1(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """F-MU-01 (CF-04): HD d6; level 1 1d6 or 2 + CON; 2–5 1d6 at least min(1 + CON, 3); 6–10 +1 each.
    Dunstan (Halfling, CON 12: +0, 1 HP): a 6 gives 7; a 7 is no d6 face; fixed 2 + 0 gives 3. Under the
    option magic_user_hit_die d8 (the class section's 1d8) an 8 is a face and gives 9."""
    dunstan = survivor(tmp_path, "dunstan")
    c = promoted(capsys, dunstan, MAGE, "--faces", "6")
    assert c["hp_max"] == 1 + 6 and c["hp_history"][0]["die"] == "d6"
    code, _, err = run(capsys, "character", "promote", dunstan, *MAGE, "--faces", "7", "--no-write")
    assert code == 2 and "d6" in err
    assert promoted(capsys, dunstan, MAGE, "--seed", "1",
                    "--profile", profile(tmp_path, level1_hp="fixed"))["hp_max"] == 1 + 2
    d8 = promoted(capsys, dunstan, MAGE, "--faces", "8", "--profile", profile(tmp_path, magic_user_hit_die="d8"))
    assert d8["hp_max"] == 1 + 8 and d8["hp_history"][0]["die"] == "d8"
    seven = ok(capsys, "character", "new", "--class", "Magic-user", "--level", "7", "--seed", "4",
              "--random")
    check_levels(seven["hp_history"], modifier_of(seven["scores"]["CON"]), "d6", 3, 1)
    assert sum(g["gained"] for g in seven["hp_history"][5:]) == 2


# -- proficiencies ---------------------------------------------------------------------------------------------
def campaign_of(capsys: pytest.CaptureFixture[str], tmp_path: Path, *files: str, options: tuple[str, ...] = ()
                ) -> tuple[str, Any]:
    """Campaign `keep` in a new database with these character files joined; (its database, a `furnace` in it)."""
    db = str(tmp_path / "keep.db")
    assert run(capsys, "--db", db, "campaign", "new", "keep", *(a for o in options for a in ("--option", o)))[0] == 0
    assert run(capsys, "--db", db, "--campaign", "keep", "campaign", "join", *files)[0] == 0

    def furnace(*args: str) -> Any:
        return ok(capsys, "--db", db, "--campaign", "keep", *args)

    return db, furnace


def sheet(db: str, who: str, kind: str, face: int, **what: Any) -> StoredEvent:
    """A roll from WHO's sheet with a d20 showing `face` (the console's button, through Store.apply)."""
    store = Store(f"sqlite:///{db}")
    try:
        applied = store.apply("keep", f"roll {kind}", table.sheet_roll(who, kind, dice(face), **what))
        return next(e for e in applied.events if e.kind == "sheet_roll")      # (a Luck Die earned may follow it)
    finally:
        store.close()


def adds(event: StoredEvent) -> dict[str, int]:
    return {source: value for value, source in event.data["modifiers"]}


@pytest.mark.rule("F-CLR-02", "F-CLR-03")
def test_F_CLR_02_03_a_clerics_saves_skills_armor_weapons_and_prayers_known(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """F-CLR-02: WIS + 1 chosen save, 1 + INT skills, light and heavy armor and shields, simple weapons.
    F-CLR-03: prayers known at most 1 + LVL, cast by SPELLCHECK d20 + WIS + PROF.
    Corra (INT 10: one skill) takes CON: her CON SAVE is d20 + 1 (CON) + 1 (PROF) = 12 on an 10; a second skill
    is refused. A level-1 Cleric knows 1 + 1 = 2 prayers: three are refused. Ilse (level 3, WIS 6: −1,
    PROF 2): a SPELLCHECK on a 14 is 14 − 1 + 2 = 15; levelled to 4 she must know 1 + 4 = 5 prayers. In scale
    mail (heavy) she may still cast, with no HARD; with a warbow (martial) her ATK is DEX −1, no PROF."""
    corra = survivor(tmp_path, "corra")
    code, _, err = run(capsys, "character", "promote", corra, *CLERIC, "--skill", "History", "--faces", "6",
                       "--no-write")
    assert code == 2 and "chooses 1 skill" in err
    code, _, err = run(capsys, "character", "promote", corra, *CLERIC, "--spell", "Fireball", "--faces", "6",
                       "--no-write")
    assert code == 2 and "knows up to 2 spell" in err and "1 + LVL" in err
    c = promoted(capsys, corra, CLERIC, "--faces", "6")
    assert c["saves"] == ["WIS", "CON"] and c["spells"] == ["Chill Touch", "Flame Shield"]
    ilse = survivor(tmp_path, "ilse")
    code, out, _ = run(capsys, "character", "level-up", ilse, "--ability", "WIS", "--faces", "5", "--no-write")
    assert code == 0 and "learns spells Fireball, Ember Swarm, Flame Shield (5 known)" in out   # the 3 left: no choice
    data = json.loads(Path(ilse).read_text(encoding="utf-8"))
    data.update(armor="scale-mail", weapons=[{"name": "warbow", "category": "martial", "kind": "ranged",
                                              "damage": "1d8"}])
    Path(ilse).write_text(json.dumps(data), encoding="utf-8")
    db, furnace = campaign_of(capsys, tmp_path, corra, ilse)
    furnace("character", "promote", "Corra", *CLERIC, "--faces", "6")
    save = sheet(db, "Corra", "save", 10, ability="CON")
    assert adds(save) == {"CON SAVE": 2} and save.data["total"] == 12
    assert adds(sheet(db, "Corra", "save", 10, ability="DEX")) == {"DEX SAVE": 0}
    spell = sheet(db, "Sister Ilse", "spellcheck", 14)
    assert spell.data["ability"] == "WIS" and spell.data["total"] == 15 and spell.data["sl"] == 1
    attack = sheet(db, "Sister Ilse", "attack", 10)
    assert attack.data["weapon"] == "warbow" and adds(attack) == {"warbow": -1}   # DEX 7: −1, no PROF
    assert attack.data["hard"] == []                                                     # heavy armor is hers


def hard_of(event: StoredEvent) -> list[str]:
    return [str(h) for h in event.data["hard"]]


@pytest.mark.rule("F-ROG-02", "F-ROG-03", "F-ARCH-04")
def test_F_ROG_02_03_ARCH_04_a_rogue_chooses_3_plus_INT_skills_and_2_expertise(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """F-ROG-02: DEX + 1 chosen save, 3 + INT skills (rogue_skills general_table: 1 + INT), light armor and
    (rogue_shield, CF-07) a shield, simple and martial weapons. F-ROG-03: Expertise is 2 more proficient
    skills, not 5e's double PROF (expertise double_prof is the switch). F-ARCH-04: an Arcane Trickster is PROF
    in Arcana and Insight. Edda (INT 11: +0) chooses 3 skills (1 under general_table), 2 Expertise; at level
    1 (PROF 1, WIS 8: −1) Perception from Expertise is 10 − 1 + 1 = 10; under double_prof Expertise doubles
    PROF on two of her skills: Acrobatics (DEX 18: +3) is 10 + 3 + 2 = 15; Arcana (INT +0) is 10 + 1; in her
    shield Acrobatics is HARD only with rogue_shield off."""
    edda = survivor(tmp_path, "edda")
    data = json.loads(Path(edda).read_text(encoding="utf-8"))
    data["shield"] = True                               # a shield she found in the funnel, kept
    Path(edda).write_text(json.dumps(data), encoding="utf-8")
    code, _, err = run(capsys, "character", "promote", edda, *ROGUE[:8], "--save", "INT", "--faces", "1",
                       "--no-write")
    assert code == 2 and "chooses 3 skill(s) (3 + INT" in err
    code, _, err = run(capsys, "character", "promote", edda, *ROGUE, "--expertise", "History", "--faces", "1",
                       "--no-write")
    assert code == 2 and "Expertise is 2 more skills" in err and "2 expertise, not 3" in err
    general = profile(tmp_path, rogue_skills="general_table")
    one = promoted(capsys, edda, ["--class", "Rogue", "--archetype", "Arcane Trickster", "--skill", "Stealth",
                                  "--expertise", "Perception", "--expertise", "Athletics", "--save", "INT",
                                  *ROGUE[-4:]], "--faces", "1", "--profile", general)
    assert one["skills"] == ["Insight", "Arcana", "Stealth"]
    c = promoted(capsys, edda, ROGUE, "--faces", "1")
    assert c["saves"] == ["DEX", "INT"] and c["expertise"] == ["Perception", "Athletics"]
    assert c["skills"] == ["Insight", "Arcana", "Stealth", "Acrobatics", "Sleight of Hand"]
    assert c["armor"] == "boiled-leather" and {w["category"] for w in c["weapons"]} == {"martial", "simple"}
    for options in ((), ("expertise=double_prof", "rogue_shield=false")):
        where = tmp_path / ("double" if options else "plain")
        where.mkdir()
        db, furnace = campaign_of(capsys, where, edda, options=options)
        expertise = ["Acrobatics", "Sleight of Hand"] if options else ["Perception", "Athletics"]   # 5e: of her skills
        furnace("character", "promote", "Edda", *ROGUE[:10], *ROGUE[-4:], "--save", "INT", "--faces", "1",
                *(a for skill in expertise for a in ("--expertise", skill)))
        perception = sheet(db, "Edda", "check", 10, skill="Perception")
        arcana = sheet(db, "Edda", "check", 10, skill="Arcana")
        assert adds(arcana) == {"INT": 0, "PROF": 1} and adds(sheet(db, "Edda", "check", 10, skill="Insight"))[
            "PROF"] == 1
        if not options:
            assert adds(perception) == {"WIS": -1, "PROF (Expertise)": 1} and perception.data["total"] == 10
            assert "non-proficient shield (D-9)" not in hard_of(sheet(db, "Edda", "check", 10, skill="Acrobatics"))
        else:
            acrobatics = sheet(db, "Edda", "check", 10, skill="Acrobatics")
            assert adds(perception) == {"WIS": -1} and list(adds(acrobatics).values()) == [3, 2]
            assert acrobatics.data["total"] == 15
            assert "non-proficient shield (D-9)" in hard_of(sheet(db, "Edda", "check", 10, skill="Acrobatics"))


@pytest.mark.rule("F-MU-02", "F-ARCH-05")
def test_F_MU_02_ARCH_05_a_wizards_saves_skills_shield_only_and_her_features(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """F-MU-02 (CF-06, the table): INT + 1 chosen save, 1 + INT skills, a shield and simple weapons only
    (magic_user_proficiencies class_section: light armor, simple and martial). F-ARCH-05: a Wizard is PROF in
    Arcana and History; Bookworm raises the spells known cap by 2; Arcana CHECKs are EASY with the feature.
    Dunstan (INT 14: +1) chooses 2 skills and knows 1 + 1 + 1 = 3 spells; at level 2 with Bookworm 6
    (1 + 2 + 1 + 2). In boiled leather she may not cast (D-9) and her Acrobatics is HARD; under class_section
    she casts: 17 − 1 + 2 = 18, SL2."""
    dunstan = survivor(tmp_path, "dunstan")
    code, _, err = run(capsys, "character", "promote", dunstan, *MAGE, "--skill", "Nature", "--faces", "1",
                       "--no-write")
    assert code == 2 and "chooses 2 skill(s) (1 + INT" in err
    c = promoted(capsys, dunstan, MAGE, "--faces", "6")
    assert c["saves"] == ["INT", "WIS"] and c["skills"] == ["Insight", "Arcana", "History", "Investigation", "Medicine"]
    assert c["armor"] is None and not c["shield"] and [w["category"] for w in c["weapons"]] == ["simple", "simple"]
    assert run(capsys, "character", "promote", dunstan, *MAGE, "--faces", "6")[0] == 0       # written back
    code, out, _ = run(capsys, "character", "level-up", dunstan, "--feature", "bookworm", "--faces", "3",
                       "--no-write")
    assert code == 0 and "(5 known)" in out          # up to 6 (1 + LVL + INT + 2 for Bookworm): the 2 left, no choice
    up = ok(capsys, "character", "level-up", dunstan, "--feature", "arcanist", "--spell", "Animate Dead",
            "--faces", "3")["character"]
    assert up["archetype_features"] == ["arcanist"] and len(up["spells"]) == 1 + 2 + 1
    maelis = survivor(tmp_path, "maelis")               # level 3, INT 7 (−1), PROF 2
    data = json.loads(Path(maelis).read_text(encoding="utf-8"))
    data.update(armor="boiled-leather")
    Path(maelis).write_text(json.dumps(data), encoding="utf-8")
    code, _, err = run(capsys, "spell", "cast", "Fireball", "--caster", maelis, "--faces", "17,2")
    assert code == 2 and "cannot cast spells in armor she is not proficient in: boiled-leather" in err
    cast = ok(capsys, "spell", "cast", "Fireball", "--caster", maelis, "--faces", "17,2",
              "--profile", profile(tmp_path, magic_user_proficiencies="class_section"))
    assert cast["check"]["total"] == 18 and cast["sl"] == 2
    db, _ = campaign_of(capsys, tmp_path, dunstan, maelis)
    arcana = sheet(db, "Dunstan", "check", 10, skill="Arcana")
    assert adds(arcana) == {"INT": 1, "PROF": 1} and arcana.data["dc"] == 12 - 3 and arcana.data["easy"]
    assert adds(sheet(db, "Dunstan", "check", 10, skill="History"))["PROF"] == 1
    assert hard_of(sheet(db, "Maelis", "check", 10, skill="Acrobatics")) == [
        "non-proficient boiled-leather (light armor) (D-9)"]


@pytest.mark.rule("F-ARCH-04", "F-ARCH-05")
def test_F_ARCH_04_05_a_scroll_is_HARD_for_a_trickster_and_EASY_for_a_wizard(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """F-ARCH-04: an Arcane Trickster with the scroll feature reads arcane scrolls with a HARD SPELLCHECK (ROOM
    DC + 3) and learns one cantrip with Trickster; F-ARCH-05: a Wizard's SPELLCHECK from a scroll is EASY
    (ROOM DC − 3). A level-2 Trickster (INT +0, PROF 1) rolls 17: 18 against DC 12 + 3 = 15; without a scroll
    a Rogue casts nothing. Maelis (INT −1, PROF 2) rolls 13: 14 against DC 14 − 3 = 11."""
    rogue = str(tmp_path / "rogue.json")
    code, out, _ = run(capsys, "character", "new", "--class", "Rogue", "--level", "1", "--seed", "5", "--random",
                       "--json")
    Path(rogue).write_text(out, encoding="utf-8")
    int_mod = modifier_of(json.loads(out)["scores"]["INT"])
    up = ok(capsys, "character", "level-up", rogue, "--feature", "scroll-reader", "--faces", "4")["character"]
    assert up["archetype_features"] == ["scroll-reader"]
    scroll = ok(capsys, "spell", "cast", "Fireball", "--caster", rogue, "--scroll", "--dc", "12", "--faces", "17,2")
    assert scroll["check"]["dc"]["value"] == 15 and scroll["check"]["dc"]["hard"]
    assert scroll["check"]["total"] == 17 + int_mod + 1
    code, _, err = run(capsys, "spell", "cast", "Fireball", "--caster", rogue, "--dc", "12", "--faces", "17,2")
    assert code == 2 and "a Rogue casts no spells" in err
    trick = str(tmp_path / "trick.json")
    Path(trick).write_text(out, encoding="utf-8")
    code, _, err = run(capsys, "character", "level-up", trick, "--feature", "trickster", "--faces", "4")
    assert code == 2 and "cantrip" in err
    up = ok(capsys, "character", "level-up", trick, "--feature", "trickster", "--cantrip", "Spark", "--faces", "4")
    assert up["character"]["cantrips"] == ["Spark"]
    maelis = survivor(tmp_path, "maelis")
    wizard = ok(capsys, "spell", "cast", "Fireball", "--caster", maelis, "--scroll", "--dc", "14", "--faces", "13,4")
    assert wizard["check"]["dc"]["value"] == 11 and wizard["check"]["dc"]["easy"] == ["scroll (Wizard)"]
    assert wizard["check"]["total"] == 14 and wizard["sl"] == 1

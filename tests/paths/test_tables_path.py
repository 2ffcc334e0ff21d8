"""The rule tables on the user's path: where the game rolls them (a CHECK, a SPELLCHECK and its mishaps, a reaction, a
crit in a fight, a magic item's power) and `furnace table show/roll` for those the referee reads. Each test names the
RULES.md ids it shows and works out their numbers from the faces entered.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.paths.keep_cli import EXAMPLES, ROOT, Keep, hero, keep

__all__ = ["keep"]


def spellcheck(keep: Keep, mod: int, prof: int, rolled: str, *more: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(keep.free("spellcheck", "--mod", str(mod), "--prof", str(prof),
                                                 "--faces", rolled, *more, "--json"))
    return found


@pytest.mark.rule("F-TAB-01", "F-BASE-04")
def test_F_TAB_01_F_BASE_04_easy_and_hard_move_the_dc_not_the_roll(keep: Keep) -> None:
    """EASY is DC − 3 and HARD DC + 3 (F-TAB-01's rows, F-BASE-04), applied to the DC and never to the roll: d20 14
    + STR 2 + PROF 1 = 17 meets a ROOM DC 14 made HARD (17); 9 + 3 = 12 beats it made EASY (11); one EASY and one
    HARD cancel (12); two HARD make 18. "ATK is HARD" is +3 to the number the ATK must reach."""
    runs = {
        "hard": ("STR=2", "PROF=1", "--dc", "14", "--hard", "1", "--faces", "14"),
        "easy": ("STR=2", "PROF=1", "--dc", "14", "--easy", "1", "--faces", "9"),
        "both": ("0", "--dc", "12", "--easy", "1", "--hard", "1", "--faces", "12"),
        "twice": ("0", "--dc", "12", "--hard", "2", "--faces", "12"),
        "atk": ("3", "--dc", "14", "--hard", "1", "--kind", "ATK", "--faces", "13")}
    seen = {k: json.loads(keep.free("check", *args, "--json")) for k, args in runs.items()}
    assert {k: (d["total"], d["dc"]["value"], d["success"]) for k, d in seen.items()} == {
        "hard": (17, 17, True), "easy": (12, 11, True), "both": (12, 12, True), "twice": (12, 18, False),
        "atk": (16, 17, False)}
    assert [m["value"] for m in seen["hard"]["modifiers"]] == [2, 1]             # the roll keeps its own numbers
    glossary = {row["key"]: row for row in json.loads(keep.free("table", "show", "glossary", "--json"))["rows"]}
    assert len(glossary) == 21 and glossary["EASY"]["data"] == {"dc_delta": -3}
    assert glossary["HARD"]["data"] == {"dc_delta": 3}
    assert [glossary[z]["data"]["zone"] for z in ("CLOSE", "NEAR", "RANGED", "FAR")] == ["CLOSE", "NEAR", "RANGED",
                                                                                         "FAR"]
    assert {a: glossary[a]["data"] for a in ("STR", "CHA")} == {"STR": {"ability": "STR", "is_modifier": True},
                                                                "CHA": {"ability": "CHA", "is_modifier": True}}


@pytest.mark.rule("F-TAB-11")
def test_F_TAB_11_the_spellcheck_total_buys_a_success_level_and_its_dice(keep: Keep) -> None:
    """The SPELLCHECK total on F-TAB-11: 11 or less fails; 12–15 SL1 (1 die), 16–20 SL2 (2), 21–26 SL3 (4), 27–31
    SL4 (7), 32–35 SL5 (11), 36+ SL6, a WONDER for the referee. A natural 1 is a mishap whatever the total; a
    natural 20 adds 2 × PROF and 2 dice (20 + 3 + 3 × 2 = 29: SL4, 7 + 2 = 9 dice). The total must still reach
    the ROOM DC: 12 is SL1 but fails against 14."""
    cases = {("6", 3, 2): (11, 0, 0, False), ("7", 3, 2): (12, 1, 1, True), ("10", 3, 2): (15, 1, 1, True),
             ("11", 3, 2): (16, 2, 2, True), ("15", 3, 2): (20, 2, 2, True), ("16", 3, 2): (21, 3, 4, True),
             ("11", 10, 6): (27, 4, 7, True), ("15", 10, 6): (31, 4, 7, True), ("16", 10, 6): (32, 5, 11, True),
             ("19", 10, 6): (35, 5, 11, True), ("18", 12, 6): (36, 6, None, True), ("20", 3, 2): (29, 4, 9, True)}
    seen = {key: spellcheck(keep, key[1], key[2], key[0]) for key in cases}
    assert {k: (d["total"], d["sl"], d["spell_dice"], d["success"]) for k, d in seen.items()} == cases
    assert seen[("20", 3, 2)]["crit"] and "a WONDER" in seen[("18", 12, 6)]["steps"][-1]
    mishap = spellcheck(keep, 10, 6, "1")
    assert (mishap["total"], mishap["mishap"], mishap["success"], mishap["sl"]) == (17, True, False, 0)
    short = spellcheck(keep, 3, 2, "7", "--dc", "14")
    assert (short["total"], short["success"]) == (12, False)


@pytest.mark.rule("F-TAB-12")
def test_F_TAB_12_a_spells_kind_sets_its_spell_die(keep: Keep) -> None:
    """One Spell Die is a d4 for an effect or a duration, a d6 for ranged damage, a d8 for melee damage (F-TAB-12):
    Fireball (ranged) rolls its SL1 damage on a d6, Chill Touch (melee) on a d8, Ember Swarm (an effect) on a d4,
    its duration too; a spell built with `spell new` takes the die of its kind."""
    listed = keep.free("spell", "list")
    assert "Fireball       ranged  d6" in listed and "Chill Touch    melee   d8" in listed
    assert "Ember Swarm    effect  d4" in listed
    rolls = {name: [(r["expression"], r["total"]) for r in spellcheck(keep, 3, 2, f"7,{face}", "--spell", name)
                    ["effect_rolls"]] for name, face in (("Fireball", 6), ("Chill Touch", 8), ("Ember Swarm", 4))}
    assert rolls == {"Fireball": [("1d6", 6)], "Chill Touch": [("1d8", 8)], "Ember Swarm": [("1d4", 4)]}
    assert [(r["expression"], r["total"]) for r in spellcheck(keep, 3, 2, "11,3,2", "--spell", "Ember Swarm")
            ["effect_rolls"]] == [("1d4", 3), ("1d4", 2)]                      # SL2: 1d4 DAM for 1d4 rounds
    kinds = {row["key"]: row["die"] for row in json.loads(keep.free("table", "show", "spell-dice",
                                                                               "--json"))["rows"]}
    assert kinds == {"effect_or_duration": "d4", "ranged_damage": "d6", "melee_damage": "d8"}


@pytest.mark.rule("F-TAB-15")
def test_F_TAB_15_animate_dead_raises_zombies_by_its_success_level(keep: Keep, tmp_path: Path) -> None:
    """Animate Dead (F-TAB-15): SL1 is still a failure (the base effect costs 2 dice); SL2 raises one zombie for 1d4
    rounds; SL3 1d4 zombies for 2d4 rounds. In a fight, Maelis (INT +4, PROF +4) rolls 12: 20 against ROOM DC
    14, SL2; the d4 gives 2 rounds, and the zombie fights on her side until its turn in round 3."""
    sl1 = spellcheck(keep, 3, 2, "7", "--spell", "Animate Dead")
    assert (sl1["sl"], sl1["row"]["text"]) == (1, "Still a failure: nothing rises")
    assert sl1["effects"] == [{"kind": "nothing", "note": "the base effect needs 2 dice"}]
    sl3 = spellcheck(keep, 3, 2, "16,2,3,4", "--spell", "Animate Dead")
    assert sl3["effects"] == [{"kind": "summon", "creature": "zombie", "count": "1d4", "duration": {"amount": "2d4"}}]
    assert [(r["expression"], r["total"]) for r in sl3["effect_rolls"]] == [("1d4", 2), ("2d4", 7)]
    keep.new()
    maelis = hero(tmp_path, "Maelis", **_mage(level=10, INT=20, spells=["Animate Dead"]))
    keep.ok("campaign", "join", str(maelis))
    keep.ok("encounter", "start", "--party", "Maelis", "--monsters", "ogre", "--seed", "1")
    out = keep.ok("encounter", "act", "mael1", "cast", "mael1", "--spell", "Animate Dead", "--faces", "12,2,3,3")
    assert "SL2" in out and "raises 1 zombie for 2 rounds" in out
    assert "Zombie 1 (zombie-1-1) · HP 6/6 · NEAR · up · dies at its turn in round 3" in keep.ok("encounter",
                                                                                               "status")


def _mage(*, level: int, INT: int, spells: list[str]) -> dict[str, Any]:
    """The fields that make hero() a Magic-user (Maelis's own, examples/characters/maelis.json) of this level."""
    data = json.loads((EXAMPLES / "characters" / "maelis.json").read_text(encoding="utf-8"))
    keep_out = {"name", "scores"}
    fields = {k: v for k, v in data.items() if k not in keep_out}
    return {**fields, "level": level, "scores": {**data["scores"], "INT": INT}, "spells": spells}


@pytest.mark.rule("F-TAB-18")
def test_F_TAB_18_a_natural_1_on_a_spell_with_no_table_of_its_own(keep: Keep, tmp_path: Path) -> None:
    """A natural 1 on a spell with no mishap table of its own rolls the General Mishap table (F-TAB-18, d20). Maelis
    (CHA 12: +0) rolls 14, "can't cast any spell until REST, CHA SAVE": d20 5 + 0 = 5 fails against DC 12, so her
    sheet keeps the lockout and her next spell is refused until a rest. A 12 is "STUNNED, CON SAVE" (CON 7: −1)."""
    caster = tmp_path / "maelis.json"
    caster.write_text((EXAMPLES / "characters" / "maelis.json").read_text(encoding="utf-8"), encoding="utf-8")
    stunned = keep.free("--explain", "spell", "cast", "Ember Swarm", "--caster", str(caster), "--faces", "1,12,5")
    assert "General Magical Mishap table): 12 (row 12–13)" in stunned and "CON SAVE 4 vs DC 12: failed" in stunned
    out = keep.free("--explain", "spell", "cast", "Ember Swarm", "--caster", str(caster), "--faces", "1,14,5",
                    "--write")
    assert "14 (row 14–15) → CHA SAVE or the caster can't cast any spell until a rest (F-SPELL-10, F-TAB-18)" in out
    assert "CHA SAVE 5 vs DC 12: failed" in out
    assert json.loads(caster.read_text(encoding="utf-8"))["until_rest"] == [
        "CANT_CAST: CHA SAVE or the caster can't cast any spell until a rest"]
    code = keep.run("spell", "cast", "Fireball", "--caster", str(caster), "--faces", "15")[0]
    assert code == 2
    rows = {(r["min"], r["max"]) for r in json.loads(keep.free("table", "show", "mishap", "--json"))["rows"]}
    assert rows == {(1, 1), (2, 3), (4, 5), (6, 7), (8, 9), (10, 11), (12, 13), (14, 15), (16, 17), (18, 19), (20, 20)}


@pytest.mark.rule("F-TAB-20")
def test_F_TAB_20_the_referees_polymorph_rolls_its_own_mishap_table(keep: Keep, tmp_path: Path) -> None:
    """The document prints Polymorph's mishap table (F-TAB-20, d6) but not the spell: a referee's Polymorph that
    names it as its mishap table rolls it on a natural 1 instead of the general table: 2 is "can't cast next
    turn", 6 turns the caster into a critter for the referee to pick."""
    spell = yaml.safe_load((ROOT / "src/furnace/data/tables/F-TAB-16.yaml").read_text(encoding="utf-8"))
    spell |= {"id": "house:spell-polymorph", "name": "spell-polymorph", "title": "Polymorph", "notes": [],
              "rules": [], "data": {"spell": "Polymorph", "spell_kind": "effect", "spell_die": "d4",
                                    "mishap_table": "F-TAB-20"}}
    (tmp_path / "polymorph.yaml").write_text(yaml.safe_dump(spell, sort_keys=False), encoding="utf-8")
    profile = tmp_path / "house.yaml"
    profile.write_text("name: house\nextends: furnace\ntables: [polymorph.yaml]\n", encoding="utf-8")
    caster = hero(tmp_path, "Maelis", **_mage(level=3, INT=7, spells=["Fireball", "Polymorph"]))
    cast = ("--explain", "spell", "cast", "Polymorph", "--caster", str(caster), "--profile", str(profile))
    roar = keep.free(*cast, "--faces", "1,2")
    assert "(Polymorph mishap table): 2 → The caster's voice becomes a roar: no casting on the next turn" in roar
    assert "F-TAB-20" in roar and "can't cast any spell until its next turn" in roar
    chicken = keep.free(*cast, "--faces", "1,6")
    assert "6 → The caster becomes a chicken or another small critter" in chicken and "POLYMORPHED" in chicken


@pytest.mark.rule("F-TAB-29")
def test_F_TAB_29_the_reaction_roll_on_meeting_npcs(keep: Keep) -> None:
    """2d6 + the speaker's CHA on F-TAB-29: 2 or less Hostile, 3–5 Unfriendly, 6–8 Neutral, 9–11 Indifferent, 12 or
    more Helpful."""
    cases = {("1,1", "0"): (2, "hostile"), ("1,2", "0"): (3, "unfriendly"), ("2,3", "0"): (5, "unfriendly"),
             ("3,3", "0"): (6, "neutral"), ("4,4", "0"): (8, "neutral"), ("4,5", "0"): (9, "indifferent"),
             ("5,6", "0"): (11, "indifferent"), ("6,6", "0"): (12, "helpful"), ("5,5", "2"): (12, "helpful"),
             ("2,2", "-3"): (1, "hostile")}
    seen = {key: json.loads(keep.free("reaction", "--cha", key[1], "--faces", key[0], "--json")) for key in cases}
    assert {k: (d["table_roll"]["roll"]["total"], d["attitude"]) for k, d in seen.items()} == cases


@pytest.mark.rule("F-TAB-06")
def test_F_TAB_06_lay_on_hands_reads_the_spellcheck_total(keep: Keep) -> None:
    """Lay on Hands' table (F-TAB-06), rolled as the cleric's SPELLCHECK d20 + WIS + PROF: 11 or less heals nothing,
    12–15 lets the ally spend 1 HD, 16–20 2 HD, 21–26 3 HD, 27+ 4 HD."""
    cases = {("6", "3", "2"): (11, 0), ("7", "3", "2"): (12, 1), ("10", "3", "2"): (15, 1),
             ("11", "3", "2"): (16, 2), ("15", "3", "2"): (20, 2), ("16", "3", "2"): (21, 3),
             ("19", "5", "2"): (26, 3), ("11", "10", "6"): (27, 4)}
    seen = {k: json.loads(keep.free("table", "roll", "lay-on-hands", "--var", f"MOD={k[1]}", "--var", f"PROF={k[2]}",
                                    "--faces", k[0], "--json")) for k in cases}
    assert {k: (d["roll"]["total"], d["row"]["data"]["hd"]) for k, d in seen.items()} == cases
    assert seen[("11", "10", "6")]["row"]["effects"] == [{"kind": "heal", "dice": "4", "unit": "hit_die",
                                                         "target": "target"}]


@pytest.mark.rule("F-TAB-41")
def test_F_TAB_41_effort_dice_by_proficiency(keep: Keep) -> None:
    """Effort (F-TAB-41, the optional ICRPG rule): 1d8 + the ability modifier a success with PROF, 1d4 + it without,
    at least 1; the referee reads the table (no command rolls effort yet)."""
    rows = {row["key"]: row["data"] for row in json.loads(keep.free("table", "show", "effort", "--json"))["rows"]}
    assert rows == {"proficient": {"dice": "1d8", "expression": "1d8+MOD", "minimum": 1},
                    "unproficient": {"dice": "1d4", "expression": "1d4+MOD", "minimum": 1}}
    rolled = json.loads(keep.free("roll", rows["proficient"]["expression"], "--var", "MOD=2", "--faces", "5",
                                  "--json"))
    assert rolled["total"] == 7

"""The Middle Sea's weapons, armor, crits and mooks on the user's path (RULES.md M.3 M-MOOK-02, M.4, M.5, M.6,
M-TAB-04..07): fights under `--profile middle-sea` (a fight file, or a campaign's fight written back to the
roster) with the faces entered, `furnace weapon-mishap`, `furnace armor-hit`, `furnace table show`, `furnace purse`.

A one-round fight file rolls, in order: the initiative d6 of the party then of the monsters, then each attack's
d20 and what follows it (damage, a natural 1's weapon roll, a natural 20's armor roll). The Bandit (AC 10, ATK
+2, a club for 1d6) and the Fighters below are written in `tests.paths.sea` and here.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

import pytest

from furnace.characters.character import Character
from tests.helpers.factories import fighter
from tests.paths.sea import BANDIT, Furnace, events, faces, fight_file, natural_rolls, one


@pytest.fixture
def furnace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Furnace:
    return Furnace(tmp_path, monkeypatch, capsys)


def arms(name: str, kind: str = "one-handed", damage: str = "1d8") -> list[dict[str, Any]]:
    return [{"name": name, "category": "martial", "kind": kind, "damage": damage}]


# A 3rd-level Fighter, STR 14 (+1): ATK d20+3, an arming sword (sharp) for 1d8+1, 20 HP, unarmored (AC 10)
vala = partial(fighter, name="Vala", level=3, hp_max=20, STR=14, weapons=arms("arming sword"))


def fight(furnace: Furnace, who: Character, rolled: tuple[int, ...], *more: str, rounds: int = 1,
          monster: dict[str, Any] | None = None, zone: str = "CLOSE") -> dict[str, Any]:
    """A fight file of `who` against the Bandit (or `monster`), under middle-sea, with these faces."""
    path = fight_file(furnace.tmp, who, monsters=[monster or BANDIT], zone=zone)
    return dict(furnace.json("fight", path, "--profile", "middle-sea", "--rounds", str(rounds),
                             "--faces", faces(*rolled), *more))


def attacks_by(result: dict[str, Any], who: str) -> list[int]:
    """The natural d20 of each ATK `who` made."""
    return [e["rolls"][0]["faces"][0] for e in result["events"] if e["kind"] in ("hit", "miss", "crit", "fumble")
            and e["actor"] == who]


# -- M.4 weapons on a natural 1 ---------------------------------------------------------------------------------

@pytest.mark.rule("M-WPN-01", "M-TAB-04")
def test_M_WPN_01_a_natural_1_damages_the_weapon_by_its_class(furnace: Furnace) -> None:
    """M-WPN-01, M-TAB-04 (CF-34): under middle-sea a natural 1 damages the weapon used, by its class; the Furnace
    fumble die is not rolled, and a natural 2 does nothing.

    Vala's arming sword is sharp (AMB-95): the natural 1 makes the blade save vs crushing blow as metal, d20 3 vs
    10 (X-TAB-06) → a notch: round 2 she attacks at d20+2 (not +3) for 1d8+1−1, [5] → 5. The Bandit's natural 2s
    harm nothing. In a campaign the notch stays on her sword; under the furnace profile the same natural 1
    rolls the fumble d4 instead."""
    out = fight(furnace, vala(), (6, 1, 1, 3, 2, 10, 5, 2), rounds=2)
    mishap = one(out, "weapon_mishap")
    assert (mishap["data"]["weapon_class"], mishap["data"]["outcome"], mishap["data"]["material"]) == (
        "sharp", "notched", "metal")
    assert (mishap["data"]["total"], mishap["data"]["target"], mishap["data"]["notches"]) == (3, 10, 1)
    hit = one(out, "hit")
    assert natural_rolls(hit) == [("ATK", 12, [10])] and one(out, "damage_roll")["data"]["damage"] == "1d8+1-1"
    assert one(out, "damage_roll")["data"]["amount"] == 5 and attacks_by(out, "bandit") == [2, 2]
    furnace.campaign("middle-sea", vala())
    path = fight_file(furnace.tmp, vala(), monsters=[BANDIT])
    furnace.ok("fight", path, "--party", "all", "--rounds", "1", "--faces", faces(6, 1, 1, 3, 2))
    assert furnace.json("character", "show", "Vala")["character"]["weapons"][0]["notches"] == 1
    plain = dict(furnace.json("fight", path, "--profile", "furnace", "--rounds", "1", "--faces", faces(6, 1, 1, 3, 2)))
    assert events(plain, "weapon_mishap") == []
    assert natural_rolls(events(plain, "fumble")[1]) == [("fumble die", 3, [3])]


@pytest.mark.rule("M-WPN-03", "M-TAB-04")
def test_M_WPN_03_a_blunt_weapon_slips_below_20(furnace: Furnace) -> None:
    """M-WPN-03, AMB-96: a blunt weapon's natural 1 rolls d20 + the Dexterity SCORE; below 20 it slips and lands
    2d6 feet away in a random direction (a d8 compass point).

    Oda (DEX 14) and her mace: d20 5 + 14 = 19 → slips, 2d6 [3, 4] = 7 feet, d8 7 → W. At the command line a
    d20 6 + 14 = 20 keeps hold, and under middle_sea_dex_roll = modifier only its +1 counts (d20 17 → 18 slips)."""
    oda = fighter(name="Oda", hp_max=20, DEX=14, weapons=arms("mace", damage="1d6"))
    out = fight(furnace, oda, (6, 1, 1, 5, 3, 4, 7, 2))
    slip = one(out, "weapon_mishap")["data"]
    assert (slip["weapon_class"], slip["outcome"], slip["total"], slip["target"]) == ("blunt", "slipped", 19, 20)
    assert (slip["feet"], slip["direction"]) == (7, "W")
    assert natural_rolls(one(out, "weapon_mishap")) == [("DEX roll", 19, [5]), ("feet", 7, [3, 4]),
                                                        ("direction", 7, [7])]
    held = furnace.json("weapon-mishap", "--class", "blunt", "--dex", "14", "--faces", "6")
    assert (held["outcome"], held["roll"]["total"], held["slip_feet"]) == ("held", 20, None)
    by_mod = furnace.json("weapon-mishap", "--class", "blunt", "--dex", "14", "--faces", "17,1,1,1",
                          "--option", "middle_sea_dex_roll=modifier")
    assert (by_mod["outcome"], by_mod["roll"]["total"]) == ("slipped", 18)


@pytest.mark.rule("M-WPN-05", "M-TAB-04")
def test_M_WPN_05_a_pole_weapon_cracks_then_snaps_in_use(furnace: Furnace) -> None:
    """M-WPN-05: a pole weapon's natural 1 saves vs crushing blow as thick wood (12) or cracks; each later round
    the cracked haft is used it saves again, and a failure snaps it: the weapon is unusable.

    Sten's spear in a middle-sea campaign: round 1 the natural 1, d20 5 vs 12 → cracked; round 2 he attacks
    (d20 6, a miss) and the haft saves, d20 1 vs 12 → it snaps. On the roster the spear is cracked and broken."""
    sten = fighter(name="Sten", hp_max=20, weapons=arms("spear", damage="1d6"))
    furnace.campaign("middle-sea", sten)
    path = fight_file(furnace.tmp, sten, monsters=[BANDIT])
    out = furnace.json("fight", path, "--party", "all", "--rounds", "2", "--faces", faces(6, 1, 1, 5, 2, 6, 1, 10, 3))
    mishaps = [e["data"] for e in events(out, "weapon_mishap")]
    assert [(m["weapon_class"], m["outcome"], m["total"], m["target"], m["material"]) for m in mishaps] == [
        ("pole", "cracked", 5, 12, "thick_wood"), ("pole", "snapped", 1, 12, "thick_wood")]
    assert mishaps[1]["in_use"] is True
    spear = furnace.json("character", "show", "Sten")["character"]["weapons"][0]
    assert (spear["name"], spear["cracked"], spear["broken"]) == ("spear", True, True)
    held = furnace.json("weapon-mishap", "--class", "pole", "--cracked", "--faces", "12")
    assert (held["outcome"], held["weapon"]["cracked"], held["weapon"]["broken"]) == ("held", True, False)


@pytest.mark.rule("M-WPN-06", "M-TAB-04")
def test_M_WPN_06_a_hurled_weapon_leaves_its_thrower_off_balance(furnace: Furnace) -> None:
    """M-WPN-06, AMB-99: a hurled weapon's (or a fist's) natural 1 rolls d20 + DEX score; below 20 the thrower is
    off-balance until the next round: no DEX and no shield bonus to AC, and acts last (or loses 1d4 segments).

    Jory (DEX 16, +2; a shield, +2: AC 14) throws a javelin: d20 2 + 16 = 18 → off-balance, AC 14 → 10, and the
    Bandit's d20 9 + 2 = 11 hits where it would have missed; d20 4 + 16 = 20 keeps balance. Under
    off_balance_segments = segments the d4 [3] loses 3 segments. Unarmed, DEX 12: d20 7 → 19 off-balance."""
    jory = fighter(name="Jory", hp_max=20, DEX=16, shield=True, weapons=arms("javelin", kind="ranged", damage="1d6"))
    out = fight(furnace, jory, (6, 1, 1, 2, 9, 3), zone="RANGED")
    mishap, balance = one(out, "weapon_mishap")["data"], one(out, "off_balance")["data"]
    assert (mishap["weapon_class"], mishap["outcome"], mishap["total"]) == ("hurled", "off_balance", 18)
    assert (balance["dex"], balance["shield"], balance["ac_before"], balance["ac_after"]) == (2, 2, 14, 10)
    assert one(out, "hit")["data"]["total"] == 11 and one(out, "damage")["data"]["hp_after"] == 17
    steady = fight(furnace, jory, (6, 1, 1, 4, 9), zone="RANGED")
    assert one(steady, "weapon_mishap")["data"]["outcome"] == "held" and events(steady, "off_balance") == []
    assert one(steady, "miss")["data"]["total"] == 11
    segs = fight(furnace, jory, (6, 1, 1, 2, 3, 9, 3), "--option", "off_balance_segments=segments", zone="RANGED")
    assert one(segs, "off_balance")["data"]["segments_lost"] == 3
    fist = furnace.json("weapon-mishap", "--class", "unarmed", "--dex", "12", "--faces", "7")
    assert (fist["class"], fist["outcome"], fist["roll"]["total"]) == ("hurled", "off_balance", 19)


@pytest.mark.rule("M-WPN-08")
def test_M_WPN_08_neglect_lowers_item_saves_but_not_dexterity_rolls(furnace: Furnace) -> None:
    """M-WPN-08, AMB-100 (item_neglect, on under middle-sea): −1 to the weapon's item saves for each year (or
    tropical month) untended; never to the Dexterity rolls.

    A blade 2 years untended: d20 11 − 2 = 9 vs 10 → a notch (with item_neglect off, 11 holds). A pole weapon 1
    year untended: 12 − 1 = 11 vs 12 → cracked. A mace 3 years untended, DEX 12: d20 8 + 12 = 20 still holds."""
    blade = furnace.json("weapon-mishap", "--class", "sharp", "--neglect", "2", "--faces", "11")
    assert (blade["outcome"], blade["save"]["roll"]["total"], blade["save"]["target"]) == ("notched", 9, 10)
    assert blade["save"]["roll"]["variables"] == {"MAGIC": 0, "NEGLECT": 2} and blade["penalty"] == -1
    tended = furnace.json("weapon-mishap", "--class", "sharp", "--neglect", "2", "--faces", "11",
                          "--option", "item_neglect=false")
    assert (tended["outcome"], tended["save"]["roll"]["total"]) == ("held", 11)
    pole = furnace.json("weapon-mishap", "--class", "pole", "--neglect", "1", "--faces", "12")
    assert (pole["outcome"], pole["save"]["roll"]["total"]) == ("cracked", 11)
    mace = furnace.json("weapon-mishap", "--class", "blunt", "--dex", "12", "--neglect", "3", "--faces", "8")
    assert (mace["outcome"], mace["roll"]["total"], mace["roll"]["variables"]) == ("held", 20, {"DEX": 12,
                                                                                              "MAGIC": 0})


# -- M.5 armor on a natural 20, M.6 crits -----------------------------------------------------------------------

# Hild, a 3rd-level Fighter in chain-mail (AC 15, 5 points of protection), 20 HP
armored = partial(fighter, name="Hild", level=3, hp_max=20, STR=14, armor="chain-mail",
                  weapons=arms("arming sword"))


def crit_on(furnace: Furnace, target: Character, armor_faces: tuple[int, ...], *,
            monster: dict[str, Any] | None = None) -> dict[str, Any]:
    """The monster goes first (d6 1 against 6) and rolls a natural 20, damage d6 3, then the armor faces; the
    target's reply misses (d20 2)."""
    return fight(furnace, target, (1, 6, 20, 3, *armor_faces, 2), monster=monster)


@pytest.mark.rule("M-ARM-01", "M-TAB-05")
def test_M_ARM_01_the_shield_takes_the_blow_else_a_d6_for_the_helmet(furnace: Furnace) -> None:
    """M-ARM-01, D-1, AMB-98, M-TAB-05: a natural 20 against armor deals normal damage and the piece hit saves:
    a shield that counts takes it automatically; else a d6, 1 the helmet (helmet_hit_chance 1), 2–6 the body
    armor. Melee saves vs crushing blow, missiles vs normal blow.

    Shield, chain and helmet: no d6; the shield (thick wood) d20 5 vs 12 → destroyed, AC 17 → 15. Chain and
    helmet: d6 1 → the helmet (metal) 4 vs 10 → destroyed; d6 2 → the chain 9 vs 10 → 4 of 5 points left, AC 15 →
    14. An archer's natural 20: d6 2 → the chain saves vs normal blow, 7 vs 8 → damaged."""
    shield = crit_on(furnace, armored(shield=True, helmet=True), (5,))
    hit = one(shield, "armor_save")
    assert one(shield, "middle_sea_crit")["data"] == {"round": 1, "outcome": "armored", "damage": 3}
    assert [r[0] for r in natural_rolls(hit)] == ["item save"]
    assert (hit["data"]["piece"], hit["data"]["result"], hit["data"]["form"], hit["data"]["target"]) == (
        "shield", "destroyed", "crushing_blow", 12)
    assert (hit["data"]["ac_before"], hit["data"]["ac_after"]) == (17, 15)
    helmet = one(crit_on(furnace, armored(helmet=True), (1, 4)), "armor_save")
    assert natural_rolls(helmet) == [("which piece", 1, [1]), ("item save", 4, [4])]
    assert (helmet["data"]["piece"], helmet["data"]["result"], helmet["data"]["target"]) == ("helmet", "destroyed", 10)
    body = one(crit_on(furnace, armored(helmet=True), (2, 9)), "armor_save")["data"]
    assert (body["piece"], body["result"], body["points"], body["left"], body["ac_after"]) == (
        "armor", "damaged", 5, 4, 14)
    archer = {**BANDIT, "name": "Archer", "weapon": "shortbow", "ranged": True, "zone": "RANGED"}
    shot = one(crit_on(furnace, armored(helmet=True), (2, 7), monster=archer), "armor_save")["data"]
    assert (shot["piece"], shot["form"], shot["total"], shot["target"], shot["result"]) == (
        "armor", "normal_blow", 7, 8, "damaged")


@pytest.mark.rule("M-ARM-04")
def test_M_ARM_04_magic_armor_adds_its_plus_to_the_save(furnace: Furnace) -> None:
    """M-ARM-04: magic armor adds its "+" to its item saves (a magic shield that fails loses a plus instead).

    Chain-mail +2 vs a melee natural 20: d20 8 + 2 = 10 vs 10 → holds (plain chain: 8 → 4 of 5 left). A +1
    shield: 5 + 1 = 6 vs 12 → fails and loses its plus, still carried; a plain one is destroyed. A helmet has no
    plus here: --magic with --piece helmet is refused, not dropped."""
    plus = furnace.json("armor-hit", "--piece", "armor", "--armor", "chain-mail", "--attack", "melee", "--magic", "2",
                        "--faces", "8")
    assert (plus["result"], plus["save"]["roll"]["total"], plus["save"]["target"]) == ("saved", 10, 10)
    plain = furnace.json("armor-hit", "--piece", "armor", "--armor", "chain-mail", "--attack", "melee", "--faces", "8")
    assert (plain["result"], plain["protection_left"], plain["armor_damage"]) == ("damaged", 4, 1)
    shield = furnace.json("armor-hit", "--piece", "shield", "--attack", "melee", "--magic", "1", "--faces", "5")
    assert (shield["result"], shield["save"]["roll"]["total"], shield["shield"], shield["shield_magic"]) == (
        "lost_plus", 6, True, 0)
    assert furnace.json("armor-hit", "--piece", "shield", "--attack", "melee", "--faces", "5")["shield"] is False
    code, out, err = furnace("armor-hit", "--piece", "helmet", "--attack", "melee", "--magic", "1", "--faces", "5")
    assert (code, out) == (2, "") and err.startswith("error: ") and "helmet" in err


@pytest.mark.rule("M-ARM-05")
def test_M_ARM_05_neglected_armor_saves_worse(furnace: Furnace) -> None:
    """M-ARM-05, AMB-100 (item_neglect): −1 to the armor's item saves per year (tropical metal or cloth: per month)
    untended.

    Chain-mail 2 years untended: d20 11 − 2 = 9 vs 10 → a point lost (11 holds with item_neglect off); boiled
    leather +1, 1 year untended: 12 + 1 − 1 = 12 vs 12 → holds."""
    worn = furnace.json("armor-hit", "--piece", "armor", "--armor", "chain-mail", "--attack", "melee",
                        "--neglect", "2", "--faces", "11")
    assert (worn["result"], worn["save"]["roll"]["total"], worn["save"]["roll"]["variables"]) == (
        "damaged", 9, {"MAGIC": 0, "NEGLECT": 2})
    tended = furnace.json("armor-hit", "--piece", "armor", "--armor", "chain-mail", "--attack", "melee",
                          "--neglect", "2", "--faces", "11", "--option", "item_neglect=false")
    assert (tended["result"], tended["save"]["roll"]["total"]) == ("saved", 11)
    leather = furnace.json("armor-hit", "--piece", "armor", "--armor", "boiled-leather", "--attack", "melee",
                           "--magic", "1", "--neglect", "1", "--faces", "12")
    assert (leather["result"], leather["save"]["roll"]["total"], leather["save"]["target"]) == ("saved", 12, 12)


@pytest.mark.rule("M-CRIT-01")
def test_M_CRIT_01_a_natural_20_on_the_unarmored_deals_maximum_damage(furnace: Furnace) -> None:
    """M-CRIT-01, AMB-101: a natural 20 that hits a target wearing no armor deals the weapon's maximum damage and
    nothing else; against armor the damage is rolled and the armor saves (M-ARM-01).

    Vala's arming sword, 1d8+1, against the unarmored Bandit: no damage die, 9 damage (30 → 21 HP). Against a
    Bandit in light armor: [3] + 1 = 4, and the armor saves, d20 15 vs 10."""
    bare = fight(furnace, vala(), (6, 1, 20, 2))
    crit = one(bare, "middle_sea_crit")
    assert crit["data"] == {"round": 1, "outcome": "unarmored", "damage": 9} and crit["rules"] == ["M-CRIT-01"]
    assert events(bare, "damage_roll") == [] and events(bare, "armor_save") == []
    assert (one(bare, "damage")["data"]["hp_before"], one(bare, "damage")["data"]["hp_after"]) == (30, 21)
    dressed = fight(furnace, vala(), (6, 1, 20, 3, 15, 2), monster={**BANDIT, "armor": "light"})
    assert one(dressed, "middle_sea_crit")["data"]["outcome"] == "armored"
    assert natural_rolls(one(dressed, "middle_sea_crit")) == [("DAM", 4, [3])]
    assert one(dressed, "armor_save")["data"]["result"] == "saved" and one(dressed, "damage")["data"]["hp_after"] == 26


# -- M-MOOK-02 ------------------------------------------------------------------------------------------------

RAT: dict[str, Any] = {"name": "Rat", "count": 3, "hp": 4, "hd": "1/2", "damage": "1d3", "weapon": "bite",
                       "zone": "CLOSE", "ac": 10}


@pytest.mark.rule("M-MOOK-02")
def test_M_MOOK_02_a_fighter_attacks_once_a_level_against_creatures_under_1_HD(furnace: Furnace) -> None:
    """M-MOOK-02 (mook_extra_attacks, on under middle-sea): a Fighter attacks once per level with each attack
    action against creatures under 1 HD.

    Vala (level 3) against three rats of ½ HD, 4 HP each: three ATK in her one action, d20 10 + 3 = 13 and 1d8
    [3] + 1 = 4 each, and the three are out in round 1. Against rats of 1 HD, or with the option off, one ATK;
    the two rats left bite (d20 2, 2) and miss. In a campaign, the bestiary's giant rats (HD 1/2) fall the same."""
    swings = (10, 3, 10, 3, 10, 3)
    mooks = fight(furnace, vala(), (6, 1, *swings), monster=RAT)
    assert attacks_by(mooks, "Vala") == [10, 10, 10] and mooks["winner"] == "party"
    assert [e["data"]["hp_after"] for e in events(mooks, "damage")] == [0, 0, 0]
    for one_attack in ({"monster": {**RAT, "hd": 1}}, {"monster": RAT}):
        more = () if one_attack["monster"]["hd"] == 1 else ("--option", "mook_extra_attacks=false")
        single = fight(furnace, vala(), (6, 1, 10, 3, 2, 2), *more, **one_attack)
        assert attacks_by(single, "Vala") == [10] and len(events(single, "miss")) == 2
    furnace.campaign("middle-sea", vala())
    kept = furnace.json("fight", "--party", "all", "--monsters", "giant rat x3", "--rounds", "1",
                        "--faces", faces(4, 4, 4, 6, 1, *swings))
    assert [e["data"]["total"] for e in events(kept, "hit")] == [13, 13, 13]
    assert [e["data"]["hp_after"] for e in events(kept, "damage")] == [0, 0, 0]


# -- the tables -------------------------------------------------------------------------------------------------

@pytest.mark.rule("M-TAB-04")
def test_M_TAB_04_weapon_damage_by_class(furnace: Furnace) -> None:
    """M-TAB-04: one row per weapon class; sharp, strung and pole make an item save (metal 10, thin rope 12, thick
    wood 12) with magic and neglect; blunt and hurled-or-unarmed a d20 + DEX score roll of 20, no neglect.
    `weapon-mishap` reads the same rows: a strung bow's d20 11 vs 12 snaps the string (the weapon is lost)."""
    table = furnace.json("table", "show", "weapon-damage")
    rows = {r["key"]: r["data"] for r in table["rows"]}
    assert table["id"] == "M-TAB-04" and list(rows) == ["sharp", "blunt", "strung", "pole", "hurled-or-unarmed"]
    assert [rows[k]["material"] for k in ("sharp", "strung", "pole")] == ["metal", "thin rope", "thick wood"]
    assert {k: (d["test"], d["neglect_applies"]) for k, d in rows.items()} == {
        "sharp": ("item_save", True), "blunt": ("dex_roll", False), "strung": ("item_save", True),
        "pole": ("item_save", True), "hurled-or-unarmed": ("dex_roll", False)}
    assert rows["blunt"]["succeeds_at"] == 20 and rows["strung"]["wet_trigger_naturals"] == [1, 2]
    bow = furnace.json("weapon-mishap", "--class", "strung", "--faces", "11")
    assert (bow["outcome"], bow["save"]["material"], bow["save"]["target"], bow["weapon"]["broken"]) == (
        "snapped", "thin_rope", 12, True)


@pytest.mark.rule("M-TAB-05")
def test_M_TAB_05_armor_damage_by_attack_form(furnace: Furnace) -> None:
    """M-TAB-05: melee or hurled → save vs crushing blow, missile or firearm → vs normal blow; the piece by the
    shield first, else a d6 (1 the helmet); a failure costs a point, a shield or helmet is destroyed. A hurled
    attack's natural 20 on a helmet: d20 9 vs 10 (crushing blow) → destroyed; a firearm's: 9 vs 8 → holds."""
    table = furnace.json("table", "show", "armor-damage")
    rows = {r["key"]: r["data"] for r in table["rows"]}
    assert table["id"] == "M-TAB-05" and {k: d["save_vs"] for k, d in rows.items()} == {
        "melee-or-hurled": "crushing_blow", "missile": "normal_blow"}
    assert rows["missile"]["piece_roll"] == {"die": "d6", "helmet": [1], "armor": [2, 3, 4, 5, 6]}
    assert [e["action"] for e in rows["melee-or-hurled"]["on_fail_by_piece"]["helmet"]] == ["destroy"]
    hurled = furnace.json("armor-hit", "--piece", "helmet", "--attack", "hurled", "--faces", "9")
    assert (hurled["save"]["form"], hurled["save"]["target"], hurled["result"], hurled["helmet"]) == (
        "crushing_blow", 10, "destroyed", False)
    shot = furnace.json("armor-hit", "--piece", "helmet", "--attack", "firearm", "--faces", "9")
    assert (shot["save"]["form"], shot["save"]["target"], shot["result"], shot["helmet"]) == (
        "normal_blow", 8, "saved", True)


@pytest.mark.rule("M-TAB-06")
def test_M_TAB_06_orisons_who_may_and_how_many(furnace: Furnace) -> None:
    """M-TAB-06 (AMB-102): a priest without a class, 1 a day, clerical orisons except Candle, Find a Stray and
    Ripen; a polytheist one, druidic except Candle, Find a Stray and Ceremony: Oath (or, read the other way,
    Ripen); a clerical or druidic caster, 2 orisons for a 1st-level slot; Clerics, Paladins, Druids, Monks and
    Illusionists only, 1 free orison a day, unprepared."""
    table = furnace.json("table", "show", "orisons")
    rows = {r["key"]: r["data"] for r in table["rows"]}
    assert table["id"] == "M-TAB-06"
    assert rows["non-classed-priest"] == {"list": "clerical", "excluded": ["Candle", "Find a Stray", "Ripen"],
                                          "per_day": 1}
    poly = rows["non-classed-polytheist-priest"]
    assert (poly["list"], poly["excluded"], poly["per_day"]) == ("druidic", ["Candle", "Find a Stray",
                                                                             "Ceremony: Oath"], 1)
    assert poly["alternative"]["excluded"] == ["Candle", "Find a Stray", "Ripen"]
    assert rows["clerical-or-druidic-caster"] == {"orisons_per_first_level_slot": 2}
    assert rows["free-orison"] == {"classes": ["Cleric", "Paladin", "Druid", "Monk", "Illusionist"],
                                   "free_per_day": 1, "needs_preparation": False}


@pytest.mark.rule("M-TAB-07")
def test_M_TAB_07_coins_gems_and_gp_equivalents_weigh(furnace: Furnace) -> None:
    """M-TAB-07 (M-COIN-01, AMB-105): a coin or a gem weighs 0.01 lb (100 to the pound), a gp-equivalent 0.1 lb.
    In a middle-sea campaign Vala's purse of 1500 coins weighs 15 lb = 150 gpe (1.5 Furnace loads, CF-44)."""
    rows = {r["key"]: r["data"] for r in furnace.json("table", "show", "coin-weight")["rows"]}
    assert {k: (d["per_pound"], d["weight_lb"], d["gpe"]) for k, d in rows.items()} == {
        "coin": (100, 0.01, 0.1), "gem": (100, 0.01, 0.1), "gp-equivalent": (10, 0.1, 1)}
    furnace.campaign("middle-sea", vala())
    purse = one(furnace.json("purse", "Vala", "+1500"), "coins")["data"]
    assert (purse["after"], purse["weighed"]) == (1500, {"coins": 1500, "gems": 0, "pounds": 15.0, "gpe": 150.0,
                                                         "load": 1.5})

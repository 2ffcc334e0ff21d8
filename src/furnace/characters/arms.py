"""Which arm holds what, and which arm cannot hold anything (M-BONE-01, M-SEVER-01).

A broken arm (M-TAB-02 rows 8 and 9: "no weapon, shield or other tool in the right arm") or a lost hand or arm
(M-TAB-03) holds nothing on that side. The Middle Sea chapter keeps the breaks and the severed limbs in
`Character.extensions["middle_sea"]` (`breaks` by location, `severed` a list of locations); a referee may also
write the lasting mark ("broken left arm") among the injuries. Nothing here imports the chapter: the keys are
read as plain data, so the model and the engine need no Middle Sea rules to honour a break.

A shield is borne on one arm, the left unless the referee chose the right (`extensions["gear"]["shield_arm"]`).
A one-handed weapon takes one free arm, a two-handed or a drawn ranged weapon both (our reading: a bow or a
sling is worked with both hands; a ranged weapon tagged Thrown is thrown with one).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from furnace.characters.character import Character, Weapon

Arm = Literal["right", "left"]
ARMS: tuple[Arm, Arm] = ("right", "left")
GEAR = "gear"                 # Character.extensions key of what she carries (coins, rations, the shield's arm)
SIDES: dict[str, Arm] = {"R. Arm": "right", "R. Hand": "right", "L. Arm": "left", "L. Hand": "left"}
MARKS: dict[str, Arm] = {"broken right arm": "right", "broken left arm": "left"}


def lame_arms(character: Character) -> dict[Arm, str]:
    """The arms that hold nothing, each with why: 'broken' (M-BONE-01) or 'severed' (M-SEVER-01)."""
    sea = character.extensions.get("middle_sea", {})
    out: dict[Arm, str] = {}
    for location in sea.get("breaks", {}) if isinstance(sea, dict) else {}:
        if location in SIDES:
            out[SIDES[location]] = "broken"
    for line in [*character.injuries, *character.until_rest]:
        for mark, arm in MARKS.items():
            if mark in line.casefold():
                out.setdefault(arm, "broken")
    for location in sea.get("severed", []) if isinstance(sea, dict) else []:
        if location in SIDES:
            out[SIDES[location]] = "severed"
    return out


def shield_arm(character: Character) -> Arm:
    """The arm her shield is (or would be) borne on: the left unless the referee chose the right."""
    arm = character.extensions.get(GEAR, {}).get("shield_arm", "left")
    return "right" if arm == "right" else "left"


def shield_borne(character: Character) -> bool:
    """She bears a shield on an arm that can hold it (a shield on a broken arm gives nothing, M-BONE-01)."""
    return character.shield and shield_arm(character) not in lame_arms(character)


def hands_needed(weapon: Weapon) -> int:
    """2 for a two-handed weapon or a drawn ranged weapon (a Thrown one takes 1), else 1 (a fist, a sword)."""
    tags = {t.casefold() for t in weapon.tags}
    if weapon.kind == "two-handed" or "heavy" in tags:
        return 2
    return 2 if weapon.kind == "ranged" and "thrown" not in tags else 1


def free_arms(character: Character) -> list[Arm]:
    """The arms that can hold a weapon: whole, and not bearing her shield."""
    lame = lame_arms(character)
    borne = shield_arm(character) if character.shield else None
    return [a for a in ARMS if a not in lame and a != borne]


def whole_arms(character: Character) -> list[Arm]:
    lame = lame_arms(character)
    return [a for a in ARMS if a not in lame]


def wieldable(character: Character, weapon: Weapon) -> bool:
    """Whether her arms let her use the weapon (M-BONE-01): a two-handed or drawn ranged weapon needs both arms
    whole (a shield is slung for it), a one-handed weapon one whole arm not bearing the shield; a fist is
    always there while one arm is whole."""
    if weapon.kind == "fist":
        return bool(whole_arms(character))
    if hands_needed(weapon) == 2:
        return len(whole_arms(character)) == 2
    return bool(free_arms(character))


def hurt_words(character: Character) -> str:
    """Her arms that hold nothing, in words: 'her left arm is broken'."""
    return " and ".join(f"her {arm} arm is {why}" for arm, why in lame_arms(character).items())


def why_not(character: Character, weapon: Weapon) -> str:
    """Why her arms cannot use the weapon, in words for a refusal ('' when they can)."""
    if wieldable(character, weapon):
        return ""
    hurt = hurt_words(character)
    if hands_needed(weapon) == 2:
        return f"the {weapon.name} takes both arms and {hurt}"
    borne = character.shield and shield_arm(character) not in lame_arms(character)
    return f"the {weapon.name} takes a free arm: {hurt}" + (
        f" and her {shield_arm(character)} arm bears her shield" if borne else "")

"""Conditions and modifiers in words: `PRONE` stays a condition's name, `MOD:atk_against:HARD` becomes
"attacks against it are HARD", a duration "until round 4", never a token."""

from __future__ import annotations

APPLIES = {
    "atk": "its attacks", "atk_against": "attacks against it", "next_atk": "its next attack",
    "next_atk_against": "the next attack against it", "ranged_atk": "its ranged attacks", "checks": "its CHECKs",
    "all_rolls": "all its rolls", "saves": "its SAVEs", "damage": "its damage", "ac": "its AC",
    "to_hit_and_damage": "its attacks and damage", "perception_sight": "its Perception by sight",
    "persuasion": "its Persuasion", "intimidation": "its Intimidation", "spellcheck": "its SPELLCHECKs",
    "morale": "its morale", "fear_saves": "its SAVEs against fear", "dex": "its DEX",
}
MODES = {"EASY": "EASY", "HARD": "HARD", "ADVANTAGE": "made with advantage",
         "DISADVANTAGE": "made with disadvantage", "BONUS": "changed"}
ENDINGS = {"rest": "until a rest", "stands": "until it stands", "cured": "until cured",
           "encounter": "to the end of the fight", "permanent": "for good", "repaired": "until repaired"}


def condition_words(name: str, value: int = 0) -> str:
    """A condition or modifier as a person says it."""
    if not name.startswith("MOD:"):
        return name.replace("_", " ")
    _, applies, mode = [*name.split(":"), "", ""][:3]
    what = APPLIES.get(applies, applies.replace("_", " "))
    if mode == "BONUS" and value:
        return f"{what} {value:+d}"
    if mode == "EXTRA":
        return f"extra dice on {what}"
    if applies == "attackers" and mode == "DAMAGE":
        return "its attackers take damage"
    verb = "are" if what.split()[-1].endswith("s") or what.startswith("attacks") else "is"
    return f"{what} {verb} {MODES.get(mode, mode.lower())}"


def ending_words(ending: str, until_round: int | None = None) -> str:
    if ending == "round" and until_round is not None:
        return f"until round {until_round}"
    return ENDINGS.get(ending, "for now")

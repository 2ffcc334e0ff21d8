"""The choices of a promotion that are not a class's list: a Human's swap of two scores (F-RACE-02, AMB-10) and
the starting kit's alternatives (F-TAB-40), each asked like the others (`furnace.campaign.picking`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from furnace.campaign.picking import ChoiceError, Choices, Open, Picker, a_or_an
from furnace.characters.character import Character
from furnace.events import Event
from furnace.rules.effects import ABILITIES, Ability
from furnace.rules.ruleset import Ruleset

NO_SWAP = "none"


def swap(c: Character, char_class: str, ch: Choices, rules: Ruleset, pick: Picker,
         ) -> tuple[Character, list[Event]]:
    """A Human may swap two scores once, at creation: a 0-level survivor who has not yet is asked before her
    class's choices (her INT counts her skills). `--random` takes her best score into her class's own save
    ability when that raises it, else no swap: said like any pick."""
    from furnace.characters.funnel import swap_scores

    may = bool(rules.tables.get("races").lookup(c.race).data.get("swap_scores")) and c.swapped is None
    if not may:
        if ch.swap:
            raise ChoiceError(f"only a Human swaps two scores, once, at creation (F-RACE-02, AMB-10): {c.name} is "
                              f"{a_or_an(c.race)}{' who has swapped already' if c.swapped else ''}", "swap", [])
        return c, []
    pair: tuple[str, ...] | None = ch.swap
    if pair is None and pick.random:
        pair = _best_swap(c, char_class, rules)
        pick.decided("swap", list(pair) or [NO_SWAP])
    elif pair is None:
        pick.open.append(Open("swap", "--swap", 1, (NO_SWAP, "two of " + "/".join(ABILITIES) + " as STR,CHA"),
                              "a Human may swap two ability scores once, after the 3d6 (F-RACE-02)", pick.stage))
        return c, []
    if not pair:
        return c, []
    return swap_scores(c, pair[0], pair[1])   # type: ignore[arg-type]


def _best_swap(c: Character, char_class: str, rules: Ruleset) -> tuple[str, ...]:
    own: Ability = rules.tables.get("classes").lookup(char_class).data["save_ability"]
    best = max(ABILITIES, key=lambda a: c.scores[a])
    return (own, best) if c.scores[best] > c.scores[own] else ()


def parse_swap(text: str) -> tuple[str, ...]:
    """`--swap STR,CHA` as ("STR", "CHA"); `--swap none` as () (she keeps her scores as rolled)."""
    if text.strip().lower() == NO_SWAP:
        return ()
    parts = tuple(p.strip().upper() for p in text.split(","))
    if len(parts) != 2 or parts[0] == parts[1] or any(p not in ABILITIES for p in parts):
        raise ChoiceError(f"--swap takes two different scores as STR,CHA (of {', '.join(ABILITIES)}) or "
                          f"{NO_SWAP}, not {text!r}", "swap", [NO_SWAP, *ABILITIES])
    return parts


def _held(gear: dict[str, Any]) -> set[str]:
    """The names of what a kit alternative holds: its weapons, its armor, a shield."""
    names = {str(w.get("name", "")).casefold() for w in gear.get("weapons", [])}
    return names | ({str(gear["armor"]).casefold()} if gear.get("armor") else set()) | (
        {"shield"} if gear.get("shield") else set())


def _two_handed_style(style: str | None, rules: Ruleset) -> bool:
    """The style wants a two-handed weapon (the 2H weapon master's reroll, F-FTR-04 (d)): no shield in her kit."""
    if style is None:
        return False
    row = next((r.data for r in rules.tables.get("fighting-styles").rows if r.data.get("name") == style), {})
    reroll = row.get("reroll")
    return isinstance(reroll, dict) and "two-handed" in str(reroll.get("applies_to", ""))


def kit(char_class: str, style: str | None, named: Sequence[str], rules: Ruleset, pick: Picker) -> list[int]:
    """Each pick of the class's example kit (F-TAB-40) with more than one alternative is asked: named (any case,
    or a part of the name only one alternative has: "two-handed", "scalemail"), picked with the dice, or open.
    A 2H weapon master is not offered the alternative with a shield."""
    data = rules.tables.get("starting-equipment").lookup(char_class.lower()).data
    choices: list[list[str]] = [[str(o) for o in options] for options in data["choices"]]
    gear = data.get("gear", {})
    no_shield = _two_handed_style(style, rules)
    offered = [[o for o in options if not (no_shield and gear.get(o, {}).get("shield"))] or options
               for options in choices]
    taken: dict[int, str] = {}
    for name in named:
        n, alternative = _kit_alternative(name, choices, gear, char_class)
        if alternative not in offered[n]:
            raise ChoiceError(f"a {style} wields a two-handed weapon: her kit has no {alternative!r} (F-FTR-04, "
                              f"F-TAB-40); take {' or '.join(offered[n])}", "kit", offered[n])
        if n in taken and taken[n] != alternative:
            raise ChoiceError(f"--kit names two alternatives of one pick: {taken[n]!r} and {alternative!r}", "kit",
                              choices[n])
        taken[n] = alternative
    picks = []
    for n, options in enumerate(choices):
        alternative = taken.get(n) or pick.one("kit", "--kit", None, offered[n],
                                               f"the {char_class} kit, pick {n + 1} (F-TAB-40)")
        picks.append(options.index(alternative))
    return picks


def _kit_alternative(name: str, choices: list[list[str]], gear: dict[str, Any], char_class: str) -> tuple[int, str]:
    """The pick and alternative a name means: the alternative's name (any case), a part of it only one has, or
    the name of a thing it holds ("warbow", "scale-mail")."""
    wanted = name.strip().casefold()
    every = [(n, o) for n, options in enumerate(choices) for o in options]
    found = [(n, o) for n, o in every if o.casefold() == wanted] or [
        (n, o) for n, o in every if wanted in _held(gear.get(o, {}))] or [
        (n, o) for n, o in every if wanted and wanted in o.casefold()]
    if not found:
        raise ChoiceError(f"{name!r} is not in the {char_class} kit (F-TAB-40): its alternatives are "
                          f"{', '.join(o for _, o in every)}", "kit", [o for _, o in every])
    if len(found) > 1:
        raise ChoiceError(f"{name!r} names more than one of the {char_class} kit's alternatives (F-TAB-40): "
                          f"{', '.join(o for _, o in found)}", "kit", [o for _, o in found])
    return found[0]

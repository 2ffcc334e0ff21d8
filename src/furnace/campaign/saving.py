"""A member's SAVE out of a fight, called by the referee: by ability, by what it is against, or her morale.

    save("Brakka", "fear", rng, dc=12)      # `furnace save Brakka fear --dc 12`

- an ability: d20 + her SAVE bonus (the ability's modifier, PROF when proficient, her state: short of sleep,
  drunk …);
- poison, paralysis, death, fear: the ability the profile reads it as (D-5, AMB-05: options save_vs_…), and a
  SAVE vs fear adds what her state gives against fear (Liquid Courage's +1, M-DRINK-01);
- morale: a PC's morale test is a WIS SAVE vs the ROOM DC (F-OPT-05, option pc_morale), with what her state
  gives her morale (Liquid Courage's +1, CF-45).

What a failure does is the referee's (REF-20, the hazard's own rule). The roll is logged as a fact; nothing else
changes but her player's Luck Dice: she may spend them on the SAVE she has seen (F-LUCK-03), given ahead
(`luck`), else her lasting standing answer decides (`furnace.campaign.luck.on_check`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from furnace.campaign.commands import cast_of, rules_of
from furnace.campaign.luck import counted, on_check
from furnace.campaign.state import CampaignError, CampaignState
from furnace.campaign.store import Command
from furnace.campaign.timekeeping import ClockFn
from furnace.dice import DiceSource
from furnace.events import Event, declare
from furnace.play.checks import Modifier, check
from furnace.play.combatant import from_character
from furnace.play.registry import state_modifiers
from furnace.rules.ruleset import Ruleset

ABILITIES = ("STR", "DEX", "CON", "INT", "WIS", "CHA")
AGAINST = ("poison", "paralysis", "death", "fear")
WHATS = (*ABILITIES, *AGAINST, "morale")

# a SAVE the referee called out of a fight: the `ability` rolled, what it is `against` (poison, fear … or morale),
# the `modifiers` added to the d20 (value, source), the `total` against the `dc`, whether she `saved`, the `natural`
SAVE_ROLL = declare("save_roll", rolls="actor", ability="public", against="public", modifiers="actor", total="actor",
                    dc="public", saved="public", natural="actor", luck_before="actor", luck_dice="actor",
                    example={"ability": "WIS", "against": "morale", "modifiers": [[1, "WIS"], [1, "Liquid Courage"]],
                             "total": 13, "dc": 12, "saved": True, "natural": 11})


def save(who: str, what: str, rng: DiceSource, *, dc: int = 12, luck: int | None = None) -> Command:
    """`who` makes a SAVE: an ability (STR … CHA), one against poison, paralysis, death or fear, or her morale.
    `luck`: the Luck Dice she spends on it once seen (None: her standing answer decides)."""
    wanted = what.strip()
    key = wanted.upper() if wanted.upper() in ABILITIES else wanted.lower()
    if key not in WHATS:
        raise CampaignError(f"a SAVE is by an ability ({', '.join(ABILITIES)}), against {', '.join(AGAINST)}, or "
                            f"morale; not {what!r}")
    if isinstance(dc, bool) or not isinstance(dc, int) or not 1 <= dc <= 60:
        raise CampaignError(f"the DC is a whole number from 1 to 60, not {dc!r}")

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        member = state.member(who)
        if member.status in ("dead", "retired"):
            raise CampaignError(f"{member.character.name} ({member.id}) is {member.status} and makes no SAVE")
        rules = rules_of(state)
        ability, against, mods = _bonus(member.character, key, rules)
        result = check(rng, dc, mods, kind="SAVE", label=f"{ability} SAVE", rules=rules)
        values: dict[str, Any] = {"ability": ability, "against": against, "total": result.total, "dc": dc,
                                  "saved": result.success, "natural": result.natural,
                                  "modifiers": [[m.value, m.source] for m in result.modifiers]}
        ids = ("F-OPT-05",) if against == "morale" else ("AMB-05",) if against else ()
        if _courage(mods):
            ids = (*ids, "M-DRINK-01")
        after, lucky, told = on_check(state, member, rng, rules, result, luck, death=against == "death")
        if lucky is not None:
            values |= lucky.values("saved")
            ids = (*ids, "F-LUCK-03")
        after, streak = counted(after, member, bool(values["saved"]), "SAVE", rules)
        return after, [Event(SAVE_ROLL, member.character.name, (), (result.roll,), values, ids, cast_of([member])),
                       *told, *streak]

    return run


def _bonus(character: Any, key: str, rules: Ruleset) -> tuple[str, str, list[Modifier]]:
    """The ability rolled, what the SAVE is against, and what is added to the d20."""
    if key == "morale":
        if not rules["pc_morale"]:
            raise CampaignError("a PC's morale SAVE is an optional rule, off in this campaign (option pc_morale, "
                                "F-OPT-05)")
        ability, against = "WIS", "morale"
    elif key in AGAINST:
        read = rules.save_vs(key)
        if read is None:
            raise CampaignError(f"this campaign's rules read no ability for a SAVE vs {key}")
        ability, against = str(read), key
    else:
        ability, against = key, ""
    fighter = from_character(character, "party", rules)
    mods = [Modifier(fighter.save_bonus(ability), f"{ability} SAVE")]     # type: ignore[arg-type]
    for part in state_modifiers(character):
        extra = part.morale if against == "morale" else part.fear_saves if against == "fear" else 0
        if extra:
            mods.append(Modifier(extra, part.source or "her state"))
    return ability, against, mods


def _courage(mods: list[Modifier]) -> bool:
    return any(m.source == "Liquid Courage" for m in mods)


def drinking(rng: DiceSource) -> Callable[[str], ClockFn]:
    """A character drinks: each chapter that counts a drink in this campaign applies it — Liquid Courage
    (M-DRINK-01, option liquid_courage: 1d4 HP, +1 morale and SAVEs vs fear, −1 to hit, for 4 hours on the clock)
    and being DRUNK (H-DRUG-02, option hazards_poison_drugs: −2 DEX and saves until she sobers up). With neither
    on, one error names both options."""
    from furnace.hazards.poison import drink as get_drunk
    from furnace.houserules.middle_sea.courage import drink as take_courage

    def fn(name: str) -> ClockFn:
        def run(view: Any, rules: Ruleset) -> tuple[Any, list[Event]]:
            if not rules["liquid_courage"] and not rules["hazards_poison_drugs"]:
                raise CampaignError("a drink counts in no chapter of this campaign: turn on liquid_courage "
                                    "(M-DRINK-01) or hazards_poison_drugs (H-DRUG-02), e.g. `furnace campaign "
                                    "override set liquid_courage=true`")
            events: list[Event] = []
            if rules["liquid_courage"]:
                view, told = take_courage(view, name, rng, rules)
                events += told
            if rules["hazards_poison_drugs"]:
                view, told = get_drunk(view, name, rules)
                events += told
            return view, events
        return run
    return fn

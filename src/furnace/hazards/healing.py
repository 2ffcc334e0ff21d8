"""Natural healing: the `hazards` healing model (H-HEAL-01..08, H-TAB-07, AMB-77, CF-32).

- a peaceful night at half HP or more: +1 (H-HEAL-01); below half a night alone heals nothing (AMB-77);
- a full day of rest, with food and water: +1d3 at half HP or more (H-HEAL-02); 1 below half (H-HEAL-03,
  the fragment read per AMB-77 and the option hazards_below_half_recovery); +1 in a comfortable bed (H-HEAL-05);
- a week of rest: every temporarily lowered score gets 1 point back, hunger and thirst losses 2 (H-HEAL-06,
  H-STARV-05);
- nothing in a hostile place when hazards_no_rest_in_dungeon is on (H-HEAL-07; `no_recovery`, which a campaign's
  rest applies under every healing model, CF-32); never above the maximum (H-HEAL-08). "At least half" is
  ceil(max / 2) (option half_hp_rounding).
- a character at 0 HP or less wakes after 1d6 hours (H-HEAL-04): `knock_out` puts "wake_up" on the clock.

`rest(character, "night" | "full_day" | "week", rng, rules)` of furnace.play.rest reaches this model when the
option healing_model is hazards; the place is read from extensions["hazards"] (`bed`, `hostile`), and in a
campaign from its flags (`rest_in_campaign`). Each rest ends what the Furnace long rest ends (`rest_ends`): the
"until rest" effects (D-7), the days toward the torso wound (D-8: a full day 1, a week 7, a night none), the
chapters' long-rest hooks.
"""

from __future__ import annotations

from furnace import dice
from furnace.characters.character import Character, CharacterError
from furnace.characters.facts import fact
from furnace.dice import DiceSource, RollResult
from furnace.events import Event, declare
from furnace.hazards.common import member, ruleset, stamp, state
from furnace.hazards.needs import needs
from furnace.hazards.scores import UNCONSCIOUS, recover
from furnace.play.clock import HOUR, Campaign, Fire, handler, schedule
from furnace.play.rest import HEALING_MODELS, RestFn, rest_ends
from furnace.rules.ruleset import Ruleset

KINDS = ("night", "full_day", "week")
# each is a long rest (the Furnace rest's ends: `rest_ends`); its days of rest toward the torso wound (D-8): a
# night's sleep on the road is no day of rest, a full day one, a week seven
REST_DAYS = {"night": 0, "full_day": 1, "week": 7}
HELPLESS = ("KNOCKED_DOWN", "CANT_USE_OBJECTS")     # while HP ≤ 0 after waking (H-HEAL-04)

# a rest's healing: each gain's amount and why (a code: peaceful_night, troubled_night, below_half_night, unfed,
# full_day, full_day_below_half, bed), and `hostile` when the place allowed none (H-HEAL-07)
REST_HEAL = declare("rest_heal", rest="public", hp_before="actor", hp_after="actor", hp_max="actor", gained="actor",
                    gains="actor", half="actor", capped="public", hostile="public",
                    example={"rest": "full_day", "hp_before": 5, "hp_after": 8, "hp_max": 10, "gained": 3,
                             "gains": [{"amount": 2, "why": "full_day"}, {"amount": 1, "why": "bed"}], "half": 5,
                             "capped": False, "hostile": False})
WAKE_UP = declare("wake_up", hp="actor", helpless="public", example={"hp": 0, "helpless": True})
# the rule behind each gain
GAIN_RULES = {"troubled_night": "H-HEAL-01", "below_half_night": "AMB-77", "peaceful_night": "H-HEAL-01",
              "unfed": "H-HEAL-02", "full_day": "H-HEAL-02", "full_day_below_half": "H-HEAL-03", "bed": "H-HEAL-05"}


def half_hp(character: Character, rules: Ruleset) -> int:
    """AMB-77: 'at least half' is HP ≥ ceil(max / 2) (floor with half_hp_rounding = floor)."""
    return -(-character.hp_max // 2) if rules["half_hp_rounding"] == "ceil" else character.hp_max // 2


def natural_rest(character: Character, kind: str, rng: DiceSource, rules: Ruleset | None = None, *,
                 bed: bool | None = None, hostile: bool | None = None, peaceful: bool = True,
                 ) -> tuple[Character, list[Event]]:
    """One rest of the hazards model; `bed` and `hostile` default to the character's Hazards state."""
    rules = ruleset(rules)
    if kind not in KINDS:
        raise CharacterError(f"a Hazards rest is one of {', '.join(KINDS)}, not {kind!r}")
    if not character.alive:
        raise CharacterError(f"{character.name} is dead ({character.dead}) and cannot rest")
    mine = state(character)
    bed = bool(mine.get("bed", False)) if bed is None else bed
    hostile = bool(mine.get("hostile", False)) if hostile is None else hostile
    if hostile and bool(rules["hazards_no_rest_in_dungeon"]):
        return no_recovery(character, kind, rng, rules)
    events: list[Event] = []
    character = rest_ends(character, rng, rules, events, long=True, days=REST_DAYS[kind])
    if kind == "week":
        fed = bool(needs(character)["ate"] and needs(character)["drank"])
        character, back = recover(character, 1, rules, fed)
        return character, events + back
    gains = _night(character, rules, peaceful) if kind == "night" else _full_day(character, rng, rules, bed)
    character, healed = _heal(character, kind, gains, rules)
    return character, events + healed


LONG_RESTS = frozenset({"long", "night", "full_day", "week", "day"})   # the rests that end what a long rest ends


def no_recovery(character: Character, kind: str, rng: DiceSource, rules: Ruleset) -> tuple[Character, list[Event]]:
    """H-HEAL-07 under any healing model (CF-32, option hazards_no_rest_in_dungeon): a rest in a hostile place
    heals nothing — no HP, no Hit Die rolled or given back, no day toward a wound — and still ends what a rest
    of its kind ends (`rest_ends`)."""
    events: list[Event] = []
    character = rest_ends(character, rng, rules, events, long=kind in LONG_RESTS, days=0)
    return character, [*events, fact(REST_HEAL, character, (), ("H-HEAL-07",), rest=kind, hp_before=character.hp,
                                     hp_after=character.hp, hp_max=character.hp_max, gained=0, gains=[],
                                     hostile=True)]


Gain = tuple[int, str, RollResult | None]       # the HP gained, why (a code), the roll


def _night(character: Character, rules: Ruleset, peaceful: bool) -> list[Gain]:
    """H-HEAL-01: a peaceful night at half HP or more heals 1."""
    if not peaceful:
        return [(0, "troubled_night", None)]
    if character.hp < half_hp(character, rules):
        return [(0, "below_half_night", None)]
    return [(1, "peaceful_night", None)]


def _full_day(character: Character, rng: DiceSource, rules: Ruleset, bed: bool) -> list[Gain]:
    """H-HEAL-02/03/05: +1d3 at half or more, 1 below half, +1 in a comfortable bed; food and water needed."""
    today = needs(character)
    if not (today["ate"] and today["drank"]):
        return [(0, "unfed", None)]
    if character.hp >= character.hp_max:
        return []
    gains: list[Gain] = []
    if character.hp >= half_hp(character, rules):
        roll = dice.roll("1d3", rng, label="full day of rest")
        gains.append((roll.total, "full_day", roll))
    elif rules["hazards_below_half_recovery"] == "one_hp_per_day":
        gains.append((1, "full_day_below_half", None))
    if bed:
        gains.append((1, "bed", None))
    return gains


def _heal(character: Character, kind: str, gains: list[Gain], rules: Ruleset) -> tuple[Character, list[Event]]:
    """Add the gains, never above the maximum (H-HEAL-08); HP above 0 ends the helplessness of H-HEAL-04."""
    before = character.hp
    total = sum(g[0] for g in gains)
    hp = max(before, min(character.hp_max, before + total))
    rolls = tuple(g[2] for g in gains if g[2] is not None)
    capped = before + total > character.hp_max
    cite = tuple(dict.fromkeys([*(GAIN_RULES[g[1]] for g in gains), *(["H-HEAL-08"] if capped else [])]))
    after = character.model_copy(update={"hp": hp})
    if hp > 0:
        after = after.model_copy(update={"conditions": [c for c in after.conditions if c not in HELPLESS]})
    return after, [fact(REST_HEAL, character, rolls, cite, rest=kind, hp_before=before, hp_after=hp,
                        hp_max=character.hp_max, gained=hp - before, half=half_hp(character, rules),
                        gains=[{"amount": g[0], "why": g[1]} for g in gains], capped=capped, hostile=False)]


def in_hostile_place(flags: dict[str, object], name: str) -> bool:
    """H-HEAL-07, REF-34: the campaign's `hostile` flag covers her (all, or a list of names)."""
    value = flags.get("hostile", False)
    return value is True or (isinstance(value, list | tuple | set | dict) and name in value)


def _flag(campaign: Campaign, flag: str, name: str) -> bool:
    value = campaign.flags.get(flag, False)
    return value is True or (isinstance(value, list | tuple | set | dict) and name in value)


def rest_in_campaign(campaign: Campaign, name: str, kind: str, rng: DiceSource, rules: Ruleset | None = None,
                     ) -> tuple[Campaign, list[Event]]:
    """A rest where the campaign's flags say: `hostile`, `bed`, and `troubled` (the night was not peaceful)."""
    character = member(campaign, name)
    after, events = natural_rest(character, kind, rng, rules, bed=_flag(campaign, "bed", name) or None,
                                 hostile=_flag(campaign, "hostile", name) or None,
                                 peaceful=not _flag(campaign, "troubled", name))
    return campaign.model_copy(update={"characters": {**campaign.characters, name: after}}), events


# -- waking from 0 HP or less (H-HEAL-04) ------------------------------------------------------------------------
def knock_out(campaign: Campaign, name: str, rng: DiceSource, rules: Ruleset | None = None,
              ) -> tuple[Campaign, list[Event]]:
    """H-HEAL-04: a character at 0 HP or less is unconscious and wakes after 1d6 hours ("wake_up")."""
    ruleset(rules)
    character = member(campaign, name)
    if character.hp > 0 or not character.alive:
        raise CharacterError(f"{name} is not at 0 HP or less and alive (HP {character.hp})")
    roll = dice.roll("1d6", rng, label="hours")
    conditions = [*character.conditions, *([] if "UNCONSCIOUS" in character.conditions else ["UNCONSCIOUS"])]
    campaign = campaign.model_copy(update={"characters": {
        **campaign.characters, name: character.model_copy(update={"conditions": conditions})}})
    campaign, entry = schedule(campaign, "wake_up", after=roll.total * HOUR, owner=name, label=f"{name} wakes up")
    return campaign, [fact(UNCONSCIOUS, character, (roll,), ("H-HEAL-04",), hp=character.hp, hours=roll.total,
                           entry=entry)]


@handler("wake_up")
def _wake_up(fire: Fire) -> None:
    character = fire.character()
    if not character.alive:
        return
    kept = [c for c in character.conditions if c != "UNCONSCIOUS"]
    helpless = [c for c in HELPLESS if c not in kept] if character.hp <= 0 else []
    fire.put(character.model_copy(update={"conditions": kept + helpless}))
    stamp(fire, [fact(WAKE_UP, character, (), ("H-HEAL-04",), hp=character.hp, helpless=character.hp <= 0)])


# -- the healing model, registered under its option value -----------------------------------------------------------
class _Kinds(dict[str, RestFn]):
    """The rests of the hazards model; an unknown kind is the user's error, named as such."""

    def __missing__(self, kind: str) -> RestFn:
        raise CharacterError(f"the hazards healing model rests by {', '.join(self)}, not {kind!r}")


def _rest_fn(kind: str) -> RestFn:
    def rest(character: Character, rng: DiceSource, rules: Ruleset | None = None) -> tuple[Character, list[Event]]:
        return natural_rest(character, kind, rng, rules)

    rest.__doc__ = f"A {kind.replace('_', ' ')} of the hazards healing model."
    return rest


HEALING_MODELS.add("hazards", _Kinds({kind: _rest_fn(kind) for kind in KINDS}))

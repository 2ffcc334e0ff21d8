"""The Middle Sea house rules (RULES.md PART M) as pure functions over immutable values.

- Healing (M-HEAL-01..03): the `middle-sea` healing model of `furnace.play.rest` (post_combat, hour, day).
- Grievous injuries for characters outside the encounter engine (M-GRIEV-01..10, M-BONE-01/02,
  M-SEVER-01, M-MOOK-01, D-4): `take_blow`, `grievous`, `schedule_grievous`, `wound`, `cure`.
- Weapon damage on a natural 1 (M-WPN-01..08): `weapon_mishap`, `pole_round`, `weapon_penalty`.
- Armor damage on a natural 20 (M-ARM-01..05, D-1): `armor_hit`; item saves (AMB-05/97, X-TAB-06): `item_save`.
- The crit against the unarmored (M-CRIT-01): `middle_sea_crit`. Liquid Courage (M-DRINK-01): `drink`.
- Coins (M-COIN-01): `coin_weight`. Orisons (M-ORIS-01..04): `orison_access`, `orisons_per_day`.
- The rules that need a book the documents do not contain: `EXTERNAL_RULES`, `register_plugin`, `use_rule`.

Randomness is passed in; each function returns the new state and the events that explain it, with their
rolls. The module keeps its own state in `Character.extensions["middle_sea"]`:

    hp_at_combat_start  the HP recorded by `enter_combat` (M-HEAL-01, AMB-90 a)
    breaks              {location: {count, weeks, injury, entry}}: broken bones and their clock entry
    timers              [{kind, amount, unit, entry}]: fatal wounds and bleeding not yet treated
    severed             [location]: limbs lost for good
    shield_damage       points a shield has lost (option middle_sea_shield_save_failure = one_point)
    courage             {hp, entry, to_hit, morale, fear_saves}: Liquid Courage in effect

What takes time is an entry on the campaign clock, handled here: `bone_heals`, `fatal_wound`,
`bleeding_out` and `courage_ends`.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from furnace import dice
from furnace.characters.abilities import modifier
from furnace.characters.character import Character, CharacterError, Weapon
from furnace.dice import DiceSource, RollResult
from furnace.errors import FurnaceError, UnknownNameError
from furnace.events import Event
from furnace.play.clock import (
    FIXED_UNITS,
    HOUR,
    Campaign,
    Fire,
    cancel,
    handler,
    remaining,
    reschedule,
    schedule,
    unit_seconds,
)
from furnace.play.rest import HEALING_MODELS
from furnace.rules.effects import (
    Condition,
    Death,
    Duration,
    Effect,
    Heal,
    Injury,
    Lasting,
    RefereePrompt,
    Save,
    effect_summary,
    parse_effect,
)
from furnace.rules.ruleset import Ruleset, load_ruleset
from furnace.rules.tables import Row, Table, TableRoll

MODULE = "middle_sea"
WEEK = FIXED_UNITS["week"]


class MiddleSeaError(FurnaceError):
    """A request the Middle Sea rules do not allow, or a value they cannot use."""


class ExternalRuleError(MiddleSeaError):
    """A Middle Sea rule whose content is in a book that is not among the sources (RULES.md Section D)."""


def _rules(rules: Ruleset | None) -> Ruleset:
    return rules or load_ruleset("middle-sea")


def state_of(character: Character) -> dict[str, Any]:
    """A copy of the state this module keeps on the character."""
    return copy.deepcopy(dict(character.extensions.get(MODULE, {})))


def with_state(character: Character, state: Mapping[str, Any]) -> Character:
    return character.model_copy(update={"extensions": {**character.extensions, MODULE: dict(state)}})


def _alive(character: Character) -> None:
    if not character.alive:
        raise CharacterError(f"{character.name} is dead ({character.dead})")


def _member(campaign: Campaign, name: str) -> Character:
    if name not in campaign.characters:
        raise UnknownNameError("character", name, sorted(campaign.characters))
    return campaign.characters[name]


def _put(campaign: Campaign, character: Character) -> Campaign:
    return campaign.model_copy(update={"characters": {**campaign.characters, character.name: character}})


def _added(items: Sequence[str], item: str) -> list[str]:
    return list(items) if item in items else [*items, item]


# -- M-HEAL-01..03: recovery of hit points --------------------------------------------------------------
def half_hp(character: Character, rules: Ruleset) -> int:
    """'At least half' the hit points (option half_hp_rounding, AMB-90): ceil or floor of max / 2."""
    half = Fraction(character.hp_max, 2)
    return math.ceil(half) if rules["half_hp_rounding"] == "ceil" else math.floor(half)


def _hit_die(character: Character, rng: DiceSource, rules: Ruleset, why: str) -> RollResult:
    die = character.hit_die(rules)
    return dice.roll(die, rng, label=f"{character.name} rolls a hit die ({die}) {why}")


def _healed(character: Character, roll: RollResult, cap: int, why: str) -> tuple[Character, Event]:
    """Heal the roll up to `cap` (no CON, AMB-90 d); HP already above the cap are not taken away."""
    hp = max(character.hp, min(cap, max(character.hp, 0) + roll.total))
    event = Event("heal", character.name, f"{why}: HP {character.hp} → {hp}", (roll,), before=character.hp,
                  after=hp, data={"cap": cap})
    return character.model_copy(update={"hp": hp}), event


def enter_combat(character: Character) -> Character:
    """Record the HP a character has as a combat begins: the post-combat roll stops there (AMB-90 a)."""
    return with_state(character, {**state_of(character), "hp_at_combat_start": character.hp})


def post_combat(character: Character, rng: DiceSource, rules: Ruleset | None = None,
                hp_at_start: int | None = None) -> tuple[Character, list[Event]]:
    """M-HEAL-01: after a combat in which it lost HP, one hit-die roll, capped at the HP it entered with."""
    rules = _rules(rules)
    _alive(character)
    state = state_of(character)
    recorded = state.pop("hp_at_combat_start", None)
    start = hp_at_start if hp_at_start is not None else recorded
    if start is None:
        raise MiddleSeaError(f"{character.name}: no HP recorded at the start of the combat; call enter_combat "
                             "when it begins or pass hp_at_start (M-HEAL-01)")
    after = with_state(character, state)
    if character.hp >= start:
        return after, [Event("heal", character.name, f"lost no HP in the combat ({character.hp} of {start}): "
                             "no recovery roll (M-HEAL-01)")]
    roll = _hit_die(character, rng, rules, "after the combat")
    after, event = _healed(after, roll, min(start, character.hp_max),
                           f"recovers after the combat, up to the {start} HP it entered with (M-HEAL-01)")
    return after, [event]


def _hour(character: Character, rng: DiceSource, rules: Ruleset, half: int) -> tuple[Character, Event]:
    cap = character.hp_max if rules["middle_sea_hourly_cap"] == "max_hp" else half
    roll = _hit_die(character, rng, rules, "for an hour of rest below half HP")
    return _healed(character, roll, cap, "an hour of rest below half HP (M-HEAL-02)")


def _end_until_rest(character: Character, events: list[Event], rules: Ruleset, *, full_day: bool,
                    ) -> tuple[Character, list[Event]]:
    """D-7: a rest ends the 'until rest' effects (an hour counts only under until_rest_ends_at any_rest)."""
    if character.until_rest and (full_day or rules["until_rest_ends_at"] == "any_rest"):
        events.append(Event("rest", character.name, "no longer: " + "; ".join(character.until_rest)))
        character = character.model_copy(update={"until_rest": []})
    return character, events


def rest_hour(character: Character, rng: DiceSource, rules: Ruleset | None = None,
              ) -> tuple[Character, list[Event]]:
    """M-HEAL-02: below half HP, an hour of rest gives one more hit-die roll; it may overshoot half (AMB-90)."""
    rules = _rules(rules)
    _alive(character)
    half = half_hp(character, rules)
    if character.hp >= half:
        events = [Event("rest", character.name, f"at or above half HP ({character.hp} of {character.hp_max}): an "
                        "hour of rest heals nothing; a full day gives a hit die (M-HEAL-03)")]
    else:
        character, event = _hour(character, rng, rules, half)
        events = [event]
    return _end_until_rest(character, events, rules, full_day=False)


def rest_day(character: Character, rng: DiceSource, rules: Ruleset | None = None,
             ) -> tuple[Character, list[Event]]:
    """M-HEAL-03: at or above half HP, a full day of rest gives one hit-die roll, capped at the maximum.

    A day begun below half is spent in hourly rests (M-HEAL-02) until half is reached; the daily roll
    starts with the next day (the day was not spent at half)."""
    rules = _rules(rules)
    _alive(character)
    half = half_hp(character, rules)
    events: list[Event] = []
    if character.hp < half:
        for _ in range(24):
            character, event = _hour(character, rng, rules, half)
            events.append(event)
            if character.hp >= half:
                break
    elif character.hp < character.hp_max:
        roll = _hit_die(character, rng, rules, "for a full day of rest")
        character, event = _healed(character, roll, character.hp_max, "a full day of rest at or above half HP "
                                   "(M-HEAL-03)")
        events.append(event)
    return _end_until_rest(character, events, rules, full_day=True)


HEALING_MODELS.add("middle-sea", {"post_combat": post_combat, "hour": rest_hour, "day": rest_day})


# -- M-GRIEV-01..10: grievous injury, death and dismemberment -------------------------------------------
VETO_TABLE = "house:grievous-vetoes"
DEFAULT_VETOES: dict[str, list[dict[str, Any]]] = {   # M-GRIEV-10's own examples; a referee's table replaces them
    "fire": [{"band": "broken_bone"}],
    "arrow": [{"band": "severed_limb", "locations": ["R. Arm", "L. Arm"]}],
}
ZERO_HP = {   # D-4, option middle_sea_zero_hp
    "knocked_down": ("KNOCKED_DOWN", "exactly 0 HP: knocked down, conscious and prone (D-4)"),
    "unconscious": ("UNCONSCIOUS", "exactly 0 HP: unconscious (the AD&D 1e reading, D-4)"),
    "conscious_limited": ("INCAPACITATED", "exactly 0 HP: conscious, but can do no more than crawl (AMB-91 a)"),
}


@dataclass(frozen=True)
class HeldCondition:
    name: str
    amount: int | None = None
    unit: str | None = None

    def describe(self) -> str:
        if self.unit is None:
            return self.name
        if self.unit.startswith("until_") or self.unit == "permanent":
            return f"{self.name} ({self.unit.replace('_', ' ')})"
        return f"{self.name} for {self.amount} {self.unit.replace('_', ' ')}(s)"


@dataclass(frozen=True)
class Timer:
    """A death that comes unless treated: a fatal wound (M-GRIEV-07) or bleeding (M-GRIEV-08)."""

    kind: str            # fatal_wound | bleeding
    amount: int
    unit: str            # exploration_turn | round
    entry: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "amount": self.amount, "unit": self.unit, "entry": self.entry}


@dataclass(frozen=True)
class Grievous:
    """What a blow did: the band, its effects (helmet variant applied), the rolls' results and the new character."""

    character: Character
    band: str   # hurt, unhurt, exactly_zero, out_of_fight, or a grievous band (second_wind … instant_death)
    total: int | None = None
    text: str = ""
    effects: tuple[Effect, ...] = ()
    helmet: bool = False
    helmet_variant: bool = False
    location: str | None = None
    location_roll: int | None = None
    heal_weeks: int | None = None
    repeat_break: bool = False
    timers: tuple[Timer, ...] = ()
    conditions: tuple[HeldCondition, ...] = ()
    vetoed: str | None = None
    referee_prompts: tuple[str, ...] = ()
    events: tuple[Event, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"band": self.band, "total": self.total, "text": self.text, "helmet": self.helmet,
                "helmet_variant": self.helmet_variant, "effects": [effect_summary(e) for e in self.effects],
                "location": self.location, "location_roll": self.location_roll, "heal_weeks": self.heal_weeks,
                "repeat_break": self.repeat_break, "timers": [t.to_dict() for t in self.timers],
                "conditions": [c.describe() for c in self.conditions], "vetoed": self.vetoed,
                "referee_prompts": list(self.referee_prompts), "hp": self.character.hp, "dead": self.character.dead,
                "events": [e.to_dict() for e in self.events]}


@dataclass
class _Wound:
    """The work area while a grievous result is applied (the public functions stay immutable)."""

    character: Character
    rng: DiceSource
    rules: Ruleset
    helmet: bool
    room_dc: int
    hit_die: str
    vetoes: Mapping[str, list[dict[str, Any]]]
    damage_type: str | None
    state: dict[str, Any]
    band: str = ""
    cause: str = ""
    row_data: dict[str, Any] = field(default_factory=dict)   # the grievous row's data (heal weeks)
    events: list[Event] = field(default_factory=list)
    conditions: list[HeldCondition] = field(default_factory=list)
    prompts: list[str] = field(default_factory=list)
    timers: list[Timer] = field(default_factory=list)
    amounts: dict[tuple[str, str], int] = field(default_factory=dict)
    location: str | None = None
    location_roll: int | None = None
    heal_weeks: int | None = None
    repeat_break: bool = False
    vetoed: str | None = None
    bleeding: bool = False
    last_save: bool | None = None
    stop: bool = False

    def log(self, kind: str, what: str, rolls: Sequence[RollResult] = (), **data: Any) -> None:
        self.events.append(Event(kind, self.character.name, what, tuple(rolls), data=data))

    def roll(self, expression: str, label: str, variables: Mapping[str, int | str] | None = None) -> RollResult:
        return dice.roll(expression, self.rng, variables, f"{self.character.name}: {label}")

    def update(self, **changes: Any) -> None:
        self.character = self.character.model_copy(update=changes)

    def amount(self, duration: Duration | None) -> tuple[int | None, tuple[RollResult, ...]]:
        """A duration's amount; one roll per expression and unit in a result (the bleeding and its death)."""
        if duration is None:
            return None, ()
        key = (duration.amount, duration.unit)
        if key in self.amounts:
            return self.amounts[key], ()
        r = self.roll(duration.amount, f"{duration.amount} {duration.unit.replace('_', ' ')}s")
        self.amounts[key] = r.total
        return r.total, (() if r.faces == () else (r,))


def vetoes_in_force(rules: Ruleset, vetoes: Mapping[str, list[dict[str, Any]]] | None = None,
                    ) -> dict[str, list[dict[str, Any]]]:
    """M-GRIEV-10 vetoes by damage type: given, or a referee's keyed table `house:grievous-vetoes` (row key = the
    damage type, data.veto = [{band, locations?}]), or the rule's own examples (fire, arrow)."""
    if vetoes is not None:
        return {k.lower(): list(v) for k, v in vetoes.items()}
    try:
        table = rules.tables.get(VETO_TABLE)
    except UnknownNameError:
        return DEFAULT_VETOES
    return {str(r.key).lower(): list(r.data.get("veto", [])) for r in table.rows}


def row_effects(row: Row, helmet: bool) -> tuple[list[Effect], bool]:
    """A row's effects, or its data.with_helmet variant when a helmet is worn (AMB-91 f)."""
    variant = row.data.get("with_helmet")
    if helmet and variant:
        return [parse_effect(e) for e in variant], True
    return row.effect_list(), False


def band_of(row: Row, rules: Ruleset) -> str:
    """The band of a grievous-injury row: data.band if a referee's table names it, else read from its effects."""
    if "band" in row.data:
        return str(row.data["band"])
    effects = row.effect_list()
    for e in effects:
        if isinstance(e, Injury):
            return {"broken-bone": "broken_bone", "severed-limb": "severed_limb"}.get(rules.tables.get(e.table).name,
                                                                                     "injury")
    if any(isinstance(e, Heal) for e in effects):
        return "second_wind"
    deaths = [e for e in effects if isinstance(e, Death)]
    if deaths:
        return "fatal_wound" if deaths[0].timer else "instant_death"
    names = [e.name for e in effects if isinstance(e, Condition)]
    for name, band in (("UNCONSCIOUS", "unconscious"), ("STUNNED", "stunned"), ("KNOCKED_DOWN", "knocked_down")):
        if name in names:
            return band
    return "other"


def _veto(w: _Wound, location: str | None) -> bool:
    """M-GRIEV-10: the referee's veto by damage type stops the result and asks for another (a referee prompt)."""
    if not w.damage_type:
        return False
    found = w.vetoes.get(w.damage_type) or w.vetoes.get(w.damage_type.rstrip("s")) or []
    for v in found:
        places = v.get("locations")
        if v.get("band") != w.band or (places and location not in places):
            continue
        where = f" to the {location}" if location else ""
        w.vetoed = (f"M-GRIEV-10: {w.damage_type} causes no {w.band.replace('_', ' ')}{where}; the referee "
                    "chooses another result")
        w.prompts.append(w.vetoed)
        w.log("referee", w.vetoed, referee_prompt=True, band=w.band, location=location)
        w.stop = True
        return True
    return False


def _heal(w: _Wound, e: Effect) -> None:
    """M-GRIEV-02, AMB-91 c: Second Wind heals one hit die + floor(level / 2) (option second_wind)."""
    assert isinstance(e, Heal)
    variables: dict[str, int | str] = {"HD": w.hit_die, "LVL": w.character.level}
    expr = dice.parse(e.dice)
    rolls: tuple[RollResult, ...] = ()
    if w.rules["second_wind"] == "max_hd":
        amount = expr.bounds(variables)[1]
    else:
        r = expr.roll(w.rng, variables, f"{w.character.name}: Second Wind {e.dice} (HD = {w.hit_die})")
        amount, rolls = r.total, (r,)
    before = w.character.hp
    hp = min(max(w.character.hp_max, before), max(before, 0) + amount)
    w.update(hp=hp)
    w.log("heal", f"Second Wind: heals {amount}, HP {before} → {hp} (M-GRIEV-02)", rolls, amount=amount)


def _condition(w: _Wound, e: Effect) -> None:
    assert isinstance(e, Condition)
    amount, rolls = w.amount(e.duration)
    held = HeldCondition(e.name, amount, e.duration.unit if e.duration else None)
    w.conditions.append(held)
    w.update(conditions=_added(w.character.conditions, e.name))
    w.log("condition", f"is {held.describe()}", rolls, condition=e.name, amount=amount, unit=held.unit)


def _death(w: _Wound, e: Effect) -> None:
    """Death now, or a timer (M-GRIEV-07: 1d6 exploration turns, AMB-92; M-GRIEV-08: bleeding, 2d6 rounds)."""
    assert isinstance(e, Death)
    if e.timer is None:
        w.update(dead=f"killed outright: {w.cause}")
        w.log("death", f"dies: {w.cause}", how=w.cause)
        return
    amount, rolls = w.amount(e.timer)
    kind = "bleeding" if w.bleeding else "fatal_wound"
    unit: str = e.timer.unit
    if kind == "fatal_wound" and unit == "exploration_turn":
        unit = str(w.rules["fatal_wound_timer_unit"])
    timer = Timer(kind, amount or 0, unit)
    w.timers.append(timer)
    w.state.setdefault("timers", []).append(timer.to_dict())
    w.log("death_timer", f"dies in {timer.amount} {unit.replace('_', ' ')}(s) unless {e.unless}", rolls,
          timer=kind, amount=timer.amount, unit=unit)


def _save(w: _Wound, e: Effect) -> None:
    """A helmet's save vs. death: the character's CON SAVE (D-5, AMB-94) vs the ROOM DC or hazard_save_dc."""
    assert isinstance(e, Save)
    ability = e.ability
    if ability is None and e.category in ("poison", "paralysis", "death", "fear"):
        ability = w.rules[f"save_vs_{e.category}"]
    if ability is None:
        _other(w, e)
        return
    c = w.character
    bonus = c.mod(ability) + (c.prof(w.rules) if ability in c.saves else 0)
    dc = dice.roll(e.dc, w.rng, {"ROOM_DC": w.room_dc}).total
    r = w.roll(f"d20+{bonus}" if bonus >= 0 else f"d20-{-bonus}", f"{ability} SAVE vs DC {dc}")
    ok = r.total >= dc
    w.log("save", f"{ability} SAVE {r.total} vs DC {dc}: {'saved' if ok else 'failed'}", (r,), saved=ok)
    _apply_list(w, e.on_success if ok else e.on_fail)
    w.last_save = ok


def _lasting(w: _Wound, e: Effect) -> None:
    assert isinstance(e, Lasting)
    w.update(injuries=_added(w.character.injuries, e.name))
    w.prompts += [s.prompt for s in e.effects if isinstance(s, RefereePrompt)]
    w.log("injury", f"lasting: {e.name}", lasting=e.name, effects=[effect_summary(s) for s in e.effects])


def _prompt(w: _Wound, e: Effect) -> None:
    assert isinstance(e, RefereePrompt)
    w.prompts.append(e.prompt)
    w.log("referee", e.prompt, referee_prompt=True)


def _other(w: _Wound, e: Effect) -> None:
    note = f": {e.note}" if e.note else ""
    w.log("effect", f"{effect_summary(e)}{note}")


def _injury(w: _Wound, e: Effect) -> None:
    """Roll the location (M-BONE-01 d10, M-SEVER-01 d12), check the referee's veto, then apply it."""
    assert isinstance(e, Injury)
    table = w.rules.tables.get(e.table)
    rolled = w.rules.tables.roll(table.id, w.rng, label=f"{w.character.name}: {table.name} location")
    w.location = str(rolled.row.data.get("location", rolled.row.span))
    w.location_roll = rolled.roll.total
    w.cause = f"{table.name} {rolled.roll.total}, {w.location}"
    w.log("location", f"{table.name} {rolled.roll.total}: {rolled.row.text}", (rolled.roll,), table=table.id,
          location=w.location)
    if _veto(w, w.location):
        return
    if table.name == "broken-bone":
        _break(w, rolled.row, w.location)
    elif table.name == "severed-limb":
        _sever(w, rolled.row, w.location)
    else:
        _apply_list(w, row_effects(rolled.row, w.helmet)[0])


def _averted(w: _Wound, row: Row) -> bool:
    """Apply a location row; True when its helmet variant was a save that succeeded (skull, head: AMB-94)."""
    effects, variant = row_effects(row, w.helmet)
    w.last_save = None
    _apply_list(w, effects)
    return variant and w.last_save is True


def _weeks(w: _Wound, key: str, default: str) -> str:
    return str(w.row_data.get(key, default))


def _break(w: _Wound, row: Row, location: str) -> None:
    """M-GRIEV-06, M-BONE-01, AMB-93: 2d4+9 weeks to heal; a repeat break there adds 1d4 weeks, no new effect."""
    breaks = w.state.setdefault("breaks", {})
    if location in breaks:
        r = w.roll(_weeks(w, "repeat_break_adds_weeks", "1d4"), f"another break in the {location}: weeks added")
        breaks[location]["count"] += 1
        breaks[location]["weeks"] += r.total
        w.heal_weeks, w.repeat_break = r.total, True
        w.log("broken_bone", f"another break in the {location}: +{r.total} weeks of healing, no further effect "
              "(M-GRIEV-06)", (r,), location=location, weeks_added=r.total)
        return
    if _averted(w, row):
        w.log("broken_bone", f"the helmet saves: the broken {location} is ignored (AMB-94)", location=location)
        return
    r = w.roll(_weeks(w, "heal_weeks", "2d4+9"), f"weeks for the {location} to heal")
    injury = next((e.name for e in row.effect_list() if isinstance(e, Lasting)), f"broken {location.lower()}")
    w.update(injuries=_added(w.character.injuries, injury))
    breaks[location] = {"count": 1, "weeks": r.total, "injury": injury, "entry": None}
    w.heal_weeks = r.total
    both = {"R. Leg", "L. Leg"} <= set(breaks)
    w.log("broken_bone", f"broken {location}: heals in {r.total} weeks (M-GRIEV-06)"
          + ("; both legs broken: crawls at 1\" (M-BONE-01)" if both else ""), (r,), location=location, weeks=r.total)


def _sever(w: _Wound, row: Row, location: str) -> None:
    """M-GRIEV-08, M-SEVER-01: the limb is lost for good; a helmet's save turns the head into STUNNED 1 round."""
    if _averted(w, row):
        w.log("severed_limb", "the helmet saves the head: stunned instead, no limb lost and no bleeding (AMB-94)")
        w.stop = True
        return
    if w.character.alive:
        w.state.setdefault("severed", []).append(location)


_APPLY: dict[str, Callable[[_Wound, Effect], None]] = {
    "heal": _heal, "condition": _condition, "death": _death, "save": _save, "lasting": _lasting,
    "referee_prompt": _prompt, "injury": _injury,
}


def _apply_list(w: _Wound, effects: Sequence[Effect]) -> None:
    for e in effects:
        if w.stop or not w.character.alive:
            return
        _APPLY.get(e.kind, _other)(w, e)


def _apply_row(w: _Wound, row: Row) -> tuple[list[Effect], bool]:
    effects, variant = row_effects(row, w.helmet)
    if variant:
        w.log("helmet", "wears a helmet: the helmet result applies (M-GRIEV-04/05, AMB-91 f)")
    w.bleeding = any(isinstance(e, Condition) and e.name == "BLEEDING" for e in effects)
    _apply_list(w, effects)
    return effects, variant


def _start(character: Character, rng: DiceSource, rules: Ruleset, *, helmet: bool | None, hit_die: str | None,
           damage_type: str | None, room_dc: int | None, vetoes: Mapping[str, list[dict[str, Any]]] | None,
           ) -> _Wound:
    return _Wound(character, rng, rules, helmet=character.helmet if helmet is None else helmet,
                  room_dc=int(rules["hazard_save_dc"]) if room_dc is None else room_dc,
                  hit_die=hit_die or character.hit_die(rules), vetoes=vetoes_in_force(rules, vetoes),
                  damage_type=damage_type.strip().lower() if damage_type else None, state=state_of(character))


def _result(w: _Wound, total: int, row: Row, effects: Sequence[Effect], variant: bool) -> Grievous:
    return Grievous(with_state(w.character, w.state), w.band, total, row.text, tuple(effects), w.helmet, variant,
                    w.location, w.location_roll, w.heal_weeks, w.repeat_break, tuple(w.timers),
                    tuple(w.conditions), w.vetoed, tuple(w.prompts), tuple(w.events))


def grievous(character: Character, excess: int, rng: DiceSource, rules: Ruleset | None = None,
             helmet: bool | None = None, *, hit_die: str | None = None, damage_type: str | None = None,
             room_dc: int | None = None, vetoes: Mapping[str, list[dict[str, Any]]] | None = None) -> Grievous:
    """M-GRIEV-01: HP to 0, roll 3d6 + excess on the grievous-injury table and apply the band.

    `helmet` defaults to the character's helmet flag; `hit_die` to its class die (Second Wind); `room_dc` to
    hazard_save_dc (a helmet's CON SAVE, AMB-94); `damage_type` is checked against the vetoes (M-GRIEV-10).
    Timers and bone healing are recorded on the character; `schedule_grievous` puts them on a clock."""
    rules = _rules(rules)
    _alive(character)
    if excess < 1:
        raise MiddleSeaError(f"the grievous injury roll needs an excess of 1 or more, not {excess} (M-GRIEV-01); "
                             "a blow that leaves exactly 0 HP is take_blow's (D-4)")
    w = _start(character.model_copy(update={"hp": 0}), rng, rules, helmet=helmet, hit_die=hit_die,
               damage_type=damage_type, room_dc=room_dc, vetoes=vetoes)
    rolled = rules.tables.roll("grievous-injury", rng, variables={"EXCESS": excess},
                               label=f"{character.name} grievous injury, 3d6 + {excess} excess")
    w.band, w.cause = band_of(rolled.row, rules), f"grievous injury {rolled.roll.total}"
    w.row_data = dict(rolled.row.data)
    w.log("grievous", f"grievous injury {rolled.roll.total}: {rolled.row.text}", (rolled.roll,), band=w.band,
          table=rolled.table.id, excess=excess)
    effects, variant = ([], False) if _veto(w, None) else _apply_row(w, rolled.row)
    return _result(w, rolled.roll.total, rolled.row, effects, variant)


def npc_rolls(rules: Ruleset, named: bool) -> bool:
    """M-MOOK-01, REF-42 (option npc_grievous): whether an NPC rolls on the grievous table."""
    return {"named_only": named, "all": True, "none": False}[str(rules["npc_grievous"])]


def take_blow(character: Character, damage: int, rng: DiceSource, rules: Ruleset | None = None, *,
              npc: bool = False, named: bool = False, helmet: bool | None = None, hit_die: str | None = None,
              damage_type: str | None = None, room_dc: int | None = None,
              vetoes: Mapping[str, list[dict[str, Any]]] | None = None) -> Grievous:
    """A blow under the Middle Sea rules: HP stop at 0; exactly 0 follows middle_sea_zero_hp (D-4); an NPC that
    is not `named` is out of the fight at 0 (M-MOOK-01); past 0 the excess is rolled (M-GRIEV-01). A character
    already at 0 rolls with the whole damage as excess (AMB-91 b)."""
    rules = _rules(rules)
    _alive(character)
    if damage < 0:
        raise MiddleSeaError(f"damage is 0 or more, not {damage}")
    before, left = character.hp, max(character.hp - damage, 0)
    hit = Event("damage", character.name, f"takes {damage}: HP {before} → {left}", before=before, after=left,
                data={"amount": damage})
    if damage == 0 or before > damage:
        return Grievous(character.model_copy(update={"hp": before - damage}), "hurt" if damage else "unhurt",
                        events=(hit,))
    if npc and not npc_rolls(rules, named):
        return _out_of_fight(character, hit)
    excess = damage - max(before, 0)
    if excess == 0:
        return _exactly_zero(character, rules, hit)
    result = grievous(character, excess, rng, rules, helmet, hit_die=hit_die, damage_type=damage_type,
                      room_dc=room_dc, vetoes=vetoes)
    return replace(result, events=(hit, *result.events))


def _exactly_zero(character: Character, rules: Ruleset, hit: Event) -> Grievous:
    name, what = ZERO_HP[str(rules["middle_sea_zero_hp"])]
    after = character.model_copy(update={"hp": 0, "conditions": _added(character.conditions, name)})
    return Grievous(after, "exactly_zero", conditions=(HeldCondition(name),),
                    events=(hit, Event("knocked_down", character.name, what, data={"condition": name})))


def _out_of_fight(character: Character, hit: Event) -> Grievous:
    prompt = ("M-MOOK-01: out of the fight at 0 HP with no grievous roll; the referee decides whether dead or "
              "disabled (CF-50)")
    after = character.model_copy(update={"hp": 0, "conditions": _added(character.conditions, "INCAPACITATED")})
    return Grievous(after, "out_of_fight", conditions=(HeldCondition("INCAPACITATED"),), referee_prompts=(prompt,),
                    events=(hit, Event("out_of_fight", character.name, prompt, data={"referee_prompt": True})))


# -- the clock: bones knit, fatal wounds and bleeding kill ------------------------------------------------
TIMER_KINDS = {"fatal_wound": "fatal_wound", "bleeding": "bleeding_out"}


def _schedule_timers(campaign: Campaign, name: str, state: dict[str, Any], rules: Ruleset,
                     events: list[Event]) -> tuple[Campaign, list[Timer]]:
    done: list[Timer] = []
    for t in state.get("timers", []):
        if t.get("entry") is not None:
            continue
        campaign, t["entry"] = schedule(campaign, TIMER_KINDS[t["kind"]], owner=name,
                                        after=int(t["amount"]) * unit_seconds(str(t["unit"]), rules),
                                        label=f"{name} dies of the {t['kind'].replace('_', ' ')} unless treated",
                                        data={"timer": t["kind"]})
        done.append(Timer(t["kind"], int(t["amount"]), str(t["unit"]), t["entry"]))
        events.append(Event("clock", name, f"on the clock: death from the {t['kind'].replace('_', ' ')} in "
                            f"{t['amount']} {str(t['unit']).replace('_', ' ')}(s) (entry #{t['entry']})"))
    return campaign, done


def _schedule_bone(campaign: Campaign, name: str, state: dict[str, Any], result: Grievous,
                   events: list[Event]) -> Campaign:
    bone = state.get("breaks", {}).get(result.location or "")
    if result.band != "broken_bone" or bone is None or result.heal_weeks is None:
        return campaign
    entry = bone.get("entry")
    if entry is not None and any(e.id == entry for e in campaign.clock.entries):
        if result.repeat_break:
            campaign = reschedule(campaign, entry, after=remaining(campaign, entry) + result.heal_weeks * WEEK)
            events.append(Event("clock", name, f"the {result.location} now heals {result.heal_weeks} week(s) "
                                f"later (entry #{entry})"))
        return campaign
    campaign, bone["entry"] = schedule(campaign, "bone_heals", owner=name, after=int(bone["weeks"]) * WEEK,
                                       label=f"{name}'s broken {result.location} heals",
                                       data={"location": result.location})
    events.append(Event("clock", name, f"on the clock: the {result.location} heals in {bone['weeks']} weeks "
                        f"(entry #{bone['entry']})"))
    return campaign


def schedule_grievous(campaign: Campaign, result: Grievous, rules: Ruleset | None = None,
                      ) -> tuple[Campaign, Grievous]:
    """Put a result on the campaign: the character, a `bone_heals` entry (moved later by a repeat break) and a
    `fatal_wound` or `bleeding_out` entry for each death timer not yet on the clock."""
    rules = _rules(rules)
    character = result.character
    state = state_of(character)
    events = list(result.events)
    campaign, timers = _schedule_timers(campaign, character.name, state, rules, events)
    campaign = _schedule_bone(campaign, character.name, state, result, events)
    character = with_state(character, state)
    return _put(campaign, character), replace(result, character=character, timers=tuple(timers) or result.timers,
                                              events=tuple(events))


def wound(campaign: Campaign, name: str, damage: int, rng: DiceSource, rules: Ruleset | None = None,
          **options: Any) -> tuple[Campaign, Grievous]:
    """`take_blow` on a campaign's character, then `schedule_grievous` (options as take_blow's)."""
    rules = _rules(rules)
    return schedule_grievous(campaign, take_blow(_member(campaign, name), damage, rng, rules, **options), rules)


@handler("bone_heals")
def _bone_heals(fire: Fire) -> None:
    """M-GRIEV-06, AMB-93: the location has knit; every break there and its effect end."""
    c = fire.character()
    state = state_of(c)
    location = str(fire.entry.data.get("location"))
    bone = state.get("breaks", {}).pop(location, None)
    if bone is None:
        return
    c = c.model_copy(update={"injuries": [i for i in c.injuries if i != bone.get("injury")]})
    fire.put(with_state(c, state))
    fire.log("bone_heals", c.name, f"the broken {location} has knit ({bone['count']} break(s), M-GRIEV-06)",
             location=location)


@handler("fatal_wound")
@handler("bleeding_out")
def _death_comes(fire: Fire) -> None:
    """M-GRIEV-07 / M-GRIEV-08: the time ran out with no cure."""
    c = fire.character()
    state = state_of(c)
    timers = state.get("timers", [])
    if not c.alive or not any(t.get("entry") == fire.entry.id for t in timers):
        return
    state["timers"] = [t for t in timers if t.get("entry") != fire.entry.id]
    how = ("bled to death from a severed limb (M-GRIEV-08)" if fire.entry.kind == "bleeding_out"
           else "died of a fatal wound: no Cure Serious or Critical Wounds in time (M-GRIEV-07)")
    fire.put(with_state(c.model_copy(update={"dead": how}), state))
    fire.log("death", c.name, how, how=how)


# -- cures: M-GRIEV-07, M-GRIEV-08, M-BONE-02, CF-47 -------------------------------------------------------
CURE_WORDS = (("cure serious", "cure_serious"), ("cure critical", "cure_critical"), ("cauter", "cauterise"),
              ("tourniquet", "tourniquet"), ("lay on hands", "lay_on_hands"))
STOPS = {"cure_serious": ("fatal_wound",), "cure_critical": ("bleeding", "fatal_wound"),
         "cauterise": ("bleeding",), "tourniquet": ("bleeding",)}
MENDS_BONES = ("cure_serious", "cure_critical")


def cure_kind(spell: str) -> str:
    """'Cure Serious Wounds', 'cure_critical', 'cauterize', 'tourniquet', 'lay on hands' → one cure kind."""
    key = " ".join(spell.lower().replace("_", " ").replace("-", " ").split())
    for prefix, kind in CURE_WORDS:
        if key.startswith(prefix):
            return kind
    raise MiddleSeaError(f"unknown cure {spell!r}: use cure serious, cure critical, cauterise, tourniquet or "
                         "lay on hands")


def cure(campaign: Campaign, name: str, spell: str, *, location: str | None = None, rules: Ruleset | None = None,
         approved: bool = False) -> tuple[Campaign, list[Event]]:
    """One cure, no HP: Cure Serious or Critical stops a fatal wound (M-GRIEV-07); cauterising, a tourniquet
    or Cure Critical (never Cure Serious) stops bleeding (M-GRIEV-08); else either spell mends one break, at
    `location` when given (M-BONE-02). Lay on Hands counts as Cure Serious once the referee approves (CF-47)."""
    rules = _rules(rules)
    c = _member(campaign, name)
    _alive(c)
    kind = cure_kind(spell)
    if kind == "lay_on_hands":
        if not rules["loh_counts_as_cure_serious"]:
            raise MiddleSeaError("Lay on Hands does not stand in for Cure Serious Wounds here "
                                 "(option loh_counts_as_cure_serious)")
        if not approved:
            return campaign, [Event("referee", name, "CF-47: a Lay on Hands cure counts as one Cure Serious Wounds "
                                    "if the referee approves it (cure(..., approved=True))",
                                    data={"referee_prompt": True})]
        kind = "cure_serious"
    state = state_of(c)
    timer = None if location else _first_timer(state, STOPS.get(kind, ()))
    if timer is not None:
        return _stop_timer(campaign, c, state, timer, kind)
    if kind in MENDS_BONES:
        return _mend(campaign, c, state, _break_to_mend(c, state, location), kind)
    raise MiddleSeaError(_nothing_to_cure(c, state, kind))


def _first_timer(state: dict[str, Any], kinds: Sequence[str]) -> dict[str, Any] | None:
    for kind in kinds:
        for t in state.get("timers", []):
            if t["kind"] == kind:
                return dict(t)
    return None


def _stop_timer(campaign: Campaign, c: Character, state: dict[str, Any], timer: dict[str, Any], kind: str,
                ) -> tuple[Campaign, list[Event]]:
    entry = timer.get("entry")
    if entry is not None and any(e.id == entry for e in campaign.clock.entries):
        campaign = cancel(campaign, entry)
    timers = state.get("timers", [])
    timers.remove(next(t for t in timers if t == timer))
    update: dict[str, Any] = {}
    if timer["kind"] == "bleeding":
        update["conditions"] = [x for x in c.conditions if x != "BLEEDING"]
    c = with_state(c.model_copy(update=update), state)
    what = ("the bleeding stops (M-GRIEV-08)" if timer["kind"] == "bleeding"
            else "the fatal wound is stopped; still unconscious until healed above 0 HP (M-GRIEV-07, AMB-92)")
    return _put(campaign, c), [Event("cure", c.name, f"{kind.replace('_', ' ')}: {what}; no HP come back",
                                     data={"cure": kind, "timer": timer["kind"]})]


def _break_to_mend(c: Character, state: dict[str, Any], location: str | None) -> str:
    breaks = state.get("breaks", {})
    if location is not None and location not in breaks:
        raise UnknownNameError(f"broken bone of {c.name}", location, sorted(breaks))
    if location is not None:
        return location
    if len(breaks) == 1:
        return str(next(iter(breaks)))
    if breaks:
        raise MiddleSeaError(f"{c.name} has breaks in {', '.join(sorted(breaks))}: name the location to mend")
    raise MiddleSeaError(_nothing_to_cure(c, state, "cure_serious"))


def _mend(campaign: Campaign, c: Character, state: dict[str, Any], location: str, kind: str,
          ) -> tuple[Campaign, list[Event]]:
    bone = state["breaks"][location]
    bone["count"] -= 1
    left = bone["count"]
    update: dict[str, Any] = {}
    if left <= 0:
        del state["breaks"][location]
        update["injuries"] = [i for i in c.injuries if i != bone.get("injury")]
        entry = bone.get("entry")
        if entry is not None and any(e.id == entry for e in campaign.clock.entries):
            campaign = cancel(campaign, entry)
    c = with_state(c.model_copy(update=update), state)
    rest = f"the {location} is whole again" if left <= 0 else f"{left} break(s) there still need a spell or time"
    return _put(campaign, c), [Event("cure", c.name, f"{kind.replace('_', ' ')} mends one break in the {location}: "
                                     f"{rest}; no HP come back (M-BONE-02)", data={"cure": kind, "location": location})]


def _nothing_to_cure(c: Character, state: dict[str, Any], kind: str) -> str:
    if kind == "cure_serious" and _first_timer(state, ("bleeding",)):
        return ("Cure Serious Wounds does not stop the bleeding of a severed limb: cauterise it, apply a tourniquet "
                "or cast Cure Critical Wounds (M-GRIEV-08)")
    return f"{c.name} has no fatal wound, bleeding or broken bone that {kind.replace('_', ' ')} treats"


# -- item saves: AMB-05, AMB-97, EXT-22 (X-TAB-06) ------------------------------------------------------------
ITEM_SAVE_TABLE = "X-TAB-06"
ATTACK_FORMS = {"melee": "crushing_blow", "hurled": "crushing_blow", "missile": "normal_blow",
                "firearm": "normal_blow"}


@dataclass(frozen=True)
class ItemSave:
    """d20 + magic bonus − neglect against the target for the material and attack form (meet or beat)."""

    material: str
    form: str
    roll: RollResult
    target: int
    source: str

    @property
    def saved(self) -> bool:
        return self.roll.total >= self.target

    def explain(self) -> str:
        return (f"{self.material.replace('_', ' ')} saves vs {self.form.replace('_', ' ')}: {self.roll.total} vs "
                f"{self.target} ({self.source}): {'saved' if self.saved else 'failed'}")

    def to_dict(self) -> dict[str, Any]:
        return {"material": self.material, "form": self.form, "roll": self.roll.to_dict(), "target": self.target,
                "source": self.source, "saved": self.saved}


def _item_table(rules: Ruleset) -> tuple[Table, bool]:
    """The item-save matrix in force and whether it is the packaged fallback."""
    if rules["item_save_model"] == "table":
        name = str(rules["item_save_table"])
        try:
            return rules.tables.get(name), False
        except UnknownNameError:
            raise MiddleSeaError(f"item_save_model is 'table' but no table {name!r} is loaded: load the AD&D "
                                 "item-save matrix (EXT-22) or set item_save_model: dc_fallback") from None
    table = rules.tables.get(ITEM_SAVE_TABLE)
    return table, rules.tables.source_of(table.id) == "packaged"


def _material(text: str) -> str:
    return "_".join(text.strip().lower().replace("-", " ").split())


def item_save_target(material: str, form: str, rules: Ruleset | None = None) -> tuple[int, str]:
    """The target number and where it comes from: the referee's matrix, X-TAB-06, or an item_save_dc option."""
    rules = _rules(rules)
    table, fallback = _item_table(rules)
    wanted = (f"{_material(material)}/{form}", f"*/{form}")
    row = next((r for r in table.rows if str(r.key).lower() in wanted), None)
    if row is None:
        raise MiddleSeaError(f"{table.id} has no item-save row for {wanted[0]} (nor {wanted[1]})")
    option = row.data.get("dc_option")
    if fallback and option:
        return int(rules[str(option)]), f"option {option}"
    return int(row.data["target"]), f"{table.id} {row.key}"


def item_save(material: str, form: str, rng: DiceSource, rules: Ruleset | None = None, *, magic: int = 0,
              neglect: int = 0, label: str = "") -> ItemSave:
    """An item's save vs crushing blow or normal blow (AMB-97); magic adds (M-WPN-07, M-ARM-04); neglect counts
    only when the option item_neglect is on (M-WPN-08, M-ARM-05)."""
    rules = _rules(rules)
    if form not in ("crushing_blow", "normal_blow"):
        raise MiddleSeaError(f"an item saves vs crushing_blow or normal_blow, not {form!r}")
    target, source = item_save_target(material, form, rules)
    neglect = neglect if rules["item_neglect"] else 0
    roll = dice.roll("d20+MAGIC-NEGLECT", rng, {"MAGIC": magic, "NEGLECT": neglect},
                     f"{label or _material(material)} saves vs {form.replace('_', ' ')} (target {target})")
    return ItemSave(_material(material), form, roll, target, source)


def neglect_penalty(*, years: int = 0, months: int = 0, tropical: bool = False, item: str = "weapon",
                    material: str = "metal") -> int:
    """M-WPN-08, M-ARM-05, AMB-100: −1 per year with fewer than 4 tendings; in the tropics −1 per month for
    weapons and metal or cloth armor (leather armor keeps the yearly count). Returned as a positive number."""
    if years < 0 or months < 0:
        raise MiddleSeaError("years and months of neglect are 0 or more")
    monthly = tropical and (item == "weapon" or _material(material) in ("metal", "cloth"))
    return months if monthly else years


def _matrix_data(rules: Ruleset, key: str) -> dict[str, Any]:
    table, _ = _item_table(rules)
    data = table.data.get(key) or rules.tables.get(ITEM_SAVE_TABLE).data.get(key) or {}
    return dict(data)


# -- M-WPN-01..08: weapon damage on a natural 1 --------------------------------------------------------------
WEAPON_CLASSES = ("sharp", "blunt", "strung", "pole", "hurled", "unarmed")
COMPASS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
IMPROVISED = "improvised"


@dataclass(frozen=True)
class Mishap:
    """What a natural 1 did to a weapon (or its wielder's balance)."""

    weapon: Weapon
    weapon_class: str
    outcome: str   # none, held, notched, slipped, snapped, cracked, off_balance
    events: tuple[Event, ...] = ()
    save: ItemSave | None = None
    roll: RollResult | None = None
    conditions: tuple[str, ...] = ()
    slip_feet: int | None = None
    direction: str | None = None
    segments_lost: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"weapon": self.weapon.model_dump(mode="json"), "class": self.weapon_class, "outcome": self.outcome,
                "penalty": weapon_penalty(self.weapon), "save": self.save.to_dict() if self.save else None,
                "roll": self.roll.to_dict() if self.roll else None, "conditions": list(self.conditions),
                "slip_feet": self.slip_feet, "direction": self.direction, "segments_lost": self.segments_lost,
                "events": [e.to_dict() for e in self.events]}


def weapon_penalty(weapon: Weapon) -> int:
    """M-WPN-02: −1 to hit and damage per notch, cumulative; AMB-95: −1 more for an improvised snapped piece."""
    return -(weapon.notches + (1 if IMPROVISED in weapon.tags else 0))


def mishap_class(weapon: Weapon, *, thrown: bool = False) -> str:
    """AMB-95: hurled if thrown this attack, else the weapon's class; unarmed takes the hurled branch."""
    if thrown:
        return "hurled"
    if weapon.weapon_class is None:
        raise MiddleSeaError(f"{weapon.name} has no weapon_class: give it one of {', '.join(WEAPON_CLASSES)} "
                             "(M-WPN-01, AMB-95)")
    return weapon.weapon_class


def dex_roll(dex_score: int, magic: int, rng: DiceSource, rules: Ruleset, label: str) -> RollResult:
    """M-WPN-03/06, AMB-96: d20 + the Dexterity score (option middle_sea_dex_roll) + magic; 20 or more holds."""
    if not 0 <= dex_score <= 20:
        raise MiddleSeaError(f"a Dexterity score runs 0 to 20, not {dex_score}")
    value = dex_score if rules["middle_sea_dex_roll"] == "score" else modifier(dex_score, rules.tables)
    return dice.roll("d20+DEX+MAGIC", rng, {"DEX": value, "MAGIC": magic},
                     f"{label}: d20 + Dexterity + magic, 20 holds")


def _weapon_save(weapon: Weapon, cls: str, rng: DiceSource, rules: Ruleset, neglect: int) -> ItemSave:
    material = str(_matrix_data(rules, "weapon_materials").get(cls, "metal"))
    return item_save(material, "crushing_blow", rng, rules, magic=weapon.magic_bonus, neglect=neglect,
                     label=weapon.name)


def _mishap(weapon: Weapon, cls: str, outcome: str, what: str, rolls: Sequence[RollResult], **kw: Any) -> Mishap:
    event = Event("weapon", weapon.name, what, tuple(rolls), data={"outcome": outcome, "class": cls})
    return Mishap(weapon, cls, outcome, (event,), **kw)


def _sharp(weapon: Weapon, dex: int, rng: DiceSource, rules: Ruleset, neglect: int) -> Mishap:
    """M-WPN-02: a failed save vs crushing blow (metal) adds a notch."""
    save = _weapon_save(weapon, "sharp", rng, rules, neglect)
    if save.saved:
        return _mishap(weapon, "sharp", "held", f"{save.explain()}: no harm", (save.roll,), save=save)
    after = weapon.model_copy(update={"notches": weapon.notches + 1})
    return _mishap(after, "sharp", "notched", f"{save.explain()}: a notch, {after.notches} now, "
                   f"{weapon_penalty(after)} to hit and damage (M-WPN-02)", (save.roll,), save=save)


def _blunt(weapon: Weapon, dex: int, rng: DiceSource, rules: Ruleset, neglect: int) -> Mishap:
    """M-WPN-03: below 20 the weapon slips and lands 2d6 feet away in a random direction (d8 compass)."""
    r = dex_roll(dex, weapon.magic_bonus, rng, rules, weapon.name)
    if r.total >= 20:
        return _mishap(weapon, "blunt", "held", f"keeps hold ({r.total})", (r,), roll=r)
    feet = dice.roll("2d6", rng, label=f"{weapon.name} slips: feet")
    way = dice.roll("d8", rng, label=f"{weapon.name} slips: direction (1 = N, clockwise)")
    direction = COMPASS[way.total - 1]
    return _mishap(weapon, "blunt", "slipped", f"slips from the grasp ({r.total}): lands {feet.total} feet away "
                   f"to the {direction} (M-WPN-03)", (r, feet, way), roll=r, slip_feet=feet.total, direction=direction)


def _strung(weapon: Weapon, dex: int, rng: DiceSource, rules: Ruleset, neglect: int) -> Mishap:
    """M-WPN-04: the string (thin rope) saves vs crushing blow or snaps, destroying the weapon."""
    save = _weapon_save(weapon, "strung", rng, rules, neglect)
    if save.saved:
        return _mishap(weapon, "strung", "held", f"{save.explain()}: the string holds", (save.roll,), save=save)
    return _mishap(weapon.model_copy(update={"broken": True}), "strung", "snapped",
                   f"{save.explain()}: the string snaps and the weapon is ruined (M-WPN-04)", (save.roll,), save=save)


def _pole(weapon: Weapon, dex: int, rng: DiceSource, rules: Ruleset, neglect: int) -> Mishap:
    """M-WPN-05: thick wood saves vs crushing blow or cracks; a cracked haft that fails snaps."""
    save = _weapon_save(weapon, "pole", rng, rules, neglect)
    if save.saved:
        return _mishap(weapon, "pole", "held", f"{save.explain()}: the haft holds", (save.roll,), save=save)
    if weapon.cracked:
        return _mishap(weapon.model_copy(update={"broken": True}), "pole", "snapped",
                       f"{save.explain()}: the cracked haft snaps; the weapon is unusable (M-WPN-05)", (save.roll,),
                       save=save)
    return _mishap(weapon.model_copy(update={"cracked": True}), "pole", "cracked",
                   f"{save.explain()}: the haft cracks; it saves every round it is used (M-WPN-05)", (save.roll,),
                   save=save)


def _hurled(weapon: Weapon, dex: int, rng: DiceSource, rules: Ruleset, neglect: int) -> Mishap:
    """M-WPN-06, AMB-99: below 20 off-balance until the next round: no DEX or shield AC, loses 1d4 segments
    (option off_balance_segments: under Furnace initiative it acts last instead)."""
    r = dex_roll(dex, weapon.magic_bonus, rng, rules, weapon.name)
    if r.total >= 20:
        return _mishap(weapon, "hurled", "held", f"keeps balance ({r.total})", (r,), roll=r)
    if rules["off_balance_segments"] == "segments":
        seg = dice.roll("1d4", rng, label="segments lost next round")
        return _mishap(weapon, "hurled", "off_balance", f"off-balance ({r.total}): no DEX or shield AC, loses "
                       f"{seg.total} segment(s) next round (M-WPN-06)", (r, seg), roll=r,
                       conditions=("OFF_BALANCE",), segments_lost=seg.total)
    return _mishap(weapon, "hurled", "off_balance", f"off-balance ({r.total}): no DEX or shield AC and acts last "
                   "next turn (M-WPN-06, AMB-99)", (r,), roll=r, conditions=("OFF_BALANCE", "LAST_TO_ACT"))


_MISHAPS: dict[str, Callable[[Weapon, int, DiceSource, Ruleset, int], Mishap]] = {
    "sharp": _sharp, "blunt": _blunt, "strung": _strung, "pole": _pole, "hurled": _hurled, "unarmed": _hurled,
}


def weapon_mishap(weapon: Weapon, dex_score: int, rng: DiceSource, rules: Ruleset | None = None,
                  wet: bool = False, neglect: int = 0, *, natural: int = 1, thrown: bool = False) -> Mishap:
    """M-WPN-01: a natural 1 to hit damages the weapon by its class (a wet string also on a natural 2).

    `neglect` is the item-save penalty (see `neglect_penalty`); it never touches the DEX rolls (M-WPN-08).
    The magic bonus adds to every save and DEX roll (M-WPN-07)."""
    rules = _rules(rules)
    if weapon.broken:
        raise MiddleSeaError(f"{weapon.name} is already broken")
    cls = mishap_class(weapon, thrown=thrown)
    if not (natural == 1 or (natural == 2 and wet and cls == "strung")):
        why = "a natural 2 harms only a wet string" if natural == 2 else f"a natural {natural} harms no weapon"
        return _mishap(weapon, cls, "none", f"{why} (M-WPN-01, M-WPN-04)", ())
    return _MISHAPS[cls](weapon, dex_score, rng, rules, neglect)


def pole_round(weapon: Weapon, rng: DiceSource, rules: Ruleset | None = None, *, neglect: int = 0) -> Mishap:
    """M-WPN-05: each round a cracked pole weapon is used it saves vs crushing blow (thick wood) or snaps."""
    rules = _rules(rules)
    if not weapon.cracked or weapon.broken:
        raise MiddleSeaError(f"{weapon.name} is not a cracked, unbroken weapon: nothing to save (M-WPN-05)")
    return _pole(weapon, 0, rng, rules, neglect)


def snapped_pieces(weapon: Weapon, rules: Ruleset | None = None) -> tuple[Weapon, Weapon]:
    """M-WPN-05, AMB-95: a snapped haft gives a half-haft (a club −1) and a polearm head (a hand axe −1)."""
    rules = _rules(rules)
    damage = str(rules.tables.get("weapons").lookup("simple-one-handed").data["damage"])
    tags = [IMPROVISED]
    return (Weapon(name=f"half-haft of the {weapon.name} (club −1)", damage=damage, weapon_class="blunt", tags=tags),
            Weapon(name=f"head of the {weapon.name} (hand axe −1)", damage=damage, weapon_class="sharp", tags=tags))


# -- M-ARM-01..05: armor damage on a natural 20 ---------------------------------------------------------------
PIECES = ("armor", "shield", "helmet")


@dataclass(frozen=True)
class ArmorHit:
    character: Character
    piece: str | None
    result: str   # no_armor, saved, damaged, destroyed, lost_plus
    events: tuple[Event, ...] = ()
    piece_roll: RollResult | None = None
    save: ItemSave | None = None
    protection_left: int | None = None

    def to_dict(self) -> dict[str, Any]:
        c = self.character
        return {"piece": self.piece, "result": self.result, "protection_left": self.protection_left,
                "piece_roll": self.piece_roll.to_dict() if self.piece_roll else None,
                "save": self.save.to_dict() if self.save else None,
                "armor": c.armor, "armor_damage": c.armor_damage, "shield": c.shield, "shield_magic": c.shield_magic,
                "helmet": c.helmet, "events": [e.to_dict() for e in self.events]}


def _wears_armor(character: Character) -> bool:
    return character.armor not in (None, "unarmored")


def pick_piece(has_shield: bool, has_armor: bool, has_helmet: bool, rng: DiceSource, rules: Ruleset | None = None,
               *, shield_applies: bool = True, who: str = "the target") -> tuple[str | None, RollResult | None]:
    """M-ARM-01, D-1, AMB-98: the shield first if it counts against this foe; else a d6 (helmet_hit_chance in 6
    hits the helmet when one is worn), else the body armor. No die is rolled when only one piece can be hit."""
    rules = _rules(rules)
    if has_shield and shield_applies:
        return "shield", None
    if not has_armor:
        return ("helmet" if has_helmet else None), None
    if not has_helmet:
        return "armor", None
    r = dice.roll("d6", rng, label=f"{who}: which piece takes the blow (1 = helmet)")
    return ("helmet" if r.total <= int(rules["helmet_hit_chance"]) else "armor"), r


def choose_piece(character: Character, rng: DiceSource, rules: Ruleset | None = None, *,
                 shield_applies: bool = True) -> tuple[str | None, RollResult | None]:
    """`pick_piece` for a character's shield, body armor and helmet."""
    return pick_piece(character.shield, _wears_armor(character), character.helmet, rng, rules,
                      shield_applies=shield_applies, who=character.name)


def armor_points(character: Character, rules: Ruleset) -> int:
    """The body armor's whole protection (CF-40, option armor_damage_scale): F-TAB-21 protection, or its AC."""
    data = rules.tables.get("armor").lookup(character.armor or "unarmored").data
    key = "protection" if rules["armor_damage_scale"] == "protection_points" else "ac_base"
    return int(data.get(key) or 0)


def _damage_armor(c: Character, rules: Ruleset) -> tuple[Character, str, str, int | None]:
    total, lost = armor_points(c, rules), c.armor_damage + 1
    if total - lost <= 0:
        return (c.model_copy(update={"armor": None, "armor_damage": 0, "armor_magic": 0}), "destroyed",
                f"the {c.armor} loses its last point of protection and is destroyed (M-ARM-03)", 0)
    return (c.model_copy(update={"armor_damage": lost}), "damaged",
            f"the {c.armor} loses 1 point of protection: {total - lost} of {total} left (M-ARM-03)", total - lost)


def _damage_shield(c: Character, rules: Ruleset) -> tuple[Character, str, str, int | None]:
    if c.shield_magic > 0:
        return (c.model_copy(update={"shield_magic": c.shield_magic - 1}), "lost_plus",
                f"the magic shield loses one plus: +{c.shield_magic - 1} now (M-ARM-03)", None)
    if rules["middle_sea_shield_save_failure"] == "destroyed":
        return c.model_copy(update={"shield": False}), "destroyed", "the shield is destroyed (M-ARM-03, CF-41)", 0
    state = state_of(c)
    total = int(rules.tables.get("armor").lookup("shield").data.get("protection", 2))
    lost = int(state.get("shield_damage", 0)) + 1
    if lost >= total:
        state.pop("shield_damage", None)
        return (with_state(c.model_copy(update={"shield": False}), state), "destroyed",
                "the shield loses its last point and is destroyed (CF-41)", 0)
    state["shield_damage"] = lost
    return with_state(c, state), "damaged", f"the shield loses 1 point: {total - lost} of {total} left (CF-41)", \
        total - lost


def _damage_helmet(c: Character, rules: Ruleset) -> tuple[Character, str, str, int | None]:
    return c.model_copy(update={"helmet": False}), "destroyed", "the helmet is destroyed (M-ARM-03)", 0


_DAMAGE: dict[str, Callable[[Character, Ruleset], tuple[Character, str, str, int | None]]] = {
    "armor": _damage_armor, "shield": _damage_shield, "helmet": _damage_helmet,
}


def _piece_worn(character: Character, piece: str) -> None:
    worn = {"armor": _wears_armor(character), "shield": character.shield, "helmet": character.helmet}
    if piece not in worn:
        raise MiddleSeaError(f"the piece is one of {', '.join(PIECES)}, not {piece!r}")
    if not worn[piece]:
        raise MiddleSeaError(f"{character.name} wears no {piece}")


def piece_material(piece: str, armor: str | None, rules: Ruleset | None = None) -> str:
    """The material that saves for a piece (X-TAB-06 data.armor_materials): the body armor's by its F-TAB-21 key."""
    materials = _matrix_data(_rules(rules), "armor_materials")
    if piece == "armor":
        return str(materials.get(str(armor), "metal"))
    return str(materials.get(piece, "thick_wood" if piece == "shield" else "metal"))


def _piece_material(character: Character, piece: str, rules: Ruleset) -> tuple[str, int]:
    magic = {"armor": character.armor_magic, "shield": character.shield_magic}.get(piece, 0)
    return piece_material(piece, character.armor, rules), magic


def attack_form(attack: str) -> str:
    """M-ARM-02: crushing blow for melee and hurled weapons, normal blow for missiles and firearms."""
    if attack not in ATTACK_FORMS:
        raise MiddleSeaError(f"the attack is one of {', '.join(ATTACK_FORMS)}, not {attack!r}")
    return ATTACK_FORMS[attack]


def armor_hit(character: Character, attack: str, rng: DiceSource, rules: Ruleset | None = None, *,
              piece: str | None = None, shield_applies: bool = True, neglect: int = 0) -> ArmorHit:
    """M-ARM-01..05: a natural 20 gives the piece hit an item save; a failure costs armor 1 point of protection
    (destroyed at 0), destroys a shield (a magic one loses a plus) or a helmet. Magic armor adds its plus;
    neglect subtracts under item_neglect."""
    rules = _rules(rules)
    form = attack_form(attack)
    roll: RollResult | None = None
    if piece is None:
        piece, roll = choose_piece(character, rng, rules, shield_applies=shield_applies)
    else:
        _piece_worn(character, piece)
    if piece is None:
        return ArmorHit(character, None, "no_armor", (Event("armor", character.name, "wears no armor, shield or "
                                                            "helmet: nothing to damage (M-CRIT-01)"),))
    material, magic = _piece_material(character, piece, rules)
    save = item_save(material, form, rng, rules, magic=magic, neglect=neglect, label=f"{character.name}'s {piece}")
    rolls = (save.roll,) if roll is None else (roll, save.roll)
    if save.saved:
        return ArmorHit(character, piece, "saved", (Event("armor", character.name, f"{save.explain()}: the {piece} "
                                                          "holds", rolls),), roll, save)
    after, result, what, left = _DAMAGE[piece](character, rules)
    event = Event("armor", character.name, f"{save.explain()}: {what}", rolls, data={"piece": piece, "result": result})
    return ArmorHit(after, piece, result, (event,), roll, save, left)


# -- M-CRIT-01: a natural 20 -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Crit:
    maximum: bool          # maximum weapon damage, nothing else from the crit
    armor_damage: bool     # then `armor_hit` for the piece that takes the blow
    damage: int | None     # the maximum, or the normal damage rolled when a dice source was given
    reason: str
    roll: RollResult | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"maximum": self.maximum, "armor_damage": self.armor_damage, "damage": self.damage,
                "reason": self.reason, "roll": self.roll.to_dict() if self.roll else None}


def middle_sea_crit(target_has_armor: bool, damage_expression: str, *, target_has_shield: bool = False,
                    target_has_helmet: bool = False, rules: Ruleset | None = None, rng: DiceSource | None = None,
                    variables: Mapping[str, int | str] | None = None) -> Crit:
    """M-CRIT-01, M-ARM-01, D-1: without body armor maximum damage and no other crit effect; with body armor the
    normal damage and an armor save. A shield (or helmet) without body armor: maximum damage and the piece's
    save both (option middle_sea_shield_only_target = both), or maximum damage only."""
    rules = _rules(rules)
    expr = dice.parse(damage_expression)
    if target_has_armor:
        roll = expr.roll(rng, variables, "damage (a natural 20 against armor)") if rng is not None else None
        return Crit(False, True, roll.total if roll else None, "armored: normal damage and an armor-damage save "
                    "(M-ARM-01)", roll)
    top = expr.bounds(variables)[1]
    piece = target_has_shield or target_has_helmet
    if piece and rules["middle_sea_shield_only_target"] == "both":
        return Crit(True, True, top, "no body armor: maximum damage, and the shield or helmet takes the blow (D-1)")
    return Crit(True, False, top, "not wearing armor: maximum damage and nothing else (M-CRIT-01)")


# -- M-DRINK-01: Liquid Courage ----------------------------------------------------------------------------------
COURAGE_HOURS = 4
COURAGE_MODIFIERS = {"to_hit": -1, "morale": 1, "fear_saves": 1}


def courage_modifiers(character: Character) -> dict[str, int]:
    """While Liquid Courage lasts: −1 to hit, +1 morale (the PC's WIS morale SAVE, CF-45), +1 saves vs fear."""
    courage = state_of(character).get("courage")
    return {k: int(courage[k]) for k in COURAGE_MODIFIERS} if courage else {}


def drink(campaign: Campaign, name: str, rng: DiceSource, rules: Ruleset | None = None,
          ) -> tuple[Campaign, list[Event]]:
    """M-DRINK-01: a full drink gives 1d4 HP (above the maximum, option liquid_courage_hp), +1 morale and fear
    saves, −1 to hit, for 4 hours (a `courage_ends` clock entry). Not again while it lasts (AMB-104)."""
    rules = _rules(rules)
    if not rules["liquid_courage"]:
        raise MiddleSeaError("Liquid Courage is off in this profile (option liquid_courage, M-DRINK-01)")
    c = _member(campaign, name)
    _alive(c)
    state = state_of(c)
    if "courage" in state:
        return campaign, [Event("referee", name, "already has Liquid Courage: another drink gives nothing until it "
                                "wears off; the referee may rule the character drunk (AMB-104, REF-45)",
                                data={"referee_prompt": True})]
    roll = dice.roll("1d4", rng, label=f"{name}: Liquid Courage hit points")
    pool = rules["liquid_courage_hp"] == "temporary_pool"
    hp = c.hp + roll.total if pool else max(c.hp, min(c.hp_max, c.hp + roll.total))
    campaign, entry = schedule(campaign, "courage_ends", after=COURAGE_HOURS * HOUR, owner=name,
                               label=f"{name}'s Liquid Courage wears off", data={"hp": roll.total})
    state["courage"] = {"hp": roll.total, "entry": entry, **COURAGE_MODIFIERS}
    after = with_state(c.model_copy(update={"hp": hp}), state)
    return _put(campaign, after), [Event("courage", name, f"drinks Liquid Courage: +{roll.total} HP ({c.hp} → {hp}), "
                                         "+1 morale and saves vs fear, −1 to hit, for 4 hours (M-DRINK-01)", (roll,),
                                         before=c.hp, after=hp, data=dict(COURAGE_MODIFIERS))]


@handler("courage_ends")
def _courage_ends(fire: Fire) -> None:
    """M-DRINK-01: after 4 hours the −1 to hit goes, and so do any HP above the maximum."""
    c = fire.character()
    state = state_of(c)
    state.pop("courage", None)
    hp = min(c.hp, c.hp_max)
    fire.put(with_state(c.model_copy(update={"hp": hp}), state))
    fire.log("courage", c.name, f"Liquid Courage wears off: no more −1 to hit; HP {c.hp} → {hp}", before=c.hp, after=hp)


# -- M-COIN-01: coin weight ---------------------------------------------------------------------------------------
LB_PER_LOAD = 10   # CF-44: bridging, 1 load = 1000 coins = 10 lb


@dataclass(frozen=True)
class CoinWeight:
    coins: int
    gems: int
    pounds: Fraction
    gpe: Fraction
    load: Fraction

    def explain(self) -> str:
        return (f"{self.coins} coins and {self.gems} gems weigh {float(self.pounds):g} lb = {float(self.gpe):g} gpe "
                f"= {float(self.load):g} load (M-COIN-01; 1 load = 1000 coins = 10 lb, CF-44)")

    def to_dict(self) -> dict[str, Any]:
        return {"coins": self.coins, "gems": self.gems, "pounds": float(self.pounds), "gpe": float(self.gpe),
                "load": float(self.load)}


def coin_weight(coins: int, gems: int = 0, rules: Ruleset | None = None) -> CoinWeight:
    """M-COIN-01, M-TAB-07: 100 coins (or gems) to the pound; a gold-piece equivalent is 1/10 lb."""
    if coins < 0 or gems < 0:
        raise MiddleSeaError("coins and gems are counted from 0")
    table = _rules(rules).tables.get("coin-weight")

    def per_pound(key: str) -> int:
        return int(table.lookup(key).data["per_pound"])

    pounds = Fraction(coins, per_pound("coin")) + Fraction(gems, per_pound("gem"))
    return CoinWeight(coins, gems, pounds, pounds * per_pound("gp-equivalent"), pounds / LB_PER_LOAD)


# -- M-ORIS-01..04: orisons (data queries; the list itself is Dragon #108, EXT-25) ---------------------------
CLERICAL_OR_DRUIDIC = ("cleric", "druid", "paladin", "ranger")


@dataclass(frozen=True)
class OrisonAccess:
    caster: str
    orison_list: str
    excluded: tuple[str, ...]
    per_day: int
    reading: str | None = None


def orison_access(polytheist: bool = False, rules: Ruleset | None = None) -> OrisonAccess:
    """M-ORIS-01/02, AMB-102: a priest without a class — which list, what is excluded, one a day."""
    rules = _rules(rules)
    key = "non-classed-polytheist-priest" if polytheist else "non-classed-priest"
    data = rules.tables.get("orisons").lookup(key).data
    excluded, reading = list(data["excluded"]), data.get("reading")
    alternative = data.get("alternative") or {}
    if alternative and rules["druidic_orison_reading"] == alternative.get("reading"):
        excluded, reading = list(alternative["excluded"]), alternative["reading"]
    return OrisonAccess(key, str(data["list"]), tuple(excluded), int(data["per_day"]), reading)


def may_use_orison(orison: str, *, classed: bool = False, polytheist: bool = False,
                   rules: Ruleset | None = None) -> bool:
    """M-ORIS-01: a non-classed priest may not use the excluded (magical) orisons; a classed caster's list is
    Dragon #108's (EXT-25), which this module does not hold."""
    if classed:
        return True
    return orison.strip().lower() not in {o.lower() for o in orison_access(polytheist, rules).excluded}


def orisons_per_day(char_class: str | None = None, *, classed: bool = True, polytheist: bool = False,
                    slots_traded: int = 0, rules: Ruleset | None = None) -> int:
    """M-ORIS-02..04: 1 a day for a priest without a class; 1 free a day for Clerics, Paladins, Druids, Monks and
    Illusionists; 2 per 1st-level slot a clerical or druidic caster trades (needs middle_sea_magic, CF-42)."""
    rules = _rules(rules)
    if slots_traded < 0:
        raise MiddleSeaError("slots traded are 0 or more")
    if not classed:
        if slots_traded:
            raise MiddleSeaError("a priest without a class has no spell slots to trade (M-ORIS-03)")
        return orison_access(polytheist, rules).per_day
    table = rules.tables.get("orisons")
    free = table.lookup("free-orison").data
    cls = (char_class or "").strip().lower()
    count = int(free["free_per_day"]) if cls in {c.lower() for c in free["classes"]} else 0
    if slots_traded:
        if not rules["middle_sea_magic"]:
            raise MiddleSeaError("trading a 1st-level spell slot for orisons needs AD&D spell slots: turn on "
                                 "middle_sea_magic (CF-42, M-ORIS-03)")
        if cls not in CLERICAL_OR_DRUIDIC:
            raise MiddleSeaError(f"only clerical or druidic casters trade slots for orisons, not {char_class!r}")
        count += slots_traded * int(table.lookup("clerical-or-druidic-caster").data["orisons_per_first_level_slot"])
    return count


def priest_can_cast(classed: bool) -> bool:
    """M-REL-01, REF-48: only a priest with a class and level casts spells; don't assume any priest heals."""
    return classed


# -- data the house rules give for AD&D spells (M-SPELLMOD-01/02, M-SEVER-02) -----------------------------------
HOUSE_SPELL_LEVELS = {"restoration": 5, "energy drain": 7}   # M-SPELLMOD-02 (clerical)
ORB_KEEPS = ("light", "blindness", "stinking cloud", "paralysis")   # M-SPELLMOD-01
ORB_REMOVED = ("fire", "magnetism", "save or die")
ORB_LIGHT_LEVEL = 2


def house_spell_level(spell: str) -> int:
    """M-SPELLMOD-02: Restoration is a 5th-level cleric spell, its reverse Energy Drain stays 7th."""
    key = spell.strip().lower()
    if key not in HOUSE_SPELL_LEVELS:
        raise ExternalRuleError(f"the level of {spell!r} is in the AD&D 1e Players Handbook (EXT-21); the house rules "
                                "change only Restoration (5) and Energy Drain (7)")
    return HOUSE_SPELL_LEVELS[key]


def chromatic_orb_power(power: str, caster_level: int) -> bool:
    """M-SPELLMOD-01: fire, magnetism and save-or-die are gone; light needs caster level 2. The level of each other
    kept power is not given (REF-46) and the spell itself is in Unearthed Arcana (EXT-24)."""
    key = power.strip().lower()
    if key in ORB_REMOVED:
        return False
    if key == "light":
        return caster_level >= ORB_LIGHT_LEVEL
    if key in ORB_KEEPS:
        raise ExternalRuleError(f"M-SPELLMOD-01: the caster level for the Chromatic Orb's {key} is not given (REF-46); "
                                "the base spell is in Unearthed Arcana (EXT-24)")
    raise MiddleSeaError(f"the Chromatic Orb keeps only {', '.join(ORB_KEEPS)}, not {power!r}")


def sharpness_location(rng: DiceSource, rules: Ruleset | None = None) -> TableRoll:
    """M-SEVER-02 (optional): a Sword of Sharpness (a DMG item) may use the severed-limb table for the place."""
    return _rules(rules).tables.roll("severed-limb", rng, label="Sword of Sharpness: which limb (M-SEVER-02)")


# -- EXTERNAL and GUIDANCE rules: named plug-in points -------------------------------------------------------------
@dataclass(frozen=True)
class ExternalRule:
    rule: str
    what: str
    needs: str
    ext: str
    status: str = "EXTERNAL"

    def message(self) -> str:
        return (f"{self.rule} ({self.what}) is {self.status}: it needs {self.needs} ({self.ext}), which is not among "
                f"the sources; a referee registers it with register_plugin({self.rule!r}, fn)")


EXTERNAL_RULES: dict[str, ExternalRule] = {r.rule: r for r in (
    ExternalRule("M-UNARM-01", "weaponless combat: punching, wrestling, grappling",
                 "Unearthed Arcana, Appendix Q 'Weaponless Combat System I' (p. 106)", "EXT-20"),
    ExternalRule("M-MOOK-02", "fighters', Paladins' and Rangers' extra attacks against creatures under 1 HD",
                 "the AD&D 1e Players Handbook and DMG", "EXT-21"),
    ExternalRule("M-CSPELL-01", "clerical spell slots and the whole clerical list known",
                 "the AD&D 1e Players Handbook's slot tables and spell lists", "EXT-21"),
    ExternalRule("M-CSPELL-02", "druidic and other spell preparation, with the author's added Druid spells",
                 "the AD&D 1e Players Handbook (the added spells are not published)", "EXT-21"),
    ExternalRule("M-CANT-01", "cantrips for Magic-users and Illusionists", "Unearthed Arcana's cantrips", "EXT-24"),
    ExternalRule("M-BOOK-01", "spell-book upkeep", "Unearthed Arcana's spell-book rules", "EXT-24"),
    ExternalRule("M-ORIS-01", "the orisons themselves and what each does", "Dragon #108, pp. 28-29", "EXT-25"),
    ExternalRule("M-ALIGN-01", "alignment, virtues, attitude to the ruler and piety",
                 "Dragon #101 'For King and Country' and Lands of Adventure; the author has not written it yet",
                 "EXT-26", "GUIDANCE and EXTERNAL"),
    ExternalRule("M-SPELLMOD-01", "the reorganised Chromatic Orb",
                 "Unearthed Arcana's Chromatic Orb (the author's level thresholds are not given)", "EXT-24"),
    ExternalRule("M-RES-01", "material components, effects of nature, natural-object values, weather, shops and "
                 "inns, random events", "Dragon #81, #108 and #137, a Dragon shop and inn article and Oriental "
                 "Adventures", "EXT-27"),
    ExternalRule("M-INIT-01", "the Attack Priority initiative and psionic segments (not adopted: AD&D 1e as written)",
                 "Dragon #71 and the AD&D 1e DMG", "EXT-21", "GUIDANCE"),
    ExternalRule("M-META-01", "firearms and artillery", "the Middle Sea 'Firearms' and 'Artillery' articles",
                 "EXT-28"),
)}
PLUGINS: dict[str, Callable[..., Any]] = {}


def register_plugin(rule: str, fn: Callable[..., Any]) -> None:
    """A referee's implementation of an EXTERNAL rule, from the book the documents only name."""
    if rule not in EXTERNAL_RULES:
        raise UnknownNameError("Middle Sea plug-in point", rule, sorted(EXTERNAL_RULES))
    PLUGINS[rule] = fn


def use_rule(rule: str, *args: Any, **kwargs: Any) -> Any:
    """Run the plug-in registered for an EXTERNAL rule, or raise `ExternalRuleError` naming the book it needs."""
    if rule not in EXTERNAL_RULES:
        raise UnknownNameError("Middle Sea plug-in point", rule, sorted(EXTERNAL_RULES))
    fn = PLUGINS.get(rule)
    if fn is None:
        raise ExternalRuleError(EXTERNAL_RULES[rule].message())
    return fn(*args, **kwargs)

"""Grievous Injury, Death, and Dismemberment (RULES.md M.3, M-TAB-01..03): the 3d6 + excess roll and what its band
does to the character.

M-GRIEV-01 the roll (HP to 0) … M-GRIEV-09 instant death, M-GRIEV-10 the referee's vetoes by damage type; the
locations of M-BONE-01 (broken bone, d10) and M-SEVER-01 (severed limb, d12); M-SEVER-02 (a Sword of Sharpness
reuses the limb table); AMB-91 c/f, AMB-92, AMB-93, AMB-94, D-5. The results are values (`Grievous`, `Timer`,
`HeldCondition`): the timers and bone healing they record go on the clock in `bones`, their cures are in
`cures`, and the blow that leads here is `zero_hp.take_blow`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from furnace import dice
from furnace.characters.character import Character
from furnace.characters.facts import fact
from furnace.dice import DiceSource, RollResult
from furnace.errors import UnknownNameError
from furnace.events import Event, declare
from furnace.houserules.middle_sea.common import (
    MiddleSeaError,
    _added,
    _alive,
    _rules,
    for_referee,
    state_of,
    with_state,
)
from furnace.play.apply import HEAL, PROMPT, SAVE
from furnace.rules.effects import (
    Ability,
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
from furnace.rules.ruleset import Ruleset
from furnace.rules.tables import Row, TableRoll

VETO_TABLE = "house:grievous-vetoes"
SaveBonus = Callable[[Ability], int]   # a SAVE bonus by ability, as the caller counts it (a fight's combatant)
HelmetSave = Callable[[str, str], bool]   # (location, row text) → whether the wearer makes her helmet's save
DEFAULT_VETOES: dict[str, list[dict[str, Any]]] = {   # M-GRIEV-10's own examples; a referee's table replaces them
    "fire": [{"band": "broken_bone"}],
    "arrow": [{"band": "severed_limb", "locations": ["R. Arm", "L. Arm"]}],
}

# the facts a grievous injury records (a fight records them again as the combatant's: `fight_grievous`)
GRIEVOUS = declare("grievous", band="public", table="public", total="actor", excess="actor", text="public",
                   example={"band": "stunned", "table": "M-TAB-01", "text": "STUNNED 1 round."})
VETO = declare("grievous_veto", damage_type="referee", band="referee", location="referee",
               example={"damage_type": "fire", "band": "broken_bone", "location": "R. Arm"})
WOUND_CONDITION = declare("wound_condition", condition="public", amount="actor", unit="public",
                          example={"condition": "UNCONSCIOUS", "amount": 7, "unit": "round"})
KILLED_OUTRIGHT = declare("killed_outright", table="public", total="actor", location="public",
                          example={"table": "grievous-injury", "total": 21, "location": ""})
WOUND_TIMER = declare("wound_timer", timer="public", amount="actor", unit="public", unless="public",
                      example={"timer": "fatal_wound", "amount": 4, "unit": "exploration_turn",
                               "unless": "Cure Serious Wounds is cast in time"})
LASTING = declare("lasting_injury", lasting="public", effects="public",
                  example={"lasting": "broken right leg", "effects": [{"kind": "condition", "name": "CANT_MOVE"}]})
EFFECT = declare("grievous_effect", effect="public",
                 example={"effect": {"kind": "damage", "dice": "1d6", "target": "self"}})
LOCATION = declare("grievous_location", table="public", name="public", total="actor", location="public",
                   text="public", example={"table": "M-TAB-02", "name": "broken-bone", "location": "R. Leg",
                                           "text": "Right leg: KNOCKED_DOWN; CANT_MOVE until healed."})
BROKEN_BONE = declare("broken_bone", location="public", weeks="actor", weeks_added="actor", repeat="public",
                      averted="public", both_legs="public",
                      example={"location": "R. Leg", "repeat": False, "averted": False, "both_legs": True})
SEVERED_LIMB = declare("severed_limb", location="public", averted="public",
                       example={"location": "Head", "averted": True})
HELMET = declare("helmet_variant")


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
    lasting: tuple[Lasting, ...] = ()   # the lasting injuries gained, with their effects (for a fight to apply)

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
    save_bonus: SaveBonus | None = None
    helmet_save: HelmetSave | None = None     # the wearer's choice to make a helmet's save vs. death (None: she does)
    band: str = ""
    cause: str = ""
    death_data: dict[str, Any] = field(default_factory=dict)   # what killed outright: the table, its total, where
    row_data: dict[str, Any] = field(default_factory=dict)   # the grievous row's data (heal weeks)
    events: list[Event] = field(default_factory=list)
    conditions: list[HeldCondition] = field(default_factory=list)
    prompts: list[str] = field(default_factory=list)
    timers: list[Timer] = field(default_factory=list)
    lasting: list[Lasting] = field(default_factory=list)
    amounts: dict[tuple[str, str], int] = field(default_factory=dict)
    location: str | None = None
    location_roll: int | None = None
    heal_weeks: int | None = None
    repeat_break: bool = False
    vetoed: str | None = None
    bleeding: bool = False
    last_save: bool | None = None
    stop: bool = False

    def fact(self, kind: str, rolls: Sequence[RollResult] = (), rules: tuple[str, ...] = (), *,
             audience: Literal["all", "referee"] = "all", **data: Any) -> None:
        """A fact of this wound, the character its actor."""
        e = fact(kind, self.character, tuple(rolls), rules, **data)
        self.events.append(for_referee(e) if audience == "referee" else e)

    def roll(self, expression: str, label: str, variables: Mapping[str, int | str] | None = None) -> RollResult:
        return dice.roll(expression, self.rng, variables, label)

    def update(self, **changes: Any) -> None:
        self.character = self.character.model_copy(update=changes)

    def amount(self, duration: Duration | None, label: str | None = None,
               ) -> tuple[int | None, tuple[RollResult, ...]]:
        """A duration's amount; one roll per expression and unit in a result (the bleeding and its death)."""
        if duration is None:
            return None, ()
        key = (duration.amount, duration.unit)
        if key in self.amounts:
            return self.amounts[key], ()
        r = dice.roll(duration.amount, self.rng, None, label or "duration")
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
        w.fact(VETO, (), ("M-GRIEV-10",), audience="referee", damage_type=w.damage_type, band=w.band,
               location=location or "")
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
        r = expr.roll(w.rng, variables, "Second Wind")
        amount, rolls = r.total, (r,)
    before = w.character.hp
    hp = min(max(w.character.hp_max, before), max(before, 0) + amount)
    w.update(hp=hp)
    w.fact(HEAL, rolls, ("M-GRIEV-02", "AMB-91"), amount=amount, hp_before=before, hp_after=hp,
           hp_max=w.character.hp_max)


def _condition(w: _Wound, e: Effect) -> None:
    assert isinstance(e, Condition)
    amount, rolls = w.amount(e.duration)
    held = HeldCondition(e.name, amount, e.duration.unit if e.duration else None)
    w.conditions.append(held)
    w.update(conditions=_added(w.character.conditions, e.name))
    w.fact(WOUND_CONDITION, rolls, condition=e.name, amount=amount, unit=held.unit)


def _death(w: _Wound, e: Effect) -> None:
    """Death now, or a timer (M-GRIEV-07: 1d6 exploration turns, AMB-92; M-GRIEV-08: bleeding, 2d6 rounds)."""
    assert isinstance(e, Death)
    if e.timer is None:
        w.update(dead=f"killed outright: {w.cause}")
        w.fact(KILLED_OUTRIGHT, (), ("M-GRIEV-09",) if not w.location else (), **w.death_data)
        return
    kind = "bleeding" if w.bleeding else "fatal_wound"
    unit: str = e.timer.unit
    if kind == "fatal_wound" and unit == "exploration_turn":
        unit = str(w.rules["fatal_wound_timer_unit"])
    amount, rolls = w.amount(e.timer, "death timer")
    timer = Timer(kind, amount or 0, unit)
    w.timers.append(timer)
    w.state.setdefault("timers", []).append(timer.to_dict())
    w.fact(WOUND_TIMER, rolls, ("M-GRIEV-08",) if kind == "bleeding" else ("M-GRIEV-07", "AMB-92"), timer=kind,
           amount=timer.amount, unit=unit, unless=e.unless or "")


def _save(w: _Wound, e: Effect) -> None:
    """A helmet's save vs. death: the character's CON SAVE (D-5, AMB-94) vs the ROOM DC or hazard_save_dc."""
    assert isinstance(e, Save)
    ability = e.ability or w.rules.save_vs(e.category)
    if ability is None:
        _other(w, e)
        return
    c = w.character
    if w.save_bonus is not None:
        bonus = w.save_bonus(ability)
    else:
        bonus = c.mod(ability, w.rules) + (c.prof(w.rules) if ability in c.saves else 0)
    dc = dice.roll(e.dc, w.rng, {"ROOM_DC": w.room_dc}).total
    r = w.roll(f"d20+{bonus}" if bonus >= 0 else f"d20-{-bonus}", f"{ability} SAVE")
    ok = r.total >= dc
    w.fact(SAVE, (r,), ("AMB-94", "D-5"), ability=ability, total=r.total, dc=dc, saved=ok)
    _apply_list(w, e.on_success if ok else e.on_fail)
    w.last_save = ok


def _lasting(w: _Wound, e: Effect) -> None:
    assert isinstance(e, Lasting)
    w.update(injuries=_added(w.character.injuries, e.name))
    w.lasting.append(e)
    w.prompts += [s.prompt for s in e.effects if isinstance(s, RefereePrompt)]
    w.fact(LASTING, lasting=e.name, effects=[_dumped(s) for s in e.effects])


def _prompt(w: _Wound, e: Effect) -> None:
    assert isinstance(e, RefereePrompt)
    w.prompts.append(e.prompt)
    w.fact(PROMPT, audience="referee", note=e.prompt)


def _other(w: _Wound, e: Effect) -> None:
    w.fact(EFFECT, effect=_dumped(e))


def _dumped(e: Effect) -> dict[str, Any]:
    """An effect as a fact's value (what `parse_effect` reads back)."""
    return {"kind": e.kind, **e.model_dump(mode="json", exclude_defaults=True)}


def _injury(w: _Wound, e: Effect) -> None:
    """Roll the location (M-BONE-01 d10, M-SEVER-01 d12), check the referee's veto, then apply it."""
    assert isinstance(e, Injury)
    table = w.rules.tables.get(e.table)
    rolled = w.rules.tables.roll(table.id, w.rng, label="location")
    w.location = str(rolled.row.data.get("location", rolled.row.span))
    w.location_roll = rolled.roll.total
    w.cause = f"{table.name} {rolled.roll.total}, {w.location}"
    w.death_data = {"table": table.name, "total": rolled.roll.total, "location": w.location}
    w.fact(LOCATION, (rolled.roll,), tuple(table.rules), table=table.id, name=table.name, total=rolled.roll.total,
           location=w.location, text=rolled.row.text)
    if _veto(w, w.location):
        return
    if table.name == "broken-bone":
        _break(w, rolled.row, w.location)
    elif table.name == "severed-limb":
        _sever(w, rolled.row, w.location)
    else:
        _apply_list(w, _location_effects(w, rolled.row)[0])


def _location_effects(w: _Wound, row: Row) -> tuple[list[Effect], bool]:
    """A location row's effects: its helmet variant when a helmet is worn; where that variant is a save vs. death
    (skull, head: "may save", M-SEVER-01, M-BONE-01) the wearer chooses whether to make it (`helmet_save`)."""
    effects, variant = row_effects(row, w.helmet)
    optional = variant and w.helmet_save is not None and any(e.kind == "save" for e in effects)
    if optional and w.helmet_save is not None and not w.helmet_save(str(row.data.get("location", row.span)), row.text):
        return row.effect_list(), False
    return effects, variant


def _averted(w: _Wound, row: Row) -> bool:
    """Apply a location row; True when its helmet variant was a save that succeeded (skull, head: AMB-94)."""
    effects, variant = _location_effects(w, row)
    w.last_save = None
    _apply_list(w, effects)
    return variant and w.last_save is True


def _weeks(w: _Wound, key: str, default: str) -> str:
    return str(w.row_data.get(key, default))


def _break(w: _Wound, row: Row, location: str) -> None:
    """M-GRIEV-06, M-BONE-01, AMB-93: 2d4+9 weeks to heal; a repeat break there adds 1d4 weeks, no new effect."""
    breaks = w.state.setdefault("breaks", {})
    if location in breaks:
        r = w.roll(_weeks(w, "repeat_break_adds_weeks", "1d4"), "weeks added")
        breaks[location]["count"] += 1
        breaks[location]["weeks"] += r.total
        w.heal_weeks, w.repeat_break = r.total, True
        w.fact(BROKEN_BONE, (r,), ("M-GRIEV-06", "AMB-93"), location=location, repeat=True, weeks_added=r.total,
               weeks=breaks[location]["weeks"])
        return
    if _averted(w, row):
        w.fact(BROKEN_BONE, (), ("AMB-94",), location=location, averted=True)
        return
    r = w.roll(_weeks(w, "heal_weeks", "2d4+9"), "weeks to heal")
    injury = next((e.name for e in row.effect_list() if isinstance(e, Lasting)), f"broken {location.lower()}")
    w.update(injuries=_added(w.character.injuries, injury))
    breaks[location] = {"count": 1, "weeks": r.total, "injury": injury, "entry": None}
    w.heal_weeks = r.total
    both = {"R. Leg", "L. Leg"} <= set(breaks)
    w.fact(BROKEN_BONE, (r,), ("M-GRIEV-06", "M-BONE-01") if both else ("M-GRIEV-06",), location=location,
           weeks=r.total, both_legs=both)


def _sever(w: _Wound, row: Row, location: str) -> None:
    """M-GRIEV-08, M-SEVER-01: the limb is lost for good; a helmet's save turns the head into STUNNED 1 round."""
    if _averted(w, row):
        w.fact(SEVERED_LIMB, (), ("AMB-94",), location=location, averted=True)
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
        w.fact(HELMET, (), ("M-GRIEV-04", "M-GRIEV-05", "AMB-91"))
    w.bleeding = any(isinstance(e, Condition) and e.name == "BLEEDING" for e in effects)
    _apply_list(w, effects)
    return effects, variant


def _start(character: Character, rng: DiceSource, rules: Ruleset, *, helmet: bool | None, hit_die: str | None,
           damage_type: str | None, room_dc: int | None, vetoes: Mapping[str, list[dict[str, Any]]] | None,
           save_bonus: SaveBonus | None, helmet_save: HelmetSave | None = None) -> _Wound:
    return _Wound(character, rng, rules, helmet=character.helmet if helmet is None else helmet,
                  room_dc=int(rules["hazard_save_dc"]) if room_dc is None else room_dc,
                  hit_die=hit_die or character.hit_die(rules), vetoes=vetoes_in_force(rules, vetoes),
                  damage_type=damage_type.strip().lower() if damage_type else None, state=state_of(character),
                  save_bonus=save_bonus, helmet_save=helmet_save)


def _result(w: _Wound, total: int, row: Row, effects: Sequence[Effect], variant: bool) -> Grievous:
    return Grievous(with_state(w.character, w.state), w.band, total, row.text, tuple(effects), w.helmet, variant,
                    w.location, w.location_roll, w.heal_weeks, w.repeat_break, tuple(w.timers),
                    tuple(w.conditions), w.vetoed, tuple(w.prompts), tuple(w.events), tuple(w.lasting))


def grievous(character: Character, excess: int, rng: DiceSource, rules: Ruleset | None = None,
             helmet: bool | None = None, *, hit_die: str | None = None, damage_type: str | None = None,
             room_dc: int | None = None, vetoes: Mapping[str, list[dict[str, Any]]] | None = None,
             save_bonus: SaveBonus | None = None, helmet_save: HelmetSave | None = None) -> Grievous:
    """M-GRIEV-01: HP to 0, roll 3d6 + excess on the grievous-injury table and apply the band.

    `helmet` defaults to the character's helmet flag; `hit_die` to its class die (Second Wind); `room_dc` to
    hazard_save_dc (a helmet's CON SAVE, AMB-94); `save_bonus` to the character's own SAVE bonus (a fight
    passes its combatant's); `damage_type` is checked against the vetoes (M-GRIEV-10); `helmet_save(location,
    text)` answers whether the wearer makes a helmet's save vs. death on her head or skull (a fight asks her).
    Timers and bone healing are recorded on the character; `schedule_grievous` puts them on a clock."""
    rules = _rules(rules)
    _alive(character)
    if excess < 1:
        raise MiddleSeaError(f"the grievous injury roll needs an excess of 1 or more, not {excess} (M-GRIEV-01); "
                             "a blow that leaves exactly 0 HP is take_blow's (D-4)")
    w = _start(character.model_copy(update={"hp": 0}), rng, rules, helmet=helmet, hit_die=hit_die,
               damage_type=damage_type, room_dc=room_dc, vetoes=vetoes, save_bonus=save_bonus, helmet_save=helmet_save)
    rolled = rules.tables.roll("grievous-injury", rng, variables={"EXCESS": excess}, label="grievous injury")
    w.band, w.cause = band_of(rolled.row, rules), f"grievous injury {rolled.roll.total}"
    w.death_data = {"table": rolled.table.name, "total": rolled.roll.total, "location": ""}
    w.row_data = dict(rolled.row.data)
    w.fact(GRIEVOUS, (rolled.roll,), ("M-GRIEV-01",), band=w.band, table=rolled.table.id, total=rolled.roll.total,
           excess=excess, text=rolled.row.text)
    effects, variant = ([], False) if _veto(w, None) else _apply_row(w, rolled.row)
    return _result(w, rolled.roll.total, rolled.row, effects, variant)


def sharpness_location(rng: DiceSource, rules: Ruleset | None = None) -> TableRoll:
    """M-SEVER-02 (optional): a Sword of Sharpness (a DMG item) may use the severed-limb table for the place."""
    return _rules(rules).tables.roll("severed-limb", rng, label="which limb")

"""Disease (H-DIS-01..06, H-TAB-04, AMB-73).

A disease has an incubation period, an interval, an infection time and an effect (H-DIS-02). On exposure
the character saves vs. poison or is infected (H-DIS-03, AMB-73 a). Once infected, the first save comes at
the end of incubation and another every interval: infection_time / interval saves in all (AMB-73 b; one
more with disease_save_count = both_endpoints) — Green River Fever makes exactly 18. Each is a save vs.
poison (D-5: CON) against hazard_save_dc, −2 when the character is not resting (H-DIS-05), and each failure
applies the effect once (a temporary ability loss, AMB-73 c, which rest gives back by H-HEAL-06).

Resting is the campaign flag `resting` (true, or a list of names) or extensions["hazards"]["resting"].

Bounded on load: each duration is at most `MAX_DURATION_YEARS` long, and a disease makes at most
`MAX_SAVES` saves (infection time / interval), so a 1-second interval over 100 years is refused naming the
field, before anything is scheduled or listed.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from furnace.characters.character import Character
from furnace.dice import DiceSource
from furnace.errors import DataFileError, FurnaceError, UnknownNameError
from furnace.events import Event, declare
from furnace.hazards.common import (
    Category,
    about,
    counted,
    declare_save,
    hazard_save,
    member,
    require,
    ruleset,
    save_event,
    stamp,
    state,
)
from furnace.hazards.scores import Loss, lose
from furnace.play import luck
from furnace.play.checks import Modifier
from furnace.play.clock import (
    ALIASES,
    DAY,
    FIXED_UNITS,
    Campaign,
    ClockError,
    Fire,
    cancel,
    handler,
    schedule,
    unit_seconds,
)
from furnace.rules.datafile import read_yaml
from furnace.rules.effects import Ability
from furnace.rules.ruleset import Ruleset

UNITS = {*FIXED_UNITS, *ALIASES, "round", "exploration_turn"}
MAX_SAVES = 1_000                 # Green River Fever makes 18
MAX_DURATION_YEARS = 100          # an incubation, an interval or an infection time
MAX_AMOUNT = 1_000_000            # the number in a duration, before its unit is known


# the facts of disease, and who may know each value (a duration is {amount, unit})
DISEASE = declare("disease", disease="public", incubation="public", interval="public", saves="public",
                  entry="referee", example={"disease": "Green River Fever", "incubation": {"amount": 1, "unit": "week"},
                                            "interval": {"amount": 4, "unit": "hour"}, "saves": 18})
DISEASE_CURED = declare("disease_cured", disease="public", example={"disease": "Green River Fever"})
EXPOSURE_SAVE = declare_save("exposure_save", disease="public", example={"disease": "Green River Fever"})
DISEASE_SAVE = declare_save("disease_save", disease="public", number="public", of="public", resting="public",
                            example={"disease": "Green River Fever", "number": 2, "of": 18, "resting": False})


class DiseaseError(FurnaceError):
    """A disease the clock cannot run: too many saves, or a duration too long."""


class Duration(BaseModel):
    """An amount of a clock unit: `4 hours`, `{amount: 1, unit: week}`."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    amount: int = Field(ge=1, le=MAX_AMOUNT)
    unit: str = Field(max_length=40)

    @model_validator(mode="before")
    @classmethod
    def from_text(cls, value: Any) -> Any:
        if isinstance(value, str):
            match = re.fullmatch(r"\s*(\d{1,9})\s*([A-Za-z_ ]{1,40}?)\s*", value)
            if not match:
                raise ValueError(f"a duration is like '4 hours' or {{amount: 4, unit: hour}}, not {value!r}")
            return {"amount": int(match[1]), "unit": match[2]}
        return value

    @field_validator("unit")
    @classmethod
    def known_unit(cls, value: str) -> str:
        name = value.strip().lower()
        if name not in UNITS and name.rstrip("s") not in UNITS:
            raise ValueError(f"unknown unit {value!r}; use round, turn, minute, hour, watch, day, week, month or year")
        return name

    def seconds(self, rules: Ruleset) -> int:
        return self.amount * unit_seconds(self.unit, rules)

    def __str__(self) -> str:
        return f"{self.amount} {self.unit}{'' if self.amount == 1 or self.unit.endswith('s') else 's'}"


class DiseaseEffect(BaseModel):
    """What one failed save does: lose `amount` points of `ability` (disease_loss_per_failure when unset)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    ability: Ability
    amount: int | None = Field(None, ge=1, le=20)     # ability scores run 0-20
    permanent: bool = False


class Disease(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, defer_build=True)
    name: str = Field(min_length=1, max_length=100)
    incubation: Duration
    interval: Duration
    infection_time: Duration = Field(alias="infection")
    effect: DiseaseEffect
    save_category: Category = "poison"
    penalty_not_resting: int = Field(-2, ge=-20, le=20)

    def check(self, rules: Ruleset) -> None:
        """A `DiseaseError` naming the field when, under these rules, a duration is longer than
        MAX_DURATION_YEARS or the disease would make more than MAX_SAVES saves."""
        longest = MAX_DURATION_YEARS * 365 * DAY
        for field in ("incubation", "interval", "infection_time"):
            duration: Duration = getattr(self, field)
            if duration.seconds(rules) > longest:
                raise DiseaseError(f"{self.name}: field {field}: {duration} is longer than {MAX_DURATION_YEARS} "
                                   "years")
        count = self.infection_time.seconds(rules) // self.interval.seconds(rules)
        if count > MAX_SAVES:
            raise DiseaseError(f"{self.name}: field interval: one save every {self.interval} for "
                               f"{self.infection_time} makes {count:,} saves; at most {MAX_SAVES:,}")

    def save_count(self, rules: Ruleset) -> int:
        """AMB-73 (b): infection_time / interval (18 for Green River Fever), + 1 with both_endpoints."""
        self.check(rules)
        count = self.infection_time.seconds(rules) // self.interval.seconds(rules)
        return count + (1 if rules["disease_save_count"] == "both_endpoints" else 0)

    def save_times(self, rules: Ruleset) -> list[int]:
        """Seconds after infection of each save: incubation + k × interval."""
        first, step = self.incubation.seconds(rules), self.interval.seconds(rules)
        return [first + k * step for k in range(self.save_count(rules))]


def from_data(data: Any, path: str) -> Disease:
    """A disease from a mapping; a malformed one is refused naming the field."""
    if not isinstance(data, dict):
        raise DataFileError(path, "a disease is a mapping with name, incubation, interval, infection_time, effect")
    try:
        disease = Disease.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(x) for x in first["loc"]) or "disease"
        raise DataFileError(path, f"field {field}: {str(first['msg']).removeprefix('Value error, ')}") from None
    rules = ruleset(None)
    if disease.interval.seconds(rules) > disease.infection_time.seconds(rules):
        raise DataFileError(path, "field interval: longer than the infection time, so no save would fall due")
    try:
        disease.check(rules)
    except DiseaseError as exc:
        raise DataFileError(path, str(exc).removeprefix(f"{disease.name}: ")) from None
    return disease


def load_disease(path: str | Path) -> Disease:
    """A referee's disease file (YAML)."""
    if not isinstance(path, str | Path):
        raise DataFileError(repr(path), f"a disease file is a path, not {type(path).__name__}")
    return from_data(read_yaml(Path(path), "disease file"), str(path))


def packaged_disease(name: str, rules: Ruleset | None = None) -> Disease:
    """A disease of the table in force (H-TAB-04): `Green River Fever` or its key `green-river-fever`."""
    rules = ruleset(rules)
    table = rules.tables.get("disease")
    if not isinstance(name, str):
        raise UnknownNameError("disease", repr(name), [str(r.key) for r in table.rows])
    key = "-".join(name.lower().split())
    row = next((r for r in table.rows if str(r.key) == key), None)
    if row is None:
        raise UnknownNameError("disease", name, [str(r.key) for r in table.rows])
    d = row.data
    where = rules.tables.source_of(table.id)
    loss = next((e for s in row.effects for e in getattr(s, "on_fail", []) if e.kind == "ability_loss"), None)
    missing = [k for k in ("incubation", "interval", "infection") if k not in d]
    if loss is None or missing:
        what = f"data.{missing[0]}" if missing else "a save whose on_fail has an ability_loss"
        raise DataFileError(where, f"disease {row.key}: needs {what}", str(row.key))
    effect = {"ability": getattr(loss, "ability", "INT"), "permanent": bool(getattr(loss, "permanent", False))}
    return from_data({"name": str(row.text).split(":")[0], "incubation": d["incubation"], "interval": d["interval"],
                      "infection_time": d["infection"], "effect": effect,
                      "save_category": d.get("save_category", "poison"),
                      "penalty_not_resting": d.get("penalty_not_resting", -2)}, where)


def find_disease(file_or_name: str, rules: Ruleset | None = None) -> Disease:
    """A disease file if the path exists, else a disease of H-TAB-04 by name."""
    if not isinstance(file_or_name, str) or not file_or_name.strip():
        raise UnknownNameError("disease", repr(file_or_name))
    try:
        is_file = Path(file_or_name).is_file()
    except (OSError, ValueError):   # a NUL byte, a name too long for the file system
        is_file = False
    return load_disease(file_or_name) if is_file else packaged_disease(file_or_name, rules)


# -- on the clock -----------------------------------------------------------------------------------------------
def infect(campaign: Campaign, name: str, disease: Disease, rules: Ruleset | None = None,
           ) -> tuple[Campaign, list[Event]]:
    """H-DIS-04: schedule the saves: the first at the end of incubation, then one every interval."""
    rules = ruleset(rules)
    require(rules, "hazards_disease", "H-DIS-04", "disease")
    _check(name, disease)
    member(campaign, name)
    count = disease.save_count(rules)      # checked: at most MAX_SAVES, durations within bounds
    campaign, entry = schedule(campaign, "disease_save", after=disease.incubation.seconds(rules), owner=name,
                               every=disease.interval.seconds(rules), times=count, label=f"{name}: {disease.name}",
                               data={"disease": disease.model_dump(by_alias=True), "saves": count})
    return campaign, [about(DISEASE, campaign, name, (), ("H-DIS-04", "AMB-73"), disease=disease.name, entry=entry,
                            saves=count, incubation=disease.incubation.model_dump(),
                            interval=disease.interval.model_dump())]


def expose(campaign: Campaign, name: str, disease: Disease, rng: DiceSource, rules: Ruleset | None = None,
           ) -> tuple[Campaign, list[Event]]:
    """H-DIS-03, AMB-73 (a): a save vs. poison on exposure; a failure infects."""
    rules = ruleset(rules)
    require(rules, "hazards_disease", "H-DIS-03", "disease")
    _check(name, disease)
    character = member(campaign, name)
    result = hazard_save(character, disease.save_category, rng, rules, f"exposed to {disease.name}")
    events = [save_event(EXPOSURE_SAVE, character, result, disease.save_category, rules, ("H-DIS-03", "AMB-73"),
                         disease=disease.name)]
    character, luck_events = counted(character, result, rules)
    events += luck_events
    campaign = campaign.model_copy(update={"characters": luck.shared({**campaign.characters, name: character},
                                                                     character, rules)})
    if result.success:
        return campaign, events
    campaign, infected = infect(campaign, name, disease, rules)
    return campaign, events + infected


def _check(name: object, disease: object) -> None:
    """A character's name (text) and a Disease, or a FurnaceError saying which is wrong."""
    if not isinstance(name, str):
        raise UnknownNameError("character", repr(name))
    if not isinstance(disease, Disease):
        raise DiseaseError(f"a disease is a Disease (see load_disease, packaged_disease), not {type(disease).__name__}")


def cure(campaign: Campaign, name: str, disease_name: str) -> tuple[Campaign, list[Event]]:
    """The disease is cured (Lay on Hands, F-CLR-06): its saves still to come are cancelled."""
    if not isinstance(disease_name, str):
        raise UnknownNameError(f"disease of {name}", repr(disease_name))

    def named(data: dict[str, Any]) -> str:
        disease = data.get("disease")
        return str(disease.get("name", "")).lower() if isinstance(disease, dict) else ""

    entries = [e for e in campaign.clock.entries if e.kind == "disease_save" and e.owner == name
               and named(e.data) == disease_name.lower()]
    if not entries:
        raise UnknownNameError(f"disease of {name}", disease_name)
    for e in entries:
        campaign = cancel(campaign, e.id)
    return campaign, [about(DISEASE_CURED, campaign, name, (), ("H-DIS-04",), disease=disease_name)]


def resting(campaign: Campaign, character: Character) -> bool:
    flag = campaign.flags.get("resting", False)
    on = flag is True or (isinstance(flag, list | tuple | set | dict) and character.name in flag)
    return on or bool(state(character).get("resting", False))


def disease_save(character: Character, disease: Disease, number: int, of: int, is_resting: bool,
                 rng: DiceSource, rules: Ruleset) -> tuple[Character, list[Event]]:
    """One save of the course (H-DIS-04/05); a failure applies the effect once (H-DIS-06)."""
    extra = [] if is_resting else [Modifier(disease.penalty_not_resting, "not resting")]
    result = hazard_save(character, disease.save_category, rng, rules, f"{disease.name}, save {number} of {of}", extra)
    cite = ("H-DIS-04",) if is_resting else ("H-DIS-04", "H-DIS-05")
    events = [save_event(DISEASE_SAVE, character, result, disease.save_category, rules, cite, disease=disease.name,
                         number=number, of=of, resting=is_resting)]
    character, luck_events = counted(character, result, rules)
    events += luck_events
    if result.success:
        return character, events
    amount = disease.effect.amount or int(rules["disease_loss_per_failure"])
    loss: Loss = "permanent" if disease.effect.permanent else "temporary"
    character, lost = lose(character, disease.effect.ability, amount, rules, disease.name, loss, ("H-DIS-06", "AMB-73"))
    return character, events + lost


@handler("disease_save")
def _disease_save(fire: Fire) -> None:
    character = fire.character()
    if not character.alive:
        fire.stop_repeating()
        return
    try:
        disease = Disease.model_validate(fire.entry.data.get("disease"))
        of = int(fire.entry.data["saves"])
    except (ValidationError, KeyError, TypeError, ValueError):
        raise ClockError(f"clock entry #{fire.entry.id}: data.disease and data.saves do not describe a disease; "
                         "cancel the entry and infect again") from None
    number = of - (fire.entry.remaining or 1) + 1
    character, events = disease_save(character, disease, number, of, resting(fire.campaign, character),
                                     fire.rng, fire.rules)
    fire.put(character)
    stamp(fire, events)
    if not character.alive:
        fire.stop_repeating()

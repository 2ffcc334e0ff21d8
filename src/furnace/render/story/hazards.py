"""The tellers of the Hazards chapter's facts (RULES.md PART H): a hazard's SAVE, ability scores and HP out of a
fight, falling, poison and drink, travel and the referee's secret lost check, light, languages, natural healing,
hunger, thirst and sleep, aging and disease.

Each teller asks the `View` for the values it tells: a character's numbers are known as she is (a PC's by the
table), and the lost check is the referee's alone (its fact's audience).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from furnace.events import Event
from furnace.render.story import Told, teller
from furnace.render.story.conditions import condition_words
from furnace.render.story.view import View
from furnace.render.story.words import cause_of_death


def _n(v: View, e: Event, key: str) -> str:
    """A number as she may know it ('' when she may not); 4.0 is 4."""
    value = v.value(e, key)
    if value is None:
        return ""
    return f"{value:g}" if isinstance(value, float) else str(value)


def _signed(value: object) -> str:
    return f"{value:+d}" if isinstance(value, int) else str(value)


def _count(count: object, word: str, words: str | None = None) -> str:
    """'1 turn', '4 turns', '4.5 turns'."""
    shown = f"{count:g}" if isinstance(count, float) else str(count)
    return f"{shown} {word if shown == '1' else words or word + 's'}"


# -- a hazard's SAVE (D-5) ----------------------------------------------------------------------------------------
SAVES = {"poison_save": "against {toxin}", "hunger_save": "the hunger save (a day without food)",
         "thirst_save": "the thirst save (a day without water)", "aging_save": "the aging save at {age}",
         "exposure_save": "against exposure to {disease}", "disease_save": "the {disease} save {number} of {of}"}


class _Known(dict[str, object]):
    """A fact's values as the viewer may know them, for a template ('?' for one she may not)."""

    def __init__(self, e: Event, v: View) -> None:
        super().__init__({k: v.value(e, k) for k in e.data})
        for k, value in list(self.items()):
            if value is None:
                del self[k]

    def __missing__(self, key: str) -> str:
        return "?"


@teller(*SAVES)
def hazard_save(e: Event, v: View) -> str:
    what = SAVES[e.kind].format_map(_Known(e, v))
    verb = "saves" if e.data.get("saved") else "fails"
    ability, category = e.data.get("ability"), e.data.get("category")
    save = f"{ability} SAVE" if ability else "SAVE"
    total, natural, modifiers = v.value(e, "total"), v.value(e, "natural"), v.value(e, "modifiers")
    if total is None:
        return f"{verb} {what} ({save} vs {category}, DC {e.data.get('dc')})"
    terms = "".join(f" {_signed(m.get('value'))} ({m.get('source')})" for m in _mappings(modifiers))
    return f"{verb} {what} ({save} vs {category}): d20 {natural}{terms} = {total} vs DC {e.data.get('dc')}"


def _mappings(value: object) -> list[Mapping[str, Any]]:
    return [m for m in value if isinstance(m, Mapping)] if isinstance(value, list) else []


# -- scores, HP and death out of a fight (H-ABIL-01..03, H-DMG-01..03) ---------------------------------------------
@teller("con_hp")
def con_hp(e: Event, v: View) -> str:
    if v.value(e, "hp_after") is None:
        return "her HP change with her CON modifier"
    return (f"CON modifier {_signed(e.data.get('delta'))} × {_n(v, e, 'dice')} HD: HP {_n(v, e, 'hp_before')} → "
            f"{_n(v, e, 'hp_after')}, max {_n(v, e, 'hp_max_before')} → {_n(v, e, 'hp_max_after')}")


@teller("recovery")
def recovery(e: Event, v: View) -> str:
    ability, weeks = e.data.get("ability"), _count(e.data.get("weeks"), "week")
    if v.value(e, "after") is None:
        return f"{ability} comes back after {weeks} of rest"
    return (f"{ability} {_n(v, e, 'before')} → {_n(v, e, 'after')}: {_count(v.value(e, 'back'), 'point')} back "
            f"after {weeks} of rest")


@teller("unconscious")
def unconscious(e: Event, v: View) -> str:
    hp_now = _n(v, e, "hp")
    at = f" at {hp_now} HP" if hp_now else ""
    hours = v.value(e, "hours")
    if hours is not None:
        return f"is unconscious{at}: wakes in {_count(hours, 'hour')}"
    if e.data.get("wake_dice"):
        return f"drops{at}: unconscious, wakes after {e.data.get('wake_dice')} hours"
    return f"drops{at}: unconscious"


@cause_of_death("hazards_threshold", "dead at −3 HP")
def _dead_at_minus_3(e: Event, v: View) -> str:
    floor = str(e.data.get("threshold", -3)).replace("-", "−")
    hp_now = _n(v, e, "hp")
    return f"dies: HP {hp_now}: dead at {floor}" if hp_now else f"dies: dead at {floor} HP"


@cause_of_death("ability_zero", "an ability score fell to 0")
def _ability_zero(e: Event, v: View) -> str:
    ability = v.value(e, "ability")
    return f"dies: {ability} fell to 0" if ability else "dies: an ability score fell to 0"


@cause_of_death("poison", "poison")
def _poisoned(e: Event, v: View) -> str:
    toxin = v.value(e, "toxin")
    return f"dies of {toxin}" if toxin else "dies of poison"


@cause_of_death("deprivation", "hunger and thirst")
def _deprived(e: Event, v: View) -> str:
    failures = v.value(e, "failures")
    return f"dies: {failures} failed deprivation saves" if failures else "dies of hunger and thirst"


# -- falling and mapping (H-FALL-01, H-MAP-01) ------------------------------------------------------------------
@teller("fall")
def fall(e: Event, v: View) -> str:
    feet = e.data.get("feet")
    if not e.data.get("dice"):
        return f"falls {feet} feet: under 10 feet, no damage"
    return f"falls {feet} feet: {e.data.get('dice')} = {e.data.get('damage')}"


@teller("mapping")
def mapping(e: Event, v: View) -> str:
    if e.data.get("can_map"):
        return "can map"
    reasons = [f"no {what}" for what in e.data.get("missing") or []]
    hands = e.data.get("hands")
    if hands:
        holding = ", ".join(str(h) for h in e.data.get("holding") or [])
        reasons.append(f"{_count(hands, 'hand')} busy" + (f" with {holding}" if holding else ""))
    return "cannot map: " + "; ".join(reasons)


# -- drink, drugs and poison (H-DRUG-01/02, H-POIS-01) ----------------------------------------------------------
@teller("drug")
def drug(e: Event, v: View) -> str:
    return f"takes {e.data.get('toxin')} on purpose: no save"


@teller("poison")
def poison(e: Event, v: View) -> str:
    toxin = e.data.get("toxin")
    if e.data.get("effect") == "condition":
        return f"{toxin}: {condition_words(str(e.data.get('condition', '')))}"
    amount = _n(v, e, "amount")
    return f"{toxin} deals {amount}" if amount else f"{toxin} hurts her"


@teller("drunk")
def drunk(e: Event, v: View) -> str:
    saves = _signed(e.data.get("saves"))
    dex_mod, dex = v.value(e, "dex_mod"), v.value(e, "dex")
    if dex_mod:
        return f"drunk: {_signed(dex_mod)} to the DEX modifier and {saves} to saves"
    if isinstance(dex, int) and dex:
        return f"drunk: DEX {_signed(-dex)} and {saves} to saves"
    return f"drunk: {saves} to saves"


@teller("sober")
def sober(e: Event, v: View) -> str:
    return "sobers up"


# -- travel (H-TRAV-01..03) ---------------------------------------------------------------------------------------
@teller("travel")
def travel(e: Event, v: View) -> Told:
    along = "" if e.data.get("wilderness") else " along a trail, road or landmark"
    return Told("the party", f"travel day {e.data.get('day')}, heading {e.data.get('heading')}{along}", (), e.rules)


LOST = {"trail": "no lost roll on a trail, road or landmark",
        "still_lost": "still off course: heading {actual}, not {intended} (no roll until the referee clears it)",
        "on_course": "on course ({total})",
        "off_course": "off course: the party believes it heads {intended} but goes {actual}"}


@teller("lost_check")
def lost_check(e: Event, v: View) -> Told | None:
    if not v.referee:
        return None
    text = LOST.get(str(e.data.get("outcome")), "{outcome}").format_map(_Known(e, v))
    return Told("", f"lost check, day {e.data.get('day')}: {text}", tuple(r.explain() for r in e.rolls), e.rules)


# -- light (H-LIGHT-01..04, AMB-81) -------------------------------------------------------------------------------
@teller("light")
def light(e: Event, v: View) -> str:
    turns = _count(e.data.get("turns"), "exploration turn")
    return (f"lights a {e.data.get('source')}: {e.data.get('radius_ft')}' radius, burns {turns} "
            f"({e.data.get('minutes')} minutes)")


@teller("snuff")
def snuff(e: Event, v: View) -> str:
    return f"puts out the {e.data.get('source')}: {_count(e.data.get('turns_left'), 'turn')} left to burn"


@teller("light_out")
def light_out(e: Event, v: View) -> str:
    return f"the {e.data.get('source') or 'light'} burns out"


@teller("light_refuel")
def light_refuel(e: Event, v: View) -> str:
    return (f"the {e.data.get('source')}'s flask runs dry: refilled from a flask of oil, "
            f"{_count(e.data.get('turns'), 'turn')} more ({_count(e.data.get('flasks_left'), 'flask')} left)")


# -- languages (H-LANG-01..03, AMB-78) ----------------------------------------------------------------------------
@teller("language")
def language(e: Event, v: View) -> str:
    name, outcome = e.data.get("language"), e.data.get("outcome")
    if outcome == "speaks":
        return f"already speaks {name}"
    if outcome == "magical":
        return f"{name} is magical: it cannot be known this way"
    word = "knows" if e.data.get("known") else "does not know"
    if outcome == "remembered":
        return f"{word} {name}: the one attempt was already made"
    chance, roll = v.value(e, "chance"), v.value(e, "roll")
    if outcome == "certain":
        return f"{word} {name}: {chance} in 6, no roll needed" if chance is not None else f"{word} {name}"
    if roll is None or chance is None:
        return f"{word} {name}"
    return f"{word} {name}: 1d6 {roll} {'≤' if e.data.get('known') else '>'} {chance}"


# -- natural healing (H-HEAL-01..08, AMB-77) ----------------------------------------------------------------------
RESTS = {"night": "night", "full_day": "full day", "week": "week", "short": "short rest", "long": "long rest",
         "post_combat": "rest after the fight", "hour": "hour of rest", "day": "day of rest"}
GAINS = {"troubled_night": "the night was not peaceful",
         "below_half_night": "below half HP ({half}): a night alone heals nothing",
         "peaceful_night": "a peaceful night at half HP or more",
         "unfed": "no rest without adequate food and water",
         "full_day": "a full day of rest",
         "full_day_below_half": "a full day of rest below half HP",
         "bed": "a comfortable bed in a clean room"}


@teller("rest_heal")
def rest_heal(e: Event, v: View) -> str:
    rest = RESTS.get(str(e.data.get("rest")), str(e.data.get("rest")))
    if e.data.get("hostile"):
        return f"rests ({rest}) in a hostile place: no recovery"
    known = _Known(e, v)
    gains = []
    for gain in _mappings(v.value(e, "gains")):
        words = GAINS.get(str(gain.get("why")), str(gain.get("why"))).format_map(known)
        gains.append(f"+{gain.get('amount')} {words}" if gain.get("amount") else words)
    why = "; ".join(gains) or "already at full HP"
    capped = " (capped at the maximum)" if e.data.get("capped") else ""
    if v.value(e, "hp_after") is None:
        return f"{rest} of rest: {why}{capped}"
    return f"{rest}: HP {_n(v, e, 'hp_before')} → {_n(v, e, 'hp_after')}: {why}{capped}"


@teller("place")
def place(e: Event, v: View) -> Told:
    if not e.data.get("hostile"):
        return Told("the party", "is somewhere safe: rests recover as the healing model says", (), e.rules)
    if e.data.get("no_recovery"):
        return Told("the party", "is in a hostile place: a rest here recovers nothing", (), e.rules)
    return Told("the party", "is in a hostile place (rests still recover: the option hazards_no_rest_in_dungeon is "
                             "off)", (), e.rules)


@teller("wake_up")
def wake_up(e: Event, v: View) -> str:
    if e.data.get("helpless"):
        return "wakes up: cannot stand or carry gear, can talk and crawl 10' while HP ≤ 0"
    return "wakes up"


# -- hunger, thirst and sleep (H-STARV-01..05, H-SLEEP-01) ---------------------------------------------------------
@teller("needs")
def needs(e: Event, v: View) -> str:
    return "food, water and sleep are counted every 24 hours"


@teller("sleep")
def sleep(e: Event, v: View) -> str:
    hours = _count(v.value(e, "hours"), "hour")
    penalty, before = v.value(e, "penalty"), v.value(e, "penalty_before")
    if penalty == 0:
        return f"sleeps {hours}: the penalty of {before} is gone"
    if penalty is None:
        return "is short of sleep"
    return f"only {hours} of sleep: {penalty} to all rolls ({_n(v, e, 'percent')}% on d%)"


# -- aging (H-AGE-01..03, CF-43) ----------------------------------------------------------------------------------
@teller("aging")
def aging(e: Event, v: View) -> str:
    how = "is magically aged" if e.data.get("magical") else "ages"
    saves = v.value(e, "saves")
    due = f": {_count(len(saves), 'aging save')} due" if isinstance(saves, list) else ""
    row, race = str(e.data.get("row", "")), str(e.data.get("race", ""))
    note = f" ({race}: the {row} row)" if row and race and row.lower() != race.lower() else ""
    if v.value(e, "after") is None:
        return f"{how}{note}"
    return f"{how} {_n(v, e, 'before')} → {_n(v, e, 'after')}{due}{note}"


@teller("aging_loss")
def aging_loss(e: Event, v: View) -> str:
    return f"age takes 1 point of {e.data.get('ability')}"


@teller("aging_scheduled")
def aging_scheduled(e: Event, v: View) -> str:
    age = _n(v, e, "age")
    return f"ages a year at a time from {age}" if age else "ages a year at a time"


# -- disease (H-DIS-01..06) ---------------------------------------------------------------------------------------
def duration(value: object) -> str:
    """A disease's duration ({amount, unit}) in words: '1 week', '4 hours', '2 exploration turns'."""
    if not isinstance(value, Mapping):
        return str(value)
    amount, unit = value.get("amount"), str(value.get("unit", "")).replace("_", " ")
    unit = unit.removesuffix("es") if unit.endswith("ches") else unit.removesuffix("s")
    return _count(amount, unit, unit + ("es" if unit.endswith("ch") else "s"))


@teller("disease")
def disease(e: Event, v: View) -> str:
    return (f"infected with {e.data.get('disease')}: after {duration(e.data.get('incubation'))}, "
            f"{_count(e.data.get('saves'), 'save')}, one every {duration(e.data.get('interval'))}")


@teller("disease_cured")
def disease_cured(e: Event, v: View) -> str:
    return f"cured of {e.data.get('disease')}"

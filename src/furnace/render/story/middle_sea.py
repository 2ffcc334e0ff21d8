"""The tellers of the Middle Sea house rules' facts (RULES.md PART M): grievous injuries and what they leave (a
location, a broken bone, a death timer, a lasting injury), a blow at exactly 0 HP, the armor's and the weapon's item
saves, the Middle Sea crit and off-balance, the clock's wounds, Liquid Courage, cures and the recovery of HP.

Each asks the `View` for what a viewer may know: a monster's totals, HP, weapon and armor stay with the referee.
"""

from __future__ import annotations

from furnace.events import Event
from furnace.render.story import Told, teller
from furnace.render.story.conditions import condition_words, ending_words
from furnace.render.story.view import View

UNITS = {"exploration_turn": ("exploration turn", "exploration turns"), "round": ("round", "rounds"),
         "minute": ("minute", "minutes"), "hour": ("hour", "hours"), "segment": ("segment", "segments"),
         "next_turn": ("turn", "turns"), "week": ("week", "weeks"), "day": ("day", "days")}
ENDS = {"until_stands": "stands", "until_healed": "cured", "until_cured": "cured", "until_rest": "rest",
        "until_repaired": "repaired", "permanent": "permanent", "encounter": "encounter"}


def _count(amount: object, unit: str) -> str:
    """'1 round', '4 exploration turns' (a unit's plural as a person says it)."""
    one, many = UNITS.get(unit, (unit.replace("_", " "), unit.replace("_", " ") + "s"))
    return f"{amount} {one if amount == 1 else many}"


def _words(value: object) -> str:
    """A code or a table's name as words: crushing_blow → crushing blow, broken-bone → broken bone."""
    return str(value).replace("_", " ").replace("-", " ")


def _signed(value: object) -> str:
    number = value if isinstance(value, int) else 0
    return f"+{number}" if number >= 0 else f"−{-number}"


def _hp(v: View, e: Event) -> str:
    """'HP 38 → 41' when she may know them."""
    before, after = v.value(e, "hp_before"), v.value(e, "hp_after")
    return f"HP {before} → {after}" if before is not None and after is not None else ""


def _rolls(e: Event, v: View) -> tuple[str, ...]:
    return tuple(r.explain() for r in e.rolls) if v.rolls(e) else ()


# -- grievous injuries (M-GRIEV-01..10, M-BONE-01, M-SEVER-01) ---------------------------------------------------
@teller("grievous")
def grievous(e: Event, v: View) -> str:
    total = v.value(e, "total")
    return f"grievous injury{f' {total}' if total is not None else ''}: {e.data.get('text', '')}"


@teller("grievous_veto")
def grievous_veto(e: Event, v: View) -> str | None:
    if not v.referee:
        return None
    location = e.data.get("location")
    where = f" to the {location}" if location else ""
    return (f"for the referee: {e.data.get('damage_type')} causes no {_words(e.data.get('band'))}{where} "
            "(your veto): choose another result")


@teller("grievous_location")
def grievous_location(e: Event, v: View) -> str:
    total = v.value(e, "total")
    return f"{_words(e.data.get('name'))}{f' {total}' if total is not None else ''}: {e.data.get('text', '')}"


@teller("wound_condition")
def wound_condition(e: Event, v: View) -> str:
    name = condition_words(str(e.data.get("condition", "")))
    unit = e.data.get("unit")
    if not isinstance(unit, str) or not unit:
        return f"is {name}"
    if unit in ENDS:
        return f"is {name} ({ending_words(ENDS[unit])})"
    amount = v.value(e, "amount")
    return f"is {name} for {_count(amount, unit)}" if amount is not None else f"is {name} for a while"


@teller("killed_outright")
def killed_outright(e: Event, v: View) -> str:
    total, location = v.value(e, "total"), e.data.get("location")
    what = _words(e.data.get("table", "grievous injury")) + (f" {total}" if total is not None else "")
    return f"dies: killed outright ({what}{f', {location}' if location else ''})"


TIMERS = {"fatal_wound": "a fatal wound", "bleeding": "bleeding"}


@teller("wound_timer")
def death_timer(e: Event, v: View) -> str:
    amount, unit = v.value(e, "amount"), str(e.data.get("unit", "round"))
    when = f"dies in {_count(amount, unit)}" if amount is not None else "will die"
    unless = f" unless {e.data.get('unless')}" if e.data.get("unless") else ""
    return f"{TIMERS.get(str(e.data.get('timer')), 'a death timer')}: {when}{unless}"


@teller("lasting_injury")
def lasting_injury(e: Event, v: View) -> str:
    return f"a lasting injury: {e.data.get('lasting')}"


@teller("grievous_effect")
def grievous_effect(e: Event, v: View) -> str | None:
    from furnace.rules.effects import EffectError, effect_summary, parse_effect

    raw = e.data.get("effect")
    if isinstance(raw, dict) and raw.get("kind") == "referee_prompt" and not v.referee:
        return None
    try:
        return effect_summary(parse_effect(raw))
    except EffectError:
        return _words(raw.get("kind", "an effect") if isinstance(raw, dict) else "an effect")


@teller("broken_bone")
def broken_bone(e: Event, v: View) -> str:
    location = e.data.get("location")
    if e.data.get("averted"):
        return f"the helmet saves: the broken {location} is ignored"
    if e.data.get("repeat"):
        added = v.value(e, "weeks_added")
        more = f"+{_count(added, 'week')} of healing" if added is not None else "more weeks of healing"
        return f"another break in the {location}: {more}, no further effect"
    weeks = v.value(e, "weeks")
    text = f"broken {location}" + (f": heals in {_count(weeks, 'week')}" if weeks is not None else "")
    return text + ('; both legs broken: crawls at 1"' if e.data.get("both_legs") else "")


@teller("severed_limb")
def severed_limb(e: Event, v: View) -> str:
    if e.data.get("averted"):
        return "the helmet saves the head: stunned instead, no limb lost and no bleeding"
    return f"loses the {e.data.get('location')} for good"


@teller("helmet_variant")
def helmet_variant(e: Event, v: View) -> str:
    return "wears a helmet: the helmet result applies"


ZERO = {"knocked_down": "knocked down, conscious and prone", "unconscious": "unconscious (the AD&D 1e reading)",
        "conscious_limited": "conscious, but can do no more than crawl"}


@teller("exactly_zero")
def exactly_zero(e: Event, v: View) -> str:
    reading = str(e.data.get("reading"))
    return f"exactly 0 HP: {ZERO.get(reading, condition_words(str(e.data.get('condition', ''))))}"


@teller("out_of_fight")
def out_of_fight(e: Event, v: View) -> str:
    if v.referee:
        return "out of the fight at 0 HP with no grievous roll: the referee decides whether dead or disabled"
    return "is out of the fight at 0 HP"


# -- item saves: armor on a natural 20, the weapon on a natural 1 (M-ARM-01..05, M-WPN-01..08) ----------------------
def _item_save(e: Event, v: View) -> str:
    """'metal saves vs crushing blow: 9 vs 10 (X-TAB-06 metal/crushing_blow): failed', as much as she may know."""
    total, target, source = v.value(e, "total"), v.value(e, "target"), v.value(e, "source")
    numbers = f": {total} vs {target}" if total is not None and target is not None else ""
    where = f" ({_save_source(str(source))})" if source else ""
    outcome = "saved" if e.data.get("saved") else "failed"
    return f"{_words(e.data.get('material'))} saves vs {_words(e.data.get('form'))}{numbers}{where}: {outcome}"


def _save_source(source: str) -> str:
    """Where an item's save number comes from, in words: the referee's number or a row of an item-save table."""
    if source.startswith("option "):
        return "the referee's number for it"
    _table, _, row = source.partition(" ")
    return f"the item-save table's {row.replace('/', ' vs ').replace('_', ' ')}" if row else "the item-save table"


def _armor_loss(e: Event, v: View) -> str:
    d, piece, result = e.data, str(e.data.get("piece")), str(e.data.get("result"))
    left, points = v.value(e, "left"), v.value(e, "points")
    if piece == "armor":
        armor = v.value(e, "armor") if v.plain(e, e.actor) else None
        name = f"the {armor or 'armor'}"
        if result == "destroyed":
            return f"{name} loses its last point of protection and is destroyed"
        counted = f", {left} of {points} left" if left is not None and points else ""
        return f"{name} loses a point of protection{counted}"
    if piece == "shield":
        if result == "lost_plus":
            plus = v.value(e, "plus")
            return "the magic shield loses one plus" + (f": {_signed(plus)} now" if plus is not None else "")
        if result == "dented":
            return "the shield loses a point"
        if result == "destroyed":
            return "the shield loses its last point and is destroyed" if d.get("points") else "the shield is destroyed"
        return "the shield loses 1 point" + (f": {left} of {points} left" if left is not None and points else "")
    return f"the {piece} is destroyed"


@teller("armor_save")
def armor_save(e: Event, v: View) -> str:
    piece, result = e.data.get("piece"), str(e.data.get("result"))
    if result == "no_armor":
        return "wears no armor, shield or helmet: nothing to damage"
    if result == "saved":
        return f"the {piece} takes the blow and holds ({_item_save(e, v)})"
    before, after = v.value(e, "ac_before"), v.value(e, "ac_after")
    change = f": AC {before} → {after}" if before is not None and after is not None and before != after else ""
    return f"{_armor_loss(e, v)}{change} ({_item_save(e, v)})"


def _mishap(e: Event, v: View, weapon: str) -> str:
    d, outcome, cls = e.data, str(e.data.get("outcome")), str(e.data.get("weapon_class"))
    total = v.value(e, "total")
    rolled = f" ({total})" if total is not None else ""
    if outcome == "none":
        natural = d.get("natural")
        return "a natural 2 harms only a wet string" if natural == 2 else f"a natural {natural} harms no weapon"
    if cls == "blunt":
        if outcome == "held":
            return f"keeps hold{rolled}"
        return f"slips from the grasp{rolled}: lands {d.get('feet')} feet away to the {d.get('direction')}"
    if cls in ("hurled", "unarmed"):
        if outcome == "held":
            return f"keeps balance{rolled}"
        segments = d.get("segments")
        if segments:
            return f"off-balance{rolled}: no DEX or shield AC, loses {_count(segments, 'segment')} next round"
        return f"off-balance{rolled}: no DEX or shield AC and acts last next turn"
    save = _item_save(e, v)
    if d.get("in_use"):
        held = "holds another round" if outcome == "held" else "snaps: the weapon is unusable"
        return f"the cracked {weapon} saves for this round's use ({save}): it {held}"
    if outcome == "notched":
        notches, penalty = v.value(e, "notches"), v.value(e, "penalty")
        if notches is None:
            return f"{save}: a notch"
        return f"{save}: a notch, {notches} now, {_signed(penalty)} to hit and damage"
    return f"{save}: " + {
        ("sharp", "held"): "no harm", ("strung", "held"): "the string holds",
        ("strung", "snapped"): "the string snaps and the weapon is ruined", ("pole", "held"): "the haft holds",
        ("pole", "snapped"): "the cracked haft snaps; the weapon is unusable",
        ("pole", "cracked"): "the haft cracks; it saves every round it is used",
    }.get((cls, outcome), _words(outcome))


@teller("weapon_mishap")
def weapon_mishap(e: Event, v: View) -> Told:
    named = v.value(e, "weapon") if v.plain(e, e.actor) else None
    weapon = str(named or "weapon")
    if not e.actor:    # a weapon on its own (the `weapon-mishap` command): the weapon is the subject
        return Told(weapon, _mishap(e, v, weapon), _rolls(e, v), e.rules)
    text = _mishap(e, v, weapon)
    if not e.data.get("in_use"):
        text = f"natural 1, the {weapon}: {text}" if named else f"natural 1, its weapon: {text}"
    return Told(v.name(e, e.actor), text, _rolls(e, v), e.rules)


CRITS = {"armored": "normal damage{n} and an armor-damage save",
         "no_body_armor": "no body armor: maximum damage{n}, and the shield or helmet takes the blow",
         "unarmored": "not wearing armor: maximum damage{n} and nothing else"}


@teller("middle_sea_crit")
def middle_sea_crit(e: Event, v: View) -> str:
    damage = v.value(e, "damage")
    text = CRITS.get(str(e.data.get("outcome")), CRITS["armored"]).format(n=f" ({damage})" if damage else "")
    return f"natural 20 against {v.name(e, e.targets[0]) if e.targets else 'the foe'}: {text}"


@teller("off_balance")
def off_balance(e: Event, v: View) -> str:
    segments = e.data.get("segments_lost")
    time = f"loses {_count(segments, 'segment')}" if segments else "acts last"
    dex, shield, before, after = (v.value(e, k) for k in ("dex", "shield", "ac_before", "ac_after"))
    if dex is None or before is None:
        return f"off-balance until its next turn: no DEX or shield AC; {time} next round"
    return (f"off-balance until its next turn: no DEX ({_signed(dex)}) or shield ({_signed(shield)}) AC, "
            f"AC {before} → {after}; {time} next round")


# -- the clock: wounds, bones (M-GRIEV-06..08) --------------------------------------------------------------------
@teller("wound_scheduled")
def wound_scheduled(e: Event, v: View) -> str:
    entry = v.value(e, "entry")
    on = f" (entry #{entry})" if entry is not None else ""
    location, weeks = e.data.get("location"), v.value(e, "weeks")
    if e.data.get("timer"):
        amount = v.value(e, "amount")
        when = f" in {_count(amount, str(e.data.get('unit', 'round')))}" if amount is not None else ""
        return f"on the clock: death from the {_words(e.data.get('timer'))}{when}{on}"
    if e.data.get("later"):
        later = f"{_count(weeks, 'week')} later" if weeks is not None else "later"
        return f"the {location} now heals {later}{on}"
    return f"on the clock: the {location} heals" + (f" in {_count(weeks, 'week')}" if weeks is not None else "") + on


@teller("bone_heals")
def bone_heals(e: Event, v: View) -> str:
    breaks = v.value(e, "breaks")
    count = f" ({breaks} {'break' if breaks == 1 else 'breaks'})" if breaks is not None else ""
    return f"the broken {e.data.get('location')} has knit{count}"


# -- Liquid Courage (M-DRINK-01), cures (M-GRIEV-07/08, M-BONE-02), recovery (M-HEAL-01..03) ------------------------
@teller("courage")
def courage(e: Event, v: View) -> str:
    drink, d = str(e.data.get("drink")), e.data
    if drink == "again":
        ruling = "; the referee may rule her drunk" if v.referee else ""
        return f"already has Liquid Courage: another drink gives nothing until it wears off{ruling}"
    hp = _hp(v, e)
    if drink == "wears_off":
        return f"Liquid Courage wears off: no more {_signed(d.get('to_hit'))} to hit" + (f"; {hp}" if hp else "")
    amount = v.value(e, "amount")
    gained = f" +{amount} HP ({hp.removeprefix('HP ')})," if amount is not None and hp else ""
    return (f"drinks Liquid Courage:{gained} {_signed(d.get('morale'))} morale and saves vs fear, "
            f"{_signed(d.get('to_hit'))} to hit, for {_count(d.get('hours'), 'hour')}")


@teller("orison")
def orison(e: Event, v: View) -> str:
    """'performs the orison Bless (1 of 1 today)'."""
    used, per_day = v.value(e, "used"), v.value(e, "per_day")
    count = f" ({used} of {per_day} today)" if used is not None and per_day is not None else ""
    return f"performs the orison {e.data.get('orison')}{count}"


CURES = {"cure_serious": "Cure Serious Wounds", "cure_critical": "Cure Critical Wounds", "cauterise": "cauterising",
         "tourniquet": "a tourniquet", "lay_on_hands": "Lay on Hands"}


@teller("wound_cure")
def cure(e: Event, v: View) -> str:
    name = CURES.get(str(e.data.get("cure")), _words(e.data.get("cure")))
    timer = e.data.get("timer")
    if timer == "bleeding":
        return f"{name}: the bleeding stops; no HP come back"
    if timer:
        return f"{name}: the fatal wound is stopped; still unconscious until healed above 0 HP; no HP come back"
    location, left = e.data.get("location"), v.value(e, "left")
    if left == 0:
        rest = f"the {location} is whole again"
    elif left is None:
        rest = "the breaks there still need a spell or time"
    else:
        rest = f"{left} {'break there still needs' if left == 1 else 'breaks there still need'} a spell or time"
    return f"{name} mends one break in the {location}: {rest}; no HP come back"


@teller("wound_cure_approval")
def cure_approval(e: Event, v: View) -> str | None:
    if not v.referee:
        return None
    name = CURES.get(str(e.data.get("cure")), _words(e.data.get("cure")))
    stands = CURES.get(str(e.data.get("stands_for")), _words(e.data.get("stands_for")))
    return f"for the referee: {name} counts as one {stands} once you approve it"


RECOVERY = {"hour": "an hour of rest below half HP", "day": "a full day of rest at or above half HP"}


@teller("middle_sea_recovery")
def recovery(e: Event, v: View) -> str:
    how = str(e.data.get("how"))
    hp, before, most, start = _hp(v, e), v.value(e, "hp_before"), v.value(e, "hp_max"), v.value(e, "start")
    if how == "no_loss":
        of = f" ({before} of {start})" if before is not None and start is not None else ""
        return f"lost no HP in the combat{of}: no recovery roll"
    if how == "at_half":
        of = f" ({before} of {most})" if before is not None and most is not None else ""
        return f"at or above half HP{of}: an hour of rest heals nothing; a full day gives a hit die"
    if how == "post_combat":
        text = "recovers after the combat, up to the " + (f"{start} HP" if start is not None else "HP") + \
            " it entered with"
    else:
        text = RECOVERY.get(how, "recovers")
    return text + (f": {hp}" if hp else "")

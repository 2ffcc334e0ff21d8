"""The tellers of what lasts past a fight: what it left on a character, rests, timers, a skill challenge."""

from __future__ import annotations

from furnace.events import Event
from furnace.render.story import Told, teller
from furnace.render.story.view import View
from furnace.render.story.words import condition_words, death_cause

# -- what a fight leaves, and rest ------------------------------------------------------------------------------
AFTER = {
    "hp": "HP {hp_before} → {hp_after} after the fight",
    "dead": "is dead: {cause}",
    "dying": "is dying at the fight's end: the death timer runs on until she is stabilised or healed",
    "stable": "is unconscious at {hp} HP, stabilised",
    "up_again": "is up again: no longer {conditions}",
    "ability": "{ability} {before} → {after} ({loss})",
    "injury_healed": "no longer: {injury} (healed in the fight)",
    "injury": "keeps the injury: {injury}",
    "until_rest": "until her next rest: {condition} ({source})",
    "keeps_condition": "keeps {condition} after the fight ({source})",
    "keeps_marker": "keeps {condition} after the fight ({source})",
    "luck_dice": "Luck Dice {before} → {after}",
    "luck_streak": "failed rolls in a row: {before} → {after}",
    "spells_cast": "spells cast toward Spell Depletion: {before} → {after}",
    "disapproval": "disapproval range 1–{before} → 1–{after}",
    "armor_broken": "the {armor} has lost all its protection ({total}) and is broken",
    "armor_damaged": "the {armor} lost {lost} protection: {left} of {total} left, until repaired",
    "shield_destroyed": "her shield was destroyed in the fight",
    "helmet_destroyed": "her helmet was destroyed in the fight",
    "weapon_notched": "her {weapon} has {notches} {notch_word}: −{notches} to hit and damage",
    "weapon_cracked": "her {weapon} is cracked",
    "weapon_broken": "her {weapon} is broken, useless until repaired",
    "rages_used": "has used {used} of her {cap} {rage_word} until her next long rest",
}


@teller("after_fight")
def after_fight(e: Event, v: View) -> str:
    d: dict[str, object] = dict(e.data)
    for key in ("condition",):
        if key in d:
            d[key] = condition_words(str(d[key]))
    listed = d.get("conditions")
    if isinstance(listed, list):
        d["conditions"] = ", ".join(condition_words(str(c)) for c in listed)
    if d.get("cause"):
        d["cause"] = death_cause(str(d["cause"]))
    d["notch_word"] = "notch" if d.get("notches") == 1 else "notches"
    d["rage_word"] = "Rage" if d.get("cap") == 1 else "Rages"
    d["loss"] = "temporary, back 1 point a week of rest" if d.get("loss") == "temporary" else d.get("loss", "")
    template = AFTER.get(str(e.data.get("change")), "{change}")
    return template.format_map(_Missing(d))


class _Missing(dict[str, object]):
    def __missing__(self, key: str) -> str:
        return "?"


@teller("hit_die")
def hit_die(e: Event, v: View) -> str:
    return f"spends a Hit Die: HP {e.data.get('hp_before')} → {e.data.get('hp_after')}"


@teller("rested")
def rested(e: Event, v: View) -> str:
    if "spells_cast" in e.data:
        return f"Spell Depletion count {e.data.get('spells_cast')} → 0"
    return "no longer: " + "; ".join(_until_rest(str(x)) for x in e.data.get("ended") or [])


def _until_rest(line: str) -> str:
    """An "until rest" line ('MOD:checks:HARD: the injury', 'CANT_CAST: a mishap') in words."""
    name, _, source = line.partition(": ")
    words = condition_words(name)
    return f"{words} ({source})" if source and source != words else words


@teller("torso_wound")
def torso_wound(e: Event, v: View) -> str:
    if e.data.get("by"):
        return f"{e.data.get('by')} heals the torso wound"
    if e.data.get("healed"):
        need = e.data.get("need")
        return f"the torso wound heals after {need} {'day' if need == 1 else 'days'} of rest"
    need = e.data.get("need")
    return f"torso wound: day {e.data.get('days')} of {need} {'day' if need == 1 else 'days'} of rest"


@teller("pool_refilled")
def pool_refilled(e: Event, v: View) -> str:
    return f"Hit Dice pool refilled: {e.data.get('before')} → {e.data.get('after')}"


@teller("full_heal")
def full_heal(e: Event, v: View) -> str:
    return f"long rest: HP {e.data.get('hp_before')} → {e.data.get('hp_after')}"


@teller("rages_back")
def rages_back(e: Event, v: View) -> str:
    rages = e.data.get("rages")
    return f"the long rest gives back {rages} {'Rage' if rages == 1 else 'Rages'}"


@teller("timer")
def timer(e: Event, v: View) -> Told | None:
    label = str(e.data.get("label") or "")
    if not v.referee and not e.data.get("shown"):
        return None
    prompt = str(e.data.get("prompt") or "") if v.referee or e.data.get("shown") else ""
    text = f"the timer '{label}' runs out" + (f": {prompt}" if prompt else "")
    return Told("", text, tuple(r.explain() for r in e.rolls) if v.referee else (), e.rules)


@teller("unhandled")
def unhandled(e: Event, v: View) -> Told | None:
    if not v.referee:
        return None
    return Told("", f"'{e.data.get('label')}' falls due, and no rule of the campaign handles it")


@teller("skill_challenge")
def skill_challenge(e: Event, v: View) -> Told:
    d = e.data
    return Told("the party", f"the skill challenge {d.get('status')}: {d.get('successes')} successes, "
                f"{d.get('failures')} failures (needs {d.get('needs')}, fails at {d.get('fails_at')})",
                tuple(r.explain() for r in e.rolls), e.rules)


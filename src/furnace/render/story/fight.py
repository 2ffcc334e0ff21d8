"""The tellers of a fight's facts: attacks, damage, dying and death, the turn and the round.

Each teller builds its sentence from what the viewer may know (`View`): a monster's attack total, its AC,
its weapon and its HP stay with the referee; a concealed monster is "something unseen".
"""

from __future__ import annotations

from furnace.events import Event
from furnace.render.story import Told, teller
from furnace.render.story.view import View


def _n(v: View, e: Event, key: str) -> str:
    value = v.value(e, key)
    return "" if value is None else str(value)


def _vs(v: View, e: Event) -> str:
    """'(18 vs AC 14)' as much of it as she may know."""
    total, vs = _n(v, e, "total"), _n(v, e, "vs")
    if total and vs:
        return f" ({total} vs {vs})"
    return f" ({total})" if total else (f" (vs {vs})" if vs else "")


def _with(v: View, e: Event) -> str:
    weapon = v.value(e, "weapon")
    return f" with {weapon}" if weapon and v.plain(e, e.actor) else ""


@teller("miss")
def miss(e: Event, v: View) -> str:
    return f"misses {v.name(e, e.targets[0])}{_with(v, e)}{_vs(v, e)}"


@teller("hit")
def hit(e: Event, v: View) -> str:
    verb = "CRITS" if e.data.get("crit") else "hits"
    vs = _vs(v, e)
    if e.data.get("natural_20"):
        vs = vs[:-1] + ", a natural 20)" if vs else " (a natural 20)"
    return f"{verb} {v.name(e, e.targets[0])}{_with(v, e)}{vs}"


@teller("fumble")
def fumble(e: Event, v: View) -> str:
    if "table" not in e.data:
        return f"misses {v.name(e, e.targets[0])}: a natural 1"
    return f"fumbles: {_table_row(e, v)}"


def _table_row(e: Event, v: View) -> str:
    total, text = v.value(e, "total"), v.value(e, "text")
    die = v.value(e, "die")
    rolled = f"{total} on the {die}" if total is not None and die else f"{total}" if total is not None else ""
    return f"{rolled} → {text}" if rolled and text else str(text or "")


@teller("defended")
def defended(e: Event, v: View) -> str:
    target = v.name(e, e.targets[0])
    return f"strikes at {target}, who avoids the blow{_defence(v, e)}"


@teller("not_defended")
def not_defended(e: Event, v: View) -> str:
    verb = "CRITS" if e.data.get("crit") else "hits"
    return f"{verb} {v.name(e, e.targets[0])}, who fails to avoid the blow{_defence(v, e)}"


def _defence(v: View, e: Event) -> str:
    total, vs = _n(v, e, "total"), _n(v, e, "vs")
    return f" ({total} vs {vs})" if total and vs else ""


PROMPTS = {"armor_save_natural_20": "a natural 20 damages armor: make the struck piece's item save"}


@teller("referee")
def referee(e: Event, v: View) -> str | None:
    prompt = str(e.data.get("prompt", ""))
    note = str(e.data.get("note", ""))
    text = PROMPTS.get(prompt, prompt) if prompt else note or "a free-form action"
    return f"for the referee: {text}" if v.referee else None


POWERS = {"chosen_one": "Chosen one", "rally": "Rally", "bloodmagic": "Bloodmagic"}


@teller("power")
def power(e: Event, v: View) -> str:
    name = str(e.data.get("power", ""))
    if name == "chosen_one":
        return f"Chosen one: the ATK of {_n(v, e, 'before')} is rolled again: {_n(v, e, 'after')}".replace("  ", " ")
    if name == "rally":
        return f"rallies {v.name(e, e.targets[0])}: her next ATK is {e.data.get('mode', 'EASY')}"
    if name == "bloodmagic":
        amount = _n(v, e, "amount")
        return f"Bloodmagic: loses {amount} HP and adds {amount} to the DAM"
    return f"uses {POWERS.get(name, name)}"


@teller("luck")
def luck(e: Event, v: View) -> str:
    return f"spends a Luck Die: {_n(v, e, 'before')} → {_n(v, e, 'after')} ({_n(v, e, 'left')} left)"


@teller("rage")
def rage(e: Event, v: View) -> str:
    return f"rages: +{_n(v, e, 'bonus')} DAM, AC {_n(v, e, 'ac_before')} → {_n(v, e, 'ac_after')}"


@teller("damage_roll")
def damage_roll(e: Event, v: View) -> str | None:
    amount = v.value(e, "amount")
    if amount is None:
        return None       # a monster's damage dice: what she takes is told by the damage itself
    if e.data.get("maximum"):
        return f"deals the maximum of {_n(v, e, 'damage')}: {amount}"
    return f"deals {amount}"


@teller("sunder")
def sunder(e: Event, v: View) -> str:
    return (f"sunders her shield: takes {_n(v, e, 'taken')} of {_n(v, e, 'amount')}; the shield is destroyed, "
            f"AC {_n(v, e, 'ac_before')} → {_n(v, e, 'ac_after')}")


@teller("cleave")
def cleave(e: Event, v: View) -> str:
    victim = v.name(e, e.targets[0])
    if e.data.get("nobody_close"):
        what = "a new ATK" if e.data.get("new_attack") else f"{_n(v, e, 'overflow')} damage"
        return f"would cleave {what} past {victim}, but no foe is CLOSE"
    second = v.name(e, e.targets[1])
    if e.data.get("new_attack"):
        return f"cleaves into {second}: a new ATK"
    return f"cleaves: {_n(v, e, 'overflow')} remaining damage to {second}"


@teller("crit")
def crit(e: Event, v: View) -> str:
    return f"crit table: {_table_row(e, v)}"


@teller("hits_itself")
def hits_itself(e: Event, v: View) -> str:
    return "hits itself (no ATK roll)"


# -- damage, dying, death ---------------------------------------------------------------------------------------
@teller("damage")
def damage(e: Event, v: View) -> Told:
    amount = e.data.get("amount")
    source = ""
    if e.data.get("own"):
        means = v.value(e, "means") if v.knows(e, "hp_before") else None
        source = f" from her own {means}" if means else ""
    elif e.targets:
        by = v.name(e, e.targets[0])
        means = v.value(e, "means") if v.plain(e, e.targets[0]) else None
        source = f" from {by}'s {means}" if means else f" from {by}"
    elif v.value(e, "means"):
        source = f" from {v.value(e, 'means')}"
    return Told(v.name(e, e.actor), f"takes {amount}{source}{_hp(e, v)}", (), e.rules)


def _hp(e: Event, v: View) -> str:
    before, after, most = e.data.get("hp_before"), e.data.get("hp_after"), e.data.get("hp_max")
    if not isinstance(after, int):
        return ""
    if v.knows(e, "hp_after"):
        return f": HP {before} → {after}" if isinstance(before, int) else f": HP {after}"
    shown = v.health(e, e.actor, after, most if isinstance(most, int) else after)
    return f" ({shown})" if shown else ""


CAUSES = {"bled_out": "bled out", "monster_at_0": "dies", "out_of_fight": "is out of the fight"}


@teller("death")
def death(e: Event, v: View) -> str:
    cause = str(e.data.get("cause", ""))
    if cause == "out_of_fight":
        return "is out of the fight"
    if cause == "monster_at_0":
        return "dies"
    if cause == "threshold" and v.knows(e, "threshold"):
        d = e.data
        return (f"dies: HP {d['hp']} at or below −(3 + LVL {d['level']} + CON {d['con']}) = {d['threshold']}")
    if cause == "knocked_down_twice":
        total = _n(v, e, "total")
        failed = f"failed the CON SAVE ({total})" if total else "failed the CON SAVE"
        return f"dies: knocked down {_n(v, e, 'times')} times and {failed}"
    return f"dies: {death_cause(cause)}"


def death_cause(cause: str) -> str:
    """A cause of death in words."""
    return {"threshold": "past her death threshold", "bled_out": "bled out",
            "knocked_down_twice": "knocked down twice"}.get(cause, cause.replace("_", " "))


@teller("drops")
def drops(e: Event, v: View) -> str:
    turns = _n(v, e, "turns")
    return (f"drops at {_n(v, e, 'hp')} HP: unconscious, dies in {turns} {_plural(turns, 'turn')} unless "
            "stabilised or a natural 20")


@teller("still_dying")
def still_dying(e: Event, v: View) -> str:
    turns = _n(v, e, "turns")
    return f"still dying ({_n(v, e, 'total')}): {turns} {_plural(turns, 'turn')} left"


@teller("recover")
def recover(e: Event, v: View) -> str:
    return "rolls a natural 20 and gets up with 1 HP"


@teller("knocked_down_twice")
def knocked_down_twice(e: Event, v: View) -> str:
    return f"survives being knocked down twice (CON SAVE {_n(v, e, 'total')})"


def _plural(count: str, word: str) -> str:
    return word if count == "1" else word + "s"


# -- the round and the turn -------------------------------------------------------------------------------------
@teller("round")
def round_(e: Event, v: View) -> Told:
    return Told("", f"== Round {e.data.get('round')} ==")


@teller("initiative")
def initiative(e: Event, v: View) -> Told:
    if e.data.get("simultaneous"):
        return Told("all", "simultaneous initiative: ranged attacks and magic first, then melee", (), e.rules)
    phases = e.data.get("phases") or []
    order = "; ".join(" + ".join(p) + (" (together)" if len(p) > 1 else "") for p in phases)
    return Told("all", f"order: {order}", tuple(r.explain() for r in e.rolls), e.rules)


@teller("acts_last")
def acts_last(e: Event, v: View) -> Told | None:
    who = [v.name(e, cid) for cid in (e.actor, *e.targets) if v.sees(e, cid)]
    if not who:
        return None
    return Told("all", f"{', '.join(who)} {'acts' if len(who) == 1 else 'act'} last this round", (), e.rules)


@teller("end")
def end(e: Event, v: View) -> Told:
    winner = str(e.data.get("winner") or "")
    return Told("all", f"the fight ends: {'the ' + winner + ' stand' if winner else 'no one stands'}", (), e.rules)


@teller("expire")
def expire(e: Event, v: View) -> str:
    return "no longer " + ", ".join(condition_words(str(c)) for c in e.data.get("conditions") or [])


@teller("stand")
def stand(e: Event, v: View) -> str:
    return "stands up (its movement this turn)"


WAITS = {"cannot_attack": "cannot attack this turn", "cannot_move": "cannot move this turn"}


@teller("wait")
def wait(e: Event, v: View) -> str:
    return WAITS.get(str(e.data.get("why") or ""), "waits")


@teller("dodge")
def dodge(e: Event, v: View) -> str:
    return "dodges: attacks against it are HARD until its next turn"


@teller("disengage")
def disengage(e: Event, v: View) -> str:
    return "disengages and goes NEAR"


@teller("free_action")
def free_action(e: Event, v: View) -> str:
    note = v.value(e, "note")
    if v.referee:
        return f"a free-form action for the referee to settle: {note or 'not described'}"
    return f"tries: {note}" if note else "acts"


@teller("move")
def move(e: Event, v: View) -> str:
    zone = str(e.data.get("zone", ""))
    if e.data.get("attacks") and e.targets:
        return f"goes NEAR {v.name(e, e.targets[0])} and attacks"
    if e.data.get("maimed") and e.targets:
        return f"can move only NEAR (a maimed foot): goes {zone}, too far to attack {v.name(e, e.targets[0])}"
    return f"goes {zone}" + (" (a maimed foot: only NEAR)" if e.data.get("maimed") else "")


@teller("opportunity")
def opportunity(e: Event, v: View) -> str:
    return f"strikes at {v.name(e, e.targets[0])}, who leaves CLOSE without disengaging"


@teller("morale")
def morale(e: Event, v: View) -> Told:
    side = str(e.data.get("side", ""))
    total, value = v.value(e, "total"), v.value(e, "morale")
    numbers = f" ({total} against morale {value})" if total is not None and value is not None else ""
    if e.data.get("breaks"):
        text = f"the {side}' morale breaks{numbers}: they {e.data.get('outcome', 'flee')}"
    else:
        text = f"the {side} hold{numbers}"
    return Told("", text, tuple(r.explain() for r in e.rolls) if v.referee else (), e.rules)


@teller("lost_blow")
def lost_blow(e: Event, v: View) -> str:
    total, killer = v.value(e, "total"), e.data.get("killer")
    if total is None:
        return "falls before striking"
    relation = "lower than" if int(str(total)) < int(str(killer)) else "only equal to"
    return f"falls before striking: its ATK {total} is {relation} its killer's {killer}"


def condition_words(name: str) -> str:
    """A condition as a referee says it: PRONE, or a modifier's meaning (`MOD:atk_against:HARD` → attacks
    against it HARD)."""
    from furnace.render.story.conditions import condition_words as words

    return words(name)


# -- effects of a row, healing, saves, luck ---------------------------------------------------------------------
@teller("periodic")
def periodic(e: Event, v: View) -> str:
    return f"from now on, at each of its turns: {e.data.get('what')}"


@teller("effect_damage")
def effect_damage(e: Event, v: View) -> str | None:
    if e.targets and not v.knows(e, "dice") and v.monster(e, e.targets[0]):
        return None
    kind = f"{e.data.get('type')} damage" if e.data.get("type") else "damage"
    if e.data.get("maximum"):
        return f"the maximum of {e.data.get('dice')} {kind}: {e.data.get('amount')}"
    return f"{e.data.get('dice')} {kind}: {e.data.get('amount')}"


@teller("heal")
def heal(e: Event, v: View) -> str:
    if e.data.get("refused"):
        return "cannot be healed"
    source = v.value(e, "source")          # what healed her, out of a fight (the referee's words)
    return f"heals {e.data.get('amount')}{f' from {source}' if source else ''}{_hp(e, v)}"


@teller("wounds_close")
def wounds_close(e: Event, v: View) -> str:
    return f"the healing closes: {', '.join(str(w) for w in e.data.get('wounds') or [])}"


@teller("condition")
def condition(e: Event, v: View) -> str:
    from furnace.render.story.conditions import ending_words

    name = condition_words(str(e.data.get("condition", "")))
    if e.data.get("immune"):
        return f"is immune to {name}: it has no effect"
    until = ending_words(str(e.data.get("ending", "")), _int(e.data.get("until_round")))
    by = f", from {v.name(e, e.targets[0])}" if e.targets else ""
    return f"is {name} ({until}{by})"


@teller("modifier")
def modifier(e: Event, v: View) -> str:
    from furnace.render.story.conditions import condition_words as words
    from furnace.render.story.conditions import ending_words

    value = e.data.get("value")
    what = words(str(e.data.get("condition", "")), value if isinstance(value, int) else 0)
    return f"{what} ({ending_words(str(e.data.get('ending', '')), _int(e.data.get('until_round')))})"


@teller("save")
def save(e: Event, v: View) -> str:
    if e.data.get("immune"):
        return f"is immune to {e.data.get('category')} effects: no SAVE, unharmed"
    total = v.value(e, "total")
    outcome = "saved" if e.data.get("saved") else "failed"
    numbers = f" {total} vs DC {e.data.get('dc')}" if total is not None else ""
    return f"{e.data.get('ability')} SAVE{numbers}: {outcome}"


@teller("luck_die")
def luck_die(e: Event, v: View) -> str:
    streak = v.value(e, "streak")
    run = f"failure {streak} in a row" if streak is not None else "another failure in a row"
    if e.data.get("lost"):
        return f"{run} earns a Luck Die, but 3 is the most one can hold: it is lost"
    return f"{run} ({e.data.get('roll')}) earns a Luck Die: {_n(v, e, 'before')} → {_n(v, e, 'after')}"


@teller("ability")
def ability(e: Event, v: View) -> str:
    name = e.data.get("ability")
    if e.data.get("scoreless"):
        return f"loses {_n(v, e, 'amount')} {name} (no scores to change)"
    temporary = " (temporary)" if e.data.get("loss") == "temporary" else ""
    if v.knows(e, "before"):
        return f"{name} {e.data.get('before')} → {e.data.get('after')}{temporary}"
    return f"loses {name}{temporary}"


@teller("doomed")
def doomed(e: Event, v: View) -> str:
    count, unit = v.value(e, "count"), str(e.data.get("unit", "round")).replace("_", " ")
    unless = f" unless {e.data.get('unless')}" if e.data.get("unless") else ""
    if count is None:
        return f"is doomed{unless}"
    units = unit if count == 1 else unit + "s"
    return f"will die in {count} {units} (round {e.data.get('at_round')}){unless}"


WEAPON_ACTIONS = {"drop": "is dropped", "knock_away": "is knocked away", "entangled": "is entangled",
                  "loose": "comes loose", "sunder": "is sundered", "destroy": "is destroyed",
                  "string_snaps": "loses its string", "notch": "is notched", "damage": "is damaged",
                  "crack": "cracks"}


@teller("weapon")
def weapon(e: Event, v: View) -> str:
    what = str(e.data.get("weapon") or "weapon") if v.plain(e, e.actor) else "its weapon"
    text = f"{what} {WEAPON_ACTIONS.get(str(e.data.get('action')), str(e.data.get('action')).replace('_', ' '))}"
    if e.data.get("note"):
        text += f" ({e.data.get('note')})"
    if e.data.get("notched") and v.knows(e, "atk_before"):
        d = e.data
        text += (f": a notch, ATK {int(str(d['atk_before'])):+d} → {int(str(d['atk_after'])):+d}, "
                 f"DAM {d['damage_before']} → {d['damage_after']}")
    return text


@teller("armor")
def armor(e: Event, v: View) -> str:
    piece, action = str(e.data.get("piece")), str(e.data.get("action"))
    before, after = v.value(e, "ac_before"), v.value(e, "ac_after")
    change = f": AC {before} → {after}" if before is not None and before != after else ""
    broken = f"; the {e.data.get('broken')} is broken" if e.data.get("broken") else ""
    verb = {"destroy": "is destroyed", "damage": "is damaged"}.get(action, action.replace("_", " "))
    return f"the {piece} {verb}{change}{broken}"


@teller("injury")
def injury(e: Event, v: View) -> str:
    total = v.value(e, "total")
    return f"injury{f' {total}' if total is not None else ''}: {e.data.get('text')}"


STABILISE = {"not_dying": "{t} is not dying", "by_the_referee": "the referee declares {t} stabilised",
             "fails": "fails to stabilise {t}{n}", "stabilises": "stabilises {t}{n}"}


@teller("stabilise")
def stabilise(e: Event, v: View) -> str:
    target = v.name(e, e.targets[0])
    outcome = str(e.data.get("outcome"))
    if outcome == "not_by_medicine":
        method = "magical healing or the referee" if e.data.get("method") == "healing_only" else "the referee"
        return f"a Medicine CHECK cannot stabilise {target}: only {method} can"
    total = v.value(e, "total")
    numbers = f" ({total} vs DC {e.data.get('dc')})" if total is not None else ""
    return STABILISE.get(outcome, "{t}").format(t=target, n=numbers)


def _int(value: object) -> int | None:
    return value if isinstance(value, int) else None


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
        return f"the Spell Depletion count {e.data.get('spells_cast')} → 0"
    return "no longer: " + "; ".join(str(x) for x in e.data.get("ended") or [])


@teller("torso_wound")
def torso_wound(e: Event, v: View) -> str:
    if e.data.get("by"):
        return f"{e.data.get('by')} heals the torso wound"
    if e.data.get("healed"):
        return f"the torso wound heals after {e.data.get('need')} days of rest"
    return f"torso wound: day {e.data.get('days')} of {e.data.get('need')} days of rest"


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
    prompt = str(e.data.get("prompt") or "") if v.referee else ""
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

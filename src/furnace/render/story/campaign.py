"""The tellers of campaign facts: the campaign's log between fights (sessions, the clock, rests, gear, loot, the
table's settings, hidden rolls shown, a fight begun and ended, a death in the roster) and the words of a death.

A value a viewer may not know (the referee's timers and overrides, a monster's HP and AC, the name the referee
gave a fight) is asked of the view and left out of her telling, never written and taken out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from furnace.events import Event, event_from_dict
from furnace.render.story import REFEREE, Told, tell, teller
from furnace.render.story.view import View


# -- words --------------------------------------------------------------------------------------------------------
def _n(v: View, e: Event, key: str) -> str:
    value = v.value(e, key)
    return "" if value is None else str(value)


def plural(count: object, word: str, words: str | None = None) -> str:
    """'1 day', '3 days', '2 notches'."""
    return f"{count} {word if count == 1 else words or word + 's'}"


def listed(items: Sequence[str]) -> str:
    """'Agna', 'Agna and Bo', 'Agna, Bo and Cy'."""
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def names(e: Event, v: View, ids: Sequence[str]) -> list[str]:
    """The participants she may know of, as she knows them."""
    return [v.name(e, cid) for cid in ids if v.sees(e, cid)]


def when(seconds: object) -> str:
    """A moment of the campaign's clock: 'day 3, 14:20'."""
    from furnace.play.clock import Clock

    return Clock().describe(seconds) if isinstance(seconds, int) else "?"


def span(seconds: object) -> str:
    """A stretch of time: 'no time', '8 hours', '1 day, 4 hours'."""
    from furnace.campaign.timekeeping import span_text

    return span_text(seconds) if isinstance(seconds, int) else "?"


UNITS = {"exploration_turn": ("turn", "turns"), "watch": ("watch", "watches")}


def units(count: object, unit: str) -> str:
    """'3 turns', '1 hour', '2 rounds'."""
    one, many = UNITS.get(unit, (unit.replace("_", " "), unit.replace("_", " ") + "s"))
    return f"{count} {one if count == 1 else many}"


def _seconds(e: Event, key: str) -> int | None:
    value = e.data.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


# -- the campaign and its commands ----------------------------------------------------------------------------
@teller("session")
def session(e: Event, v: View) -> Told:
    title = f": {e.data.get('title')}" if e.data.get("title") else ""
    at = e.data.get("at")
    return Told("", f"session {e.data.get('session')} begins{title}{f' ({when(at)})' if isinstance(at, int) else ''}",
                (), e.rules)


@teller("command")
def command(e: Event, v: View) -> Told | None:
    return Told("", f"the referee: {e.data.get('command')}") if v.referee else None


@teller("campaign")
def campaign(e: Event, v: View) -> Told:
    return Told("", f"campaign '{e.data.get('name')}' begins (profile {e.data.get('profile')})", (), e.rules)


@teller("undo")
def undo(e: Event, v: View) -> Told:
    if not v.referee:
        return Told("", "the referee takes back a command")
    return Told("", f"undo: {e.data.get('command')} (event {e.data.get('event')}) is reversed", (), e.rules)


@teller("redo")
def redo(e: Event, v: View) -> Told:
    if not v.referee:
        return Told("", "the referee puts back a command she took back")
    return Told("", f"redo: {e.data.get('command')} (event {e.data.get('event')}) is put back, with the same dice",
                (), e.rules)


@teller("override")
def override(e: Event, v: View) -> Told | None:
    if not v.referee:
        return None            # the referee's files: a monster's says what the party will meet
    d = e.data
    if d.get("action") == "remove":
        back = ": the packaged table is in force again" if d.get("packaged") else ""
        return Told("", f"the referee removes {d.get('key')} ({d.get('source') or 'no file'}){back}", (), e.rules)
    replaced = [str(k) for k in d.get("replaces") or []]
    verb = f"replaces {', '.join(replaced)} with" if replaced else "adds"
    return Told("", f"the referee {verb} {d.get('key')} from {d.get('source')}", (), e.rules)


@teller("rule_option")
def rule_option(e: Event, v: View) -> Told | None:
    if not v.referee:
        return None            # the referee's rules, as her override files are
    d = e.data
    rule = f"the rule option “{_option_title(d.get('option'))}”"
    now, was = _option_value(d.get("value")), _option_value(d.get("was"))
    if d.get("action") == "unset":
        return Told("", f"the referee takes back {rule} set in the campaign: {now} again, from "
                        f"{_option_source(d.get('source'))}", (), e.rules)
    how = f"turns {now}" if isinstance(d.get("value"), bool) else "sets"
    to = "" if isinstance(d.get("value"), bool) else f" to {now}"
    return Told("", f"the referee {how} {rule}{to} (it was {was}, from {_option_source(d.get('was_from'))})", (),
                e.rules)


def _option_title(name: object) -> str:
    """An option told by its title (its name is a token): 'Hazards: light sources burn down'."""
    from furnace.rules.ruleset import option_specs

    spec = option_specs().get(str(name))
    return spec.title if spec is not None else str(name).replace("_", " ")


def _option_value(value: object) -> str:
    """A value told in words: on or off, 'furnace abilities', 3."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return option_words(value).replace("_", " ")


def _option_source(source: object) -> str:
    return "the default" if source == "default" else str(source)


def option_words(value: object) -> str:
    """A rule option's value as the referee writes it in `NAME=VALUE`: true, none, 3, hazards (never a repr)."""
    if value is None:
        return "none"
    if isinstance(value, list | tuple):
        return ", ".join(map(option_words, value)) or "none"
    return str(value).lower() if isinstance(value, bool) else str(value)


@teller("join")
def join(e: Event, v: View) -> str:
    player = v.value(e, "player")
    source = v.value(e, "file")
    return (f"joins the campaign as {e.data.get('id')}" + (f" (player {player})" if player else "")
            + (f", from {source}" if source else ""))


@teller("retire")
def retire(e: Event, v: View) -> str:
    reason = v.value(e, "reason")
    return f"retires ({e.data.get('id')})" + (f": {reason}" if reason else "")


@teller("roll")
def roll(e: Event, v: View) -> str:
    label = v.value(e, "label")
    return f"rolls {label or _n(v, e, 'expression')}: {_n(v, e, 'total')}"


# -- the table console's settings, hidden facts shown, rolls from a sheet ---------------------------------------
@teller("table")
def table(e: Event, v: View) -> Told | str | None:
    d = e.data
    setting = d.get("setting")
    if setting == "players_dice":
        return Told("", f"players {'may' if d.get('allowed') else 'may not'} enter their own dice", (), e.rules)
    if not v.referee:
        return None
    if setting == "health":
        return Told("", f"monsters' health shows as {d.get('health')}", (), e.rules)
    seen = "revealed" if d.get("revealed") else "concealed"
    mask = f", shown as '{d.get('mask')}'" if d.get("mask") else ""
    return f"is {seen}{mask}; health {d.get('health')}"


@teller("reveal")
def reveal(e: Event, v: View) -> Told | None:
    raw = e.data.get("shown")
    if e.data.get("old_what"):       # a row from before facts, shown as it was written: the referee chose to
        who = str(e.data.get("old_who") or "")
        return Told(who, f"shows the table: {e.data.get('old_what')}")
    if not isinstance(raw, Mapping):
        return None
    told = tell(event_from_dict(raw), v)
    if told is None:
        return None
    return Told(told.subject, f"shows the table: {told.text}", told.rolls, told.rules)


ROLLS = {"check": "CHECK", "save": "SAVE", "attack": "ATK", "spellcheck": "SPELLCHECK"}


def _sheet_what(e: Event, v: View) -> str:
    d = e.data
    kind = str(d.get("roll", ""))
    return (f"{d.get('skill')} CHECK" if d.get("skill") else f"{d.get('ability')} {ROLLS.get(kind, kind)}"
            if kind in ("check", "save") else f"ATK with {d.get('weapon')}" if kind == "attack" and
            v.value(e, "weapon") else ROLLS.get(kind, kind))


@teller("luck_asked")
def luck_asked(e: Event, v: View) -> str:
    total, held = v.value(e, "total"), v.value(e, "held")
    numbers = f" {total} vs {_dc(e)}" if total is not None else f" vs {_dc(e)}"
    verdict = "fails so far" if not e.data.get("success") else "succeeds so far"
    dice = f" ({plural(held, 'Luck Die', 'Luck Dice')} held)" if held is not None else ""
    return f"{_sheet_what(e, v)}{numbers}: {verdict}; her Luck Dice may change it{dice}, and she is asked"


@teller("sheet_roll")
def sheet_roll(e: Event, v: View) -> str:
    d = e.data
    kind = str(d.get("roll", ""))
    what = _sheet_what(e, v)
    total = v.value(e, "total")
    mods = v.value(e, "modifiers")
    added = "".join(f" {int(m[0]):+d} ({m[1]})" for m in mods if isinstance(m, Sequence) and len(m) == 2) \
        if isinstance(mods, Sequence) else ""
    natural = v.value(e, "natural")
    die = f"{natural}{added} = " if natural is not None and added else ""
    numbers = f" {die}{total} vs {_dc(e)}" if total is not None else f" vs {_dc(e)}"
    if v.value(e, "luck_before") is not None:
        numbers = f"{_with_luck(e, v, '', natural, added if added else '')} vs {_dc(e)}"
    verdict = "succeeds" if d.get("success") else "fails"
    if natural in (1, 20):
        verdict += f" (a natural {natural})"
    if kind == "spellcheck":
        sl, dice = v.value(e, "sl"), v.value(e, "spell_dice")
        level = f", SL {sl}" + (f" ({plural(dice, 'Spell Die', 'Spell Dice')})" if dice else "") if sl else ""
        return f"{what}{numbers}: {verdict}{level}" + ("; a mishap" if d.get("mishap") else "")
    suggested = d.get("suggested_easy") or []
    return f"{what}{numbers}: {verdict}" + (f"; EASY if the situation fits: {'; '.join(map(str, suggested))}"
                                             if suggested else "")


@teller("new_day")
def new_day(e: Event, v: View) -> str:
    """'a new day: her daily counts start again (3 HD of magical healing received, 1 orison performed, the uses
    of the Shield of Shielding)'."""
    parts = []
    healed, orisons = v.value(e, "healed"), v.value(e, "orisons")
    if healed:
        parts.append(f"{plural(healed, 'Hit Die', 'Hit Dice')} of magical healing received")
    if orisons:
        parts.append(f"{plural(orisons, 'orison')} performed")
    items = v.value(e, "items")
    if isinstance(items, Sequence) and not isinstance(items, str) and items:
        parts.append(f"the uses of {', '.join(str(i) for i in items)}")
    counted = f" ({'; '.join(parts)})" if parts else ""
    return f"a new day: her daily counts start again{counted}"


@teller("save_roll")
def save_roll(e: Event, v: View) -> str:
    """'morale (WIS SAVE) 11 +1 (WIS SAVE) +1 (Liquid Courage) = 13 vs DC 12: saved'."""
    d = e.data
    against = str(d.get("against") or "")
    what = f"{d.get('ability')} SAVE"
    what = f"morale ({what})" if against == "morale" else f"{what} vs {against}" if against else what
    total, natural, mods = v.value(e, "total"), v.value(e, "natural"), v.value(e, "modifiers")
    added = "".join(f" {int(m[0]):+d} ({m[1]})" for m in mods if isinstance(m, Sequence) and len(m) == 2) \
        if isinstance(mods, Sequence) else ""
    numbers = f" {natural}{added} = {total}" if total is not None and natural is not None else ""
    numbers = _with_luck(e, v, numbers, natural, added)
    return f"{what}{numbers} vs DC {d.get('dc')}: {'saved' if d.get('saved') else 'failed'}"


def _with_luck(e: Event, v: View, numbers: str, natural: Any, added: str) -> str:
    """A total Luck Dice changed after the roll (F-LUCK-03): the total rolled, then the dice spent and the new one."""
    before, spent, total = v.value(e, "luck_before"), v.value(e, "luck_dice"), v.value(e, "total")
    if before is None or not spent or total is None:
        return numbers
    rolled = f" {natural}{added} = {before}" if natural is not None and added else f" {before}"
    return f"{rolled}, {plural(spent, 'Luck Die', 'Luck Dice')} → {total}"


def _dc(e: Event) -> str:
    d = e.data
    dc, room = d.get("dc"), d.get("room_dc")
    moved = [f"EASY: {s}" for s in d.get("easy") or []] + [f"HARD: {s}" for s in d.get("hard") or []]
    return f"DC {dc}" + (f" (ROOM DC {room}; {'; '.join(moved)})" if moved and room != dc else "")


@teller("enemy_morale")
def enemy_morale(e: Event, v: View) -> Told:
    d = e.data
    why = "set by the referee" if d.get("set") else f"ROOM DC {d.get('room_dc')} / 2, rounded down"
    over = "over" if d.get("strictly") else "at or over"
    outcome = f"the enemies {d.get('outcome')}" if d.get("breaks") else "the enemies hold"
    return Told("", f"enemy morale: {d.get('total')} against morale {d.get('morale')} ({why}; they break {over} "
                    f"it): {outcome}", tuple(r.explain() for r in e.rolls), e.rules)


@teller("reaction")
def reaction(e: Event, v: View) -> Told:
    d = e.data
    speaker = f"{d.get('speaker')} speaks: " if d.get("speaker") else ""
    return Told("", f"reaction: {speaker}{d.get('total')} (CHA {int(d.get('cha') or 0):+d}) → {d.get('span')}: the "
                    f"NPCs are {d.get('attitude')}", tuple(r.explain() for r in e.rolls), e.rules)


@teller("table_roll")
def table_roll(e: Event, v: View) -> Told:
    d = e.data
    chosen = f" ({d.get('die')} for {d.get('key_name')} {d.get('key')})" if d.get("key_name") else ""
    return Told("", f"{d.get('name')}{chosen}: {d.get('total')} on the {d.get('die')} → {d.get('span')}: "
                    f"{d.get('text')}", tuple(r.explain() for r in e.rolls), e.rules)


# -- fights on the campaign ---------------------------------------------------------------------------------------
@teller("encounter")
def encounter(e: Event, v: View) -> Told:
    d = e.data
    party = [cid for cid in e.targets if not v.monster(e, cid)]
    foes = [cid for cid in e.targets if v.monster(e, cid)]
    fight = v.value(e, "fight") or "a fight"
    head = f"{fight} begins, ROOM DC {d.get('room_dc')}, {d.get('mode')} initiative"
    if v.referee:
        hp, ac = d.get("hp") or {}, d.get("ac") or {}
        pcs = ", ".join(f"{e.name(cid)} ({cid})" for cid in party)
        them = ", ".join(e.name(cid) + (f" (HP {hp[cid]}, AC {ac[cid]})" if cid in hp and cid in ac else "")
                         for cid in foes)
        rolled = [str(cid) for cid in d.get("rolled") or []]      # whose HP each roll is, in order
        rolls = tuple(f"{e.name(rolled[i])} {r.explain()}" if i < len(rolled) else r.explain()
                      for i, r in enumerate(e.rolls))
        return Told("", f"{head}: {pcs or 'nobody'}" + (f" against {them}" if them else ""), rolls, e.rules)
    seen = names(e, v, foes)
    return Told("", f"{head}: {listed(names(e, v, party))}" + (f" against {listed(seen)}" if seen else ""), (),
                e.rules)


def _side_wins(winner: str) -> str:
    return f"the {winner} {'win' if winner.endswith('s') else 'wins'}"


def _side_stands(winner: str) -> str:
    return f"the {winner} {'stand' if winner.endswith('s') else 'stands'}" if winner else "no one stands"


@teller("fight")
def fight(e: Event, v: View) -> Told:
    d = e.data
    rounds = plural(d.get("rounds"), "round")
    winner = str(d.get("winner") or "")
    if d.get("how") == "ended":
        name = v.value(e, "fight") or "the fight"
        how = _side_stands(winner) if d.get("over") else f"the referee ends it in round {d.get('rounds')}"
        return Told("", f"{name} is over after {rounds}: {how}", (), e.rules)
    result = (_side_wins(winner) if winner else "no side wins") if d.get("over") else \
        "both sides still stand at the round limit"
    dead = names(e, v, e.targets)
    return Told("", f"after {rounds}: {result}; dead: {', '.join(dead) or 'none'}", (), e.rules)


@teller("due")
def due(e: Event, v: View) -> Told | str:
    d = e.data
    if d.get("over"):
        settle = "; settle it with `furnace encounter end`" if v.referee else ""
        return Told("", f"the fight is over: {_side_stands(str(d.get('winner') or ''))}{settle}", (), e.rules)
    return f"is due (round {d.get('round')}, {d.get('side')})"


@teller("roster")
def roster(e: Event, v: View) -> str:
    d = e.data
    fight = v.value(e, "fight") or "the fight"
    at = f" in round {d.get('round')}" if d.get("round") is not None else ""
    return f"is dead{at} of {fight}: {death_words(str(d.get('cause') or ''), d.get('facts') or (), v)}"


def death_words(cause: str, facts: Sequence[Mapping[str, Any]] = (), v: View = REFEREE) -> str:
    """How she died, as this viewer may be told it: the death fact's cause ('HP −8 at or below −(3 + LVL 1 + CON
    0) = −4') and the last blow she took ('the last blow: takes 9 from Ogre's club: HP 1 → −8'); without the facts,
    the cause's code in words (or the words the referee gave)."""
    told = [event_from_dict(f) for f in facts if isinstance(f, Mapping) and "kind" in f]
    death = next((f for f in told if f.kind == "death"), None)
    words = cause_words(death, v) if death is not None else _cause(cause)
    for blow in (f for f in told if f.kind == "damage"):
        said = tell(blow, v)
        if said is not None:
            words += f"; the last blow: {said.text}"
    return words


def cause_words(e: Event, v: View = REFEREE) -> str:
    """A death fact's cause in words (a chapter's own cause as its teller tells it, without the "dies:")."""
    from furnace.render.story.words import chapter_death

    cause = str(e.data.get("cause", ""))
    told = chapter_death(cause)
    if told is not None:
        return told(e, v).removeprefix("dies: ")
    if cause == "threshold" and v.knows(e, "threshold"):
        d = e.data
        return f"HP {d.get('hp')} at or below −(3 + LVL {d.get('level')} + CON {d.get('con')}) = {d.get('threshold')}"
    if cause == "knocked_down_twice":
        total = _n(v, e, "total")
        return f"knocked down {_n(v, e, 'times')} times and failed the CON SAVE" + (f" ({total})" if total else "")
    return _cause(cause)


def _cause(cause: str) -> str:
    from furnace.render.story.words import death_cause

    return death_cause(cause) if cause else "unknown"


# -- the clock ------------------------------------------------------------------------------------------------------
def _flags(flags: object) -> str:
    if not isinstance(flags, Mapping) or not flags:
        return "none"
    return ", ".join((k if v is True else f"not {k}") if isinstance(v, bool) else f"{k} {v}"
                     for k, v in sorted(flags.items()))


@teller("clock")
def clock(e: Event, v: View) -> Told | None:
    d = e.data
    change = d.get("change")
    if change in ("edit", "cancel") and not v.referee:
        return None            # the referee's own entries
    if change == "edit":
        text = f"#{d.get('entry')} '{d.get('label')}' now falls due {when(d.get('due'))}"
    elif change == "cancel":
        text = f"#{d.get('entry')} '{d.get('label')}' is off the clock"
    elif change == "import":
        source = v.value(e, "file")
        text = f"the clock comes from {source or 'an old state file'}: {when(d.get('before'))} → {when(d.get('after'))}"
        if v.referee:
            text += f", {plural(d.get('entries'), 'entry', 'entries')}; flags: {_flags(d.get('flags'))}"
    else:
        before, after = _seconds(e, "before"), _seconds(e, "after")
        passed = after - before if before is not None and after is not None else None
        text = f"the clock moves on {span(passed)}: now {when(after)}"
    return Told("", text, (), e.rules)


@teller("timer_set")
def timer_set(e: Event, v: View) -> Told | None:
    if not v.referee:
        return None
    d = e.data
    prompt = f"; then: {d.get('prompt')}" if d.get("prompt") else ""
    length = units(d.get("count"), str(d.get("unit")))
    return Told("", f"timer #{d.get('entry')} '{d.get('label')}' runs out in {length} ({when(d.get('due'))}){prompt}",
                tuple(r.explain() for r in e.rolls), e.rules)


@teller("course_check")
def travel(e: Event, v: View) -> Told | None:
    if not v.referee:
        return None
    d = e.data
    where = f"off course, really heading {d.get('actual')}" if d.get("lost") else "on course"
    return Told("", f"after {plural(d.get('days'), 'day')} of travel the party believes it heads {d.get('intended')}; "
                    f"{where}", (), e.rules)


@teller("rations")
def rations(e: Event, v: View) -> str:
    d = e.data
    if d.get("ate") is True:
        return f"eats a day's ration ({_n(v, e, 'after')} left)"
    if d.get("ate") is False:
        return "has no rations left: goes without food today"
    after = v.value(e, "after")
    drank = v.value(e, "drank")
    water = "" if drank is None else "; has water" if drank else "; has no water"
    return f"carries {plural(after, 'day')} of rations (was {_n(v, e, 'before')}){water}"


@teller("rest")
def rest(e: Event, v: View) -> Told | str:
    d = e.data
    if d.get("died"):
        return "died before the rest was over"
    who = names(e, v, e.targets)
    verb = "rests" if len(who) == 1 else "rest"
    kind = str(d.get("rest", "")).replace("_", " ")
    return Told("", f"{listed(who)} {verb}: a {kind} rest of {span(d.get('seconds'))} ({d.get('model')} healing)", (),
                e.rules)


# -- gear, coins, loot, repairs ---------------------------------------------------------------------------------
def load_words(e: Event, v: View) -> str:
    """What she carries weighs: the load used of her limit (and how far over), or her coins' weight."""
    weighed = v.value(e, "weighed")
    if isinstance(weighed, Mapping):
        return (f"{weighed.get('coins')} coins and {weighed.get('gems')} gems weigh {_g(weighed.get('pounds'))} lb = "
                f"{_g(weighed.get('gpe'))} gpe = {_g(weighed.get('load'))} load (1 load = 1000 coins = 10 lb)")
    load, limit, over = v.value(e, "load"), v.value(e, "limit"), v.value(e, "over")
    if load is None:
        return ""
    return (f"load {load} of {limit} (every item 1, coins by 1000, torches by 5)"
            + (f", {over} over the limit" if isinstance(over, int) and over > 0 else ""))


def _g(value: object) -> str:
    return f"{value:g}" if isinstance(value, int | float) else str(value)


def _load(e: Event, v: View) -> str:
    words = load_words(e, v)
    return f": {words}" if words else ""


@teller("gear")
def gear(e: Event, v: View) -> str:
    items = ", ".join(str(i) for i in e.data.get("items") or [])
    return f"{'gives up' if e.data.get('taken') else 'takes'} {items}{_load(e, v)}"


@teller("coins")
def coins(e: Event, v: View) -> str:
    before, after, change = v.value(e, "before"), v.value(e, "after"), v.value(e, "change")
    if not isinstance(before, int) or not isinstance(after, int) or not isinstance(change, int):
        return "counts her coins"
    return f"coins {before:,} → {after:,} ({change:+,}){_load(e, v)}"


@teller("loot")
def loot(e: Event, v: View) -> Told | str:
    d = e.data
    coins_, each = d.get("coins"), d.get("each")
    if not e.actor:
        text = f"loot shared by {listed(names(e, v, e.targets))}"
        left = d.get("remainder")
        if isinstance(coins_, int) and coins_ and isinstance(each, int):
            text += f": {coins_:,} coins, {each:,} each" + (
                f", {left:,} left over (the referee says who keeps them)" if isinstance(left, int) and left else "")
        return Told("", text, (), e.rules)
    got = [*([f"{coins_:,} coins"] if isinstance(coins_, int) and coins_ else []),
           *(str(i) for i in d.get("items") or [])]
    return f"takes {', '.join(got) or 'nothing'}{_load(e, v)}"


@teller("repair")
def repair(e: Event, v: View) -> str:
    d = e.data
    faults = [*(["broken"] if d.get("broken") else []), *(["cracked"] if d.get("cracked") else []),
              *([plural(d.get("notches"), "notch", "notches")] if d.get("notches") else []),
              *([f"{plural(d.get('armor_lost'), 'point')} of protection lost"] if d.get("armor_lost") else []),
              *([f"{plural(d.get('shield_lost'), 'point')} lost"] if d.get("shield_lost") else [])]
    cost = d.get("cost")
    return (f"has the {d.get('item')} repaired ({', '.join(faults)}): {plural(d.get('days'), 'day')}, "
            f"{cost:,} coins" if isinstance(cost, int) else f"has the {d.get('item')} repaired")


@teller("in_view")
def in_view(e: Event, v: View) -> str:
    return "comes into view"

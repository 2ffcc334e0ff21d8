"""The tellers of characters facts: a 0-level character rolled, a promotion, a level, the choices the dice made,
spells learnt, a new name, XP awarded."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from furnace.events import Event
from furnace.render.story import Told, teller
from furnace.render.story.campaign import listed, names, plural
from furnace.render.story.view import View


def _n(v: View, e: Event, key: str) -> str:
    value = v.value(e, key)
    return "" if value is None else str(value)


def _scores(scores: object) -> str:
    return ", ".join(f"{a} {s}" for a, s in scores.items()) if isinstance(scores, Mapping) else ""


def hp_words(e: Event, v: View) -> str:
    """How a level's HP came: 'rolled 3 on d8, floor 4 applies', 'fixed 10 + CON +1', 'flat +2 after level 5'."""
    how = v.value(e, "how")
    if how == "fixed":
        con = v.value(e, "con")
        return f"fixed {_n(v, e, 'base')} + CON" + (f" {con:+d}" if isinstance(con, int) else "")
    if how == "flat":
        return f"flat +{_n(v, e, 'gained')} after level 5 (no roll)"
    if how == "rolled":
        floor = v.value(e, "floor")
        return f"rolled {_n(v, e, 'rolled')} on {_n(v, e, 'die')}" + (f", floor {floor} applies" if floor else "")
    return ""


# -- the funnel: a 0-level character ----------------------------------------------------------------------------
@teller("ability_scores")
def ability_scores(e: Event, v: View) -> str:
    return f"3d6 in order: {_scores(v.value(e, 'scores'))}"


@teller("swap")
def swap(e: Event, v: View) -> str:
    a, b = [*(e.data.get("swapped") or []), "?", "?"][:2]
    return f"Human swap: {a} ↔ {b}"


@teller("race")
def race(e: Event, v: View) -> str:
    return f"race {e.data.get('race')}: scores now {_scores(v.value(e, 'scores'))}"


@teller("hp")
def hp(e: Event, v: View) -> str:
    return f"0-level HP {_n(v, e, 'hp')}"


@teller("occupation")
def occupation(e: Event, v: View) -> str:
    d = e.data
    item = f", carries {d.get('item')}" if d.get("item") else ""
    return f"occupation {d.get('occupation')}: {d.get('proficiency')}{item}"


# -- promotion and levels ---------------------------------------------------------------------------------------
CARRYOVER = {"add": "0-level HP added", "replace": "0-level HP replaced"}


@teller("promote")
def promote(e: Event, v: View) -> str:
    d = e.data
    carry = str(d.get("carryover", ""))
    why = "; ".join(w for w in (hp_words(e, v), CARRYOVER.get(carry, carry)) if w)
    return (f"becomes a level-1 {d.get('char_class')} ({d.get('archetype')}); HP {_n(v, e, 'hp_before')} → "
            f"{_n(v, e, 'hp_after')}" + (f" ({why})" if why else ""))


@teller("level_up")
def level_up(e: Event, v: View) -> str:
    why = hp_words(e, v)
    prof = v.value(e, "prof")
    return (f"reaches level {e.data.get('level')}: +{_n(v, e, 'gained')} HP" + (f" ({why})" if why else "")
            + f", HP {_n(v, e, 'hp_before')} → {_n(v, e, 'hp_after')}"
            + (f"; PROF {prof:+d}" if isinstance(prof, int) else ""))


@teller("ability_up")
def ability_up(e: Event, v: View) -> str:
    return f"+1 {e.data.get('ability')}: {_n(v, e, 'before')} → {_n(v, e, 'after')}"


@teller("feature")
def feature(e: Event, v: View) -> str:
    early = " at level 1 (the referee's optional rule)" if e.data.get("at_level_1") else ""
    return f"gains archetype feature {e.data.get('feature')}{early}"


@teller("kit")
def kit(e: Event, v: View) -> str:
    return f"starting kit: {', '.join(str(g) for g in e.data.get('gear') or [])}"


@teller("choice")
def choice(e: Event, v: View) -> str:
    picked = [f"{p[0]} {', '.join(str(x) for x in p[1])}" for p in e.data.get("picked") or []
              if isinstance(p, Sequence) and len(p) == 2 and isinstance(p[1], Sequence)]
    return f"picked at random: {'; '.join(picked)}"


@teller("learn")
def learn(e: Event, v: View) -> str:
    spells, cantrips = e.data.get("spells") or [], e.data.get("cantrips") or []
    known = v.value(e, "known")
    parts = ([f"spells {', '.join(spells)}" + (f" ({known} known)" if known is not None else "")] if spells else []) \
        + ([f"cantrips {', '.join(cantrips)}"] if cantrips else [])
    return f"learns {'; '.join(parts)}"


@teller("spell_learnt")
def spell(e: Event, v: View) -> str:
    known, cap = v.value(e, "known"), v.value(e, "cap")
    count = f" ({known} of {cap} spells known)" if known is not None and cap is not None else ""
    return f"learns {e.data.get('spell')}{count}"


@teller("rename")
def rename(e: Event, v: View) -> str:
    return f"{e.data.get('before')} is now called {e.data.get('after')}"


# -- experience -----------------------------------------------------------------------------------------------------
@teller("xp")
def xp(e: Event, v: View) -> Told | str:
    d = e.data
    award = d.get("award")
    if award == "shared":
        amount, share, left = d.get("amount"), d.get("share"), d.get("remainder")
        among = names(e, v, e.targets)
        how = "each" if d.get("each") or len(e.targets) == 1 else f"shared by {len(e.targets)}"
        text = f"{_signed(amount)} XP for {d.get('reason')}, {how}: {_signed(share)} to {listed(among)}"
        if isinstance(left, int) and left:
            text += f"; {abs(left):,} XP left over, not awarded (the referee gives it or keeps it)"
        return Told("", text, (), e.rules)
    if award == "fight":
        fight = v.value(e, "fight") or "the fight"
        beaten = v.value(e, "beaten")                  # how many there were is the referee's
        monsters = f"{plural(beaten, 'monster')} beaten" if beaten is not None else ""
        total, share, left = d.get("total"), d.get("share"), d.get("remainder")
        survivors = len(d.get("survivors") or [])
        if not isinstance(total, int) or total <= 0 or not survivors:
            whom = "no survivor shares it" if not survivors else "no XP to share"
            return Told("", f"{fight}: {f'{monsters}, ' if monsters else ''}{total} XP; {whom}", (), e.rules)
        carried = d.get("carried")
        before = f" (with {carried} kept from the last share)" if isinstance(carried, int) and carried else ""
        text = (f"{fight}: {f'{monsters} for ' if monsters else ''}{total} XP{before}, {share} each to "
                f"{plural(survivors, 'survivor')}")
        kept = "kept for the next fight's share" if "kept" in d else "unawarded"
        return Told("", text + (f" ({left} left over, {kept})" if left else ""), (), e.rules)
    reason = "the fight" if d.get("from_fight") and not v.referee else d.get("reason")
    return f"{_signed(d.get('amount'))} XP for {reason} (total {_n(v, e, 'after')})"


def _signed(value: object) -> str:
    return f"{value:+,}" if isinstance(value, int) else str(value)


# -- Luck Dice on the campaign: the referee's hand, split pools made one (furnace.campaign.luck) -----------------
@teller("luck_adjust")
def luck_adjust(e: Event, v: View) -> str:
    before, after = _n(v, e, "before") or "?", _n(v, e, "after") or "?"
    held = [str(h) for h in e.data.get("holders") or []]
    whose = f"{e.data.get('player')}'s pool, held by {', '.join(held)}" if e.data.get("owner") == "player" else \
        "her own pool"
    why = f" ({e.data['reason']})" if e.data.get("reason") else ""
    return f"the referee sets her Luck Dice {before} → {after}{why}: {whose}"


@teller("luck_merged")
def luck_merged(e: Event, v: View) -> str:
    pools = v.value(e, "pools")
    split = listed([f"{k} {n}" for k, n in pools.items()]) if isinstance(pools, Mapping) else ""
    dice = _n(v, e, "dice") or "?"
    return (f"{e.data.get('player')}'s Luck Dice, held apart ({split}), are one pool again: {dice} "
            f"{'Die' if dice == '1' else 'Dice'}, one run of failures")

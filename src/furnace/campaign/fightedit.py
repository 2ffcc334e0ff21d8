"""The fight in progress is the one place for HP: damage, healing, stabilising and the referee's edits act on it.

While an encounter runs, its combatants are the characters who fight (`encounter end` writes them back), so
`damage` and `heal` on a member in it change her combatant (`hurt`, `mend`), with the engine's death model; the
referee edits the fight with campaign commands — a combatant added (`add_members`, `add_monsters`) or removed
(`remove`: a member leaves it settled, as at its end), HP set (`set_hp`), a condition added or removed
(`condition`), a turn delayed (`delay`). Each is logged; the fight is over as soon as one side is left standing,
and moves on when the one due can no longer act (`play.turns.after_edit`).

`stabilise` (F-DEATH-01, F-INJ-01, AMB-28, REF-25) works in and out of a fight: in one, it is the healer's action on
her turn (or the referee's word, at any time); out of one, the engine's own stabilising on a scratch encounter
(`engine_out_of_fight`), her dying entry off the clock and the Injuries table rolled (a natural 1 there
kills, F-DEATH-02).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from furnace import dice
from furnace.campaign import encounters, lasting
from furnace.campaign.commands import living, put, rules_of
from furnace.campaign.encounters import Fight, current, keep, moved, resolve
from furnace.campaign.handover import Leaving, Scratch, enter, kept_facts, leave, suspend
from furnace.campaign.lasting import DOWN, UP_AGAIN
from furnace.campaign.state import CampaignError, CampaignState
from furnace.campaign.store import Command
from furnace.campaign.timekeeping import adopt
from furnace.dice import DiceSource
from furnace.errors import IllegalActionError
from furnace.events import Event, declare
from furnace.play import turns as play
from furnace.play.apply import CONDITION, HEAL
from furnace.play.conditions import Held
from furnace.play.encounter import EXPIRE
from furnace.play.state import Step
from furnace.rules.effects import CONDITIONS
from furnace.rules.ruleset import Ruleset

MAX_ROUNDS = 1_000
HELPLESS = ("KNOCKED_DOWN", "CANT_USE_OBJECTS")   # H-HEAL-04: awake at 0 HP or less, helpless until above 0
# the referee edits the fight in progress: a combatant added (`change` add, her `hp` and `ac` when a monster) or
# removed (remove) in `round`, her HP set (hp: `before`, `after`)
EDIT = declare("encounter_edit", change="public", hp="actor", ac="actor", before="actor", after="actor",
               round="public", example={"change": "hp", "hp": 7, "ac": 12, "before": 9, "after": 4, "round": 2})


def fighting(state: CampaignState, mid: str) -> bool:
    """Whether the member fights in the encounter in progress."""
    return state.encounter is not None and mid in current(state).members.values()


def _rules(state: CampaignState, now: Fight) -> Ruleset:
    rules = rules_of(state)
    return rules.with_options(now.options, "this fight") if now.options else rules


def on_fight(rng: DiceSource, change: Callable[[Step, Fight, CampaignState], None]) -> Command:
    """A change to the fight in progress, made on a step of it; then the fight goes on from where it stands."""

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        now = current(state)
        step = Step(now.turns.encounter, rng, _rules(state, now), killed_by=dict(now.turns.killed_by))
        change(step, now, state)
        turns = play.after_edit(now.turns, step)
        return keep(state, moved(now, turns, step.events)), [*step.events, encounters.due_fact(turns)]

    return run


def _cid(state: CampaignState, now: Fight, who: str) -> str:
    return resolve(state, now, who)


def hurt(who: str, amount: int, source: str, rng: DiceSource) -> Command:
    """Damage to a combatant of the fight in progress, by the fight's death model."""
    from furnace.play.death import take_damage

    def change(step: Step, now: Fight, state: CampaignState) -> None:
        take_damage(step, _cid(state, now, who), amount, source)

    return on_fight(rng, change)


def _heal(step: Step, cid: str, amount: int, source: str) -> None:
    c = step.c(cid)
    if c.status == "dead":
        raise IllegalActionError(f"{c.name} is dead: no healing brings her back")
    hp = min(c.hp_max, c.hp + amount)
    status = "up" if hp > 0 and c.status in ("dying", "stable", "unconscious") else c.status
    step.update(cid, hp=hp, status=status, dying_turns=None if status == "up" else c.dying_turns)
    step.fact(HEAL, cid, (), (), amount=hp - c.hp, hp_before=c.hp, hp_after=hp, hp_max=c.hp_max, source=source)


def mend(who: str, amount: int, source: str, rng: DiceSource) -> Command:
    """Hit points back to a combatant of the fight in progress; above 0 HP she is up again."""
    return on_fight(rng, lambda step, now, state: _heal(step, _cid(state, now, who), amount, source))


def set_hp(who: str, hp: int, rng: DiceSource) -> Command:
    """The referee sets a combatant's HP: lower, as damage by the fight's death model; higher, as healing."""
    from furnace.play.death import take_damage

    if isinstance(hp, bool) or not isinstance(hp, int) or not -10_000 <= hp <= 10_000:
        raise CampaignError(f"HP is a whole number from -10000 to 10000, not {hp!r}")

    def change(step: Step, now: Fight, state: CampaignState) -> None:
        cid = _cid(state, now, who)
        before = step.c(cid).hp
        step.fact(EDIT, cid, change="hp", before=before, after=hp)
        if hp < before:
            take_damage(step, cid, before - hp, "the referee")
        elif hp > before:
            _heal(step, cid, hp - before, "the referee")

    return on_fight(rng, change)


def condition(who: str, name: str, rng: DiceSource, *, add: bool = True, rounds: int | None = None) -> Command:
    """The referee adds a condition (for `rounds` rounds, or until the fight ends) or takes one away; when the one
    due can act no more, the next one's turn begins (`rng` rolls what that rolls)."""
    name = name.strip().upper()
    if name not in CONDITIONS:
        raise CampaignError(f"unknown condition {name!r}; the conditions are {', '.join(sorted(CONDITIONS))}")
    if rounds is not None and (isinstance(rounds, bool) or not 1 <= rounds <= MAX_ROUNDS):
        raise CampaignError(f"a condition lasts 1 to {MAX_ROUNDS} rounds, not {rounds!r}")

    def change(step: Step, now: Fight, state: CampaignState) -> None:
        cid = _cid(state, now, who)
        c = step.c(cid)
        if add:
            held = Held(name=name, source="the referee", ending="round" if rounds else "encounter",
                        until_round=step.round + rounds if rounds else None)
            step.update(cid, held=(*c.held, held))
            step.fact(CONDITION, cid, (), (), condition=name, ending=held.ending, until_round=held.until_round)
            return
        down = {"DYING": "dying", "UNCONSCIOUS": "unconscious"}.get(name)
        if down and c.status in (down, "stable"):
            if c.hp <= 0:
                raise IllegalActionError(f"{c.name} is at {c.hp} HP: she stays down until healed or stabilised")
            step.update(cid, status="up", dying_turns=None)
        elif all(h.name != name for h in c.held):
            raise IllegalActionError(f"{c.name} is not {name}")
        step.update(cid, held=tuple(h for h in step.c(cid).held if h.name != name))
        step.fact(EXPIRE, cid, conditions=[name])

    return on_fight(rng, change)


def delay(who: str, rng: DiceSource) -> Command:
    """The combatant due waits until the rest of her phase has acted."""

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        now = current(state)
        turns, events = play.delay(now.turns, _cid(state, now, who), rng, _rules(state, now))
        return keep(state, moved(now, turns, events)), [*events, encounters.due_fact(turns)]

    return run


def add_members(who: Sequence[str]) -> Command:
    """Members of the roster join the fight in progress (down ones as they are): each acts from her side's next
    phase; her entries are the fight's while it runs."""

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        now = current(state)
        rules = _rules(state, now)
        members = encounters.party(state, who)
        turns, suspended, joined = now.turns, dict(now.suspended), dict(now.members)
        events: list[Event] = []
        for m in members:
            if m.id in joined.values():
                raise CampaignError(f"{m.character.name} ({m.id}) fights already")
            state, held = _suspend(state, m.character.name)
            c = enter(m.character, rules, m.id, held, state.clock.now, round_now=now.turns.encounter.round)
            turns, joined[m.id] = play.joined(turns, c), m.id
            suspended[m.id] = [e.model_dump(mode="json") for e in held]
            events.append(Event(EDIT, m.id, (), (), {"change": "add", "round": turns.encounter.round}, (),
                                encounters.parts([c])))
        fight = now.model_copy(update={"turns": turns, "suspended": suspended, "members": joined})
        return keep(state, fight), events

    return run


def _suspend(state: CampaignState, name: str) -> tuple[CampaignState, list[Any]]:
    entries = lasting.owned(state.clock, name, lasting.SUSPENDED)
    return lasting.without(state, entries), entries


def add_monsters(text: str, rng: DiceSource) -> Command:
    """Monsters of the bestiary join the fight in progress, each with its HP rolled (and logged) and its XP."""
    from furnace.play.combatant import monster

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        now = current(state)
        rules = _rules(state, now)
        enc = now.turns.encounter
        specs = encounters.monster_specs(state, text)
        taken = {c.id for c in enc.combatants}
        turns, xp, events = now.turns, dict(now.xp), []
        for spec, worth in specs:
            cid = encounters.unique_id(str(spec["name"]).lower().replace(" ", "-"), taken)
            spec, rolls = encounters.rolled_hp(spec, rng)
            c = monster(spec, "monsters", enc.room_dc, rng, id=cid, rules=rules)
            turns, xp[cid] = play.joined(turns, c), worth
            events.append(Event(EDIT, cid, (), tuple(rolls), {"change": "add", "hp": c.hp, "ac": c.ac,
                                                              "round": enc.round}, (), encounters.parts([c])))
        return keep(state, now.model_copy(update={"turns": turns, "xp": xp})), events

    return run


def remove(who: str, rng: DiceSource) -> Command:
    """A combatant leaves the fight in progress: a member is settled onto the roster at once (her HP, what lasts on
    the clock), a monster is gone (no XP for it); the fight goes on without her, or is over."""

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        now = current(state)
        rules = _rules(state, now)
        cid = _cid(state, now, who)
        gone = now.turns.encounter.get(cid)
        events = [Event(EDIT, cid, (), (), {"change": "remove", "round": now.turns.encounter.round}, (),
                        encounters.parts([gone]))]
        mid = now.members.get(cid)
        if mid is not None and state.roster[mid].status != "dead":
            state, settled = encounters.settle_member(state, now, cid, mid, rules, rng)
            events += settled
        turns, moved_on = play.without(now.turns, cid, rng, rules)
        fight = now.model_copy(update={
            "turns": turns, "members": {k: v for k, v in now.members.items() if k != cid},
            "suspended": {k: v for k, v in now.suspended.items() if k != mid},
            "xp": {k: v for k, v in now.xp.items() if k != cid}})
        return keep(state, moved(fight, turns, moved_on)), [*events, *moved_on, encounters.due_fact(turns)]

    return run


# -- damage and healing, in a fight or out of one ----------------------------------------------------------------
def damage(who: str, amount: int, source: str = "the referee", rng: dice.DiceSource | None = None) -> Command:
    """Damage by the campaign's death model (`death_model`): in the encounter in progress, to her combatant;
    out of one, the engine's own rule on a scratch encounter of one, and what lasts on the clock: furnace,
    dying with F-DEATH-01's 1d4-round timer (dead at −(3 + LVL + CON), F-DEATH-02); hazards, unconscious and
    waking in 1d6 hours (H-DMG-02, H-HEAL-04; dead at −3, H-DMG-03); middle-sea, HP stop at 0 and the excess is
    rolled on the grievous injury table (M-GRIEV-01). `rng` rolls what the rule rolls (the system's by default)."""
    if isinstance(amount, bool) or not isinstance(amount, int) or not 0 < amount <= 10_000:
        raise CampaignError(f"damage is a whole number from 1 to 10000, not {amount!r}")
    source_of = rng or dice.system()

    def rule(step: Any, cid: str) -> None:
        from furnace.play.death import take_damage

        take_damage(step, cid, amount, source)

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:

        member = living(state, who)
        if fighting(state, member.id):
            after, events = hurt(member.id, amount, source, source_of)(state)
            return after, list(events)
        return engine_out_of_fight(state, [member.id], source_of, lambda step: rule(step, member.character.name))

    return run


def heal(who: str, amount: int, source: str = "the referee", rng: dice.DiceSource | None = None) -> Command:
    """Hit points back, up to the maximum; in the encounter in progress, to her combatant (up again from dying or
    unconscious above 0 HP). Above 0 HP she is no longer DYING or UNCONSCIOUS, nor helpless (H-HEAL-04), and
    her dying and waking entries leave the clock."""
    if isinstance(amount, bool) or not isinstance(amount, int) or not 0 < amount <= 10_000:
        raise CampaignError(f"healing is a whole number from 1 to 10000, not {amount!r}")

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        from furnace.characters.facts import fact

        member = living(state, who)
        if fighting(state, member.id):
            mended, told = mend(member.id, amount, source, rng or dice.system())(state)
            return mended, list(told)
        c = member.character
        hp = min(c.hp_max, c.hp + amount)
        events = [fact(HEAL, c, (), (), amount=hp - c.hp, hp_before=c.hp, hp_after=hp, hp_max=c.hp_max,
                       source=source)]
        after = c.model_copy(update={"hp": hp})
        if c.hp <= 0 < hp:      # up again; a poison's deep sleep at 13 HP is not healed by a potion's HP
            gone = [x for x in c.conditions if x in DOWN or (x in HELPLESS and rules_of(state)["death_model"]
                                                                == "hazards")]
            after = after.model_copy(update={"conditions": [x for x in c.conditions if x not in gone]})
            events += [fact(UP_AGAIN, c, (), (), conditions=gone)] if gone else []
        return put(state, member, after, facts=events), events

    return run


def engine_out_of_fight(state: CampaignState, ids: Sequence[str], rng: dice.DiceSource,
                        rule: Callable[[Any], None]) -> tuple[CampaignState, list[Event]]:
    """The engine's rules on members out of a fight (`handover.Scratch`): their entries suspended, `rule(step)`
    run on the scratch encounter (each combatant's id is her name), and each written back with what lasts on the
    clock again (`handover.leave`). A campaign from before lasting state is brought up to date first."""
    rules = rules_of(state)
    state, events = adopt(state, rng, rules)
    members = [state.roster[i] for i in ids]
    held = {}
    for m in members:
        state, held[m.id] = suspend(state, m.character.name)
    scratch = Scratch.of([m.character for m in members], rules, rng, now=state.clock.now,
                         entries={m.character.name: held[m.id] for m in members})
    rule(scratch.step)
    events += scratch.step.events
    for m in members:
        after, written = scratch.settled(m.character)
        out = Leaving(m.id, scratch.step.enc.get(m.character.name), tuple(held[m.id]), 0,
                      kept_facts(scratch.step.events, m.character.name))
        state, after, lasting = leave(state, after, out, rng, rules)
        events += written + lasting
        state = put(state, state.roster[m.id], after,
                    facts=[e for e in scratch.step.events if e.actor == m.character.name])
    return state, events


# -- stabilising (F-DEATH-01, F-INJ-01, AMB-28, REF-25) ----------------------------------------------------------
def stabilise(who: str, rng: DiceSource, *, by: str | None = None, referee: bool = False) -> Command:
    """Stop a dying character's timer: the healer's Medicine CHECK vs the ROOM DC (WIS + PROF in Medicine), as the
    option stabilize_methods allows, or the referee's word (`referee`, AMB-28 c); then the Injuries table
    (F-INJ-01; a natural 1 there kills, F-DEATH-02). In a fight it is the healer's action on her turn."""
    if not by and not referee:
        raise CampaignError("name who stabilises her (--by HEALER), or say the referee does (--referee)")

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        patient = living(state, who)
        if fighting(state, patient.id):
            return _in_fight(state, patient.id, rng, by, referee)
        healer = living(state, by) if by else patient
        if healer.id != patient.id and _down(healer.character):
            raise CampaignError(f"{healer.character.name} is down (HP {healer.character.hp}) and cannot stabilise "
                                "anyone")
        if "DYING" not in patient.character.conditions or patient.character.hp > 0:
            raise CampaignError(f"{patient.character.name} is not dying (HP {patient.character.hp})")
        from furnace.play.injuries import stabilise as engine_stabilise

        ids = list(dict.fromkeys([patient.id, healer.id]))
        p, h = patient.character.name, healer.character.name
        return engine_out_of_fight(state, ids, rng, lambda step: engine_stabilise(step, h, p, referee=referee))

    return run


def _down(c: Any) -> bool:
    return bool(c.hp <= 0 or {"DYING", "UNCONSCIOUS"} & set(c.conditions))


def _in_fight(state: CampaignState, mid: str, rng: DiceSource, by: str | None, referee: bool,
              ) -> tuple[CampaignState, list[Event]]:
    if not referee:
        after, told = encounters.act(str(by), "stabilise", mid, rng)(state)
        return after, list(told)
    from furnace.play.injuries import stabilise as engine_stabilise

    def change(step: Step, now: Fight, state: CampaignState) -> None:
        cid = _cid(state, now, mid)
        healer = _cid(state, now, by) if by else cid
        engine_stabilise(step, healer, cid, referee=True)

    after, told = on_fight(rng, change)(state)
    return after, list(told)


__all__ = ["EDIT", "add_members", "add_monsters", "condition", "damage", "delay", "engine_out_of_fight", "fighting",
           "heal", "hurt", "mend", "remove", "set_hp", "stabilise"]

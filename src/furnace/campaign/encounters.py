"""Fights on the campaign: the roster's living characters against the bestiary's monsters, fought at once
(`fight`) or turn by turn (`begin`, `next_turns`, `act`, `end`), and settled back onto the roster.

Each is a command for `Store.apply`, so a fight and everything it changed is one logged command (or one per
turn-by-turn step), every roll in the log. The party is the roster's living members (`party`: "all", or ids
and names); the monsters come from the bestiary — the packaged one with the campaign's monster overrides laid
over it by id (`bestiary`) — or from a fight file's `monsters`. Each monster's HP roll is logged as it joins.
The ROOM DC defaults to the highest typical ROOM DC of the monsters listed (REF-02), or the fight file's.

The fight in progress lives in `CampaignState.encounter` as a `Fight` (the engine's `Turns`: the encounter,
the round's order and whose turn it is; which roster member each character is; each monster's XP; who died
when and how), so it survives closing the terminal. Settling (`settle`) writes each character's fight back
with `furnace.play.aftermath.settle` — HP, dying and death, injuries, luck, depletion, lockouts, gear damage,
"until rest" conditions — records each death with its cause, round and fight, and shares the XP of the
monsters killed, knocked out or put to flight (their bestiary `xp`, REF-24) equally among the survivors with
`characters.xp.award`; the remainder of the division is kept in the campaign's `xp_pool` and added to the next
fight's share, so no XP vanishes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from furnace import dice
from furnace.campaign import lasting, standing
from furnace.campaign.commands import cast_of, kept, put, rules_of
from furnace.campaign.handover import Leaving, enter, kept_facts, leave
from furnace.campaign.kept_fight import Fallen, Fight, current
from furnace.campaign.overrides import SLUG, label
from furnace.campaign.state import CampaignError, CampaignState, Death, Member
from furnace.campaign.store import Command
from furnace.campaign.timekeeping import adopt, run_clock
from furnace.characters import xp
from furnace.characters.character import Character
from furnace.dice import DiceSource
from furnace.errors import IllegalActionError, UnknownNameError
from furnace.events import Event, Part, declare
from furnace.play import aftermath, answering
from furnace.play import turns as play
from furnace.play.clock import Scheduled
from furnace.play.combatant import Combatant, monster
from furnace.play.encounter import run_fight
from furnace.play.state import Encounter
from furnace.rules.bestiary import Bestiary, parse_monsters, validate_entries
from furnace.rules.datafile import parse_yaml
from furnace.rules.ruleset import Ruleset

if TYPE_CHECKING:
    from furnace.play.fightfile import FightFile  # a fight file is read by the CLI; here only its type

BEATEN = ("dead", "out", "fled")        # monsters whose XP the party earns
# a fight's share of XP also says what it `carried` from the last share's remainder and what it `kept` for the next
declare(xp.XP, carried="public", kept="public")

# a fight begins (read back by `furnace.web.cast`: `fight`, its name; `party`, the members' ids; `monsters`, each
# monster's id and name): the ROOM DC, the initiative `mode`, each monster's `hp` and `ac`, and whose HP were
# `rolled` (the fact's dice, in that order)
ENCOUNTER = declare("encounter", targets=2, fight="referee", room_dc="public", mode="public", party="public",
                    monsters="referee", hp="referee", ac="referee", rolled="referee",
                    example={"fight": "a fight with ogre", "room_dc": 12, "mode": "group", "party": ["ann1"],
                             "monsters": {"t1": "ogre"}, "hp": {"t1": 20}, "ac": {"t1": 14}, "rolled": ["t1"]})
# a fight ends: played out at once (`how`: "played", after `rounds`, won by the side `winner` unless the round
# limit came first, `over` false; the `dead`) or ended by the referee (`how`: "ended", the fight's name `fight`)
FIGHT = declare("fight", how="public", fight="referee", rounds="public", winner="public", over="public",
                dead="public", example={"how": "played", "fight": "a fight with ogre", "rounds": 3,
                                        "winner": "party", "over": True, "dead": ["actor"]})
# whose turn it is (the actor, her `side`, the `round`), or the fight is `over` with a `winner`
DUE = declare("due", round="public", side="public", id="public", over="public", winner="public",
              example={"round": 2, "side": "party", "id": "actor", "over": False, "winner": ""})
# a member's death goes into the roster: her member `id`, the `round` and `fight` she died in, the `cause` (a code or
# words) and the `facts` that tell it (the death, the last blow)
ROSTER = declare("roster", id="public", round="public", fight="referee", cause="public", facts="public",
                 example={"id": "ann1", "round": 3, "fight": "a fight with ogre", "cause": "bled_out", "facts": []})


@dataclass(frozen=True)
class Lineup:
    """Who fights: the encounter, which roster member each character is, each monster's XP, the opening event."""

    name: str
    encounter: Encounter
    members: dict[str, str]
    xp: dict[str, int]
    opening: Event
    suspended: dict[str, list[Scheduled]]         # each member's entries the encounter takes over (by member id)

    def taken_over(self, state: CampaignState) -> CampaignState:
        """The campaign with the entries the encounter takes over off its clock."""
        return lasting.without(state, [e for entries in self.suspended.values() for e in entries])

    def dumped(self) -> dict[str, list[dict[str, Any]]]:
        return {mid: [e.model_dump(mode="json") for e in entries] for mid, entries in self.suspended.items() if entries}


# -- who fights ----------------------------------------------------------------------------------------------
def bestiary(state: CampaignState) -> Bestiary:
    """The packaged bestiary with the campaign's monster overrides laid over it by id."""
    book = Bestiary.packaged()
    for key, override in sorted(state.overrides.items()):
        if override.kind != "monster":
            continue
        where = label(key, override)
        data = parse_yaml(override.text, where, "override file")
        if isinstance(data, dict) and "monsters" not in data and "id" not in data and isinstance(data.get("name"), str):
            data = {"id": SLUG.sub("-", data["name"].lower()).strip("-"), **data}
        book = book.with_monsters(validate_entries([data] if isinstance(data, dict) and "monsters" not in data
                                                   else data, where), where)
    return book


def party(state: CampaignState, who: Sequence[str]) -> list[Member]:
    """The members who fight: "all" (the party: `session.adventuring`), or ids and names (a list, or text split
    on commas). A member down (dying, unconscious) enters as she is, her timers the encounter's while it runs;
    a dead or retired one is refused with the reason, as is a fight with nobody standing."""
    from furnace.campaign.session import adventuring

    names = [w.strip() for text in who for w in text.split(",") if w.strip()] or ["all"]
    if [n.lower() for n in names] == ["all"]:
        members = adventuring(state)
    else:
        members = []
        for name in names:
            m = state.member(name)
            if m.status in ("dead", "retired") or not m.character.alive:
                why = f": {m.death.cause}" if m.death else ""
                raise CampaignError(f"{m.character.name} ({m.id}) is {m.status}{why} and cannot fight")
            if m not in members:
                members.append(m)
    if not any(m.character.hp > 0 for m in members):
        raise CampaignError(f"no character of {state.name!r} named for the fight is standing: "
                            f"{', '.join(f'{m.character.name} (HP {m.character.hp})' for m in members) or 'none'}")
    return members


def line_up(state: CampaignState, members: Sequence[Member], rng: DiceSource, rules: Ruleset, *,
            monsters: str | None = None, fight_file: FightFile | None = None, room_dc: int | None = None,
            name: str | None = None, initiative: str | None = None) -> Lineup:
    """The encounter: the members as combatants (ids: their roster ids) and the monsters (from the bestiary by
    a list like "goblin x4, ogre", or a fight file's), each monster's HP rolled and logged."""
    if (monsters is None) == (fight_file is None):
        raise CampaignError('name the monsters: --monsters "goblin x4, ogre" or a fight file, one of them')
    specs, dc, label_, chosen, surprised = _monsters(state, monsters, fight_file, room_dc)
    dc = room_dc if room_dc is not None else dc
    held = {m.id: lasting.owned(state.clock, m.character.name, lasting.SUSPENDED) for m in members}
    combatants = [_pc(state, m, rules, held[m.id]) for m in members]
    taken = {c.id for c in combatants}
    rolls: list[dice.RollResult] = []
    rolled: list[str] = []
    xp_of: dict[str, int] = {}
    for spec, side, worth in specs:
        cid = _unique(str(spec["name"]).lower().replace(" ", "-"), taken)
        hp_text = str(spec.get("hp", "1d8"))
        if not hp_text.lstrip("-").isdigit():
            roll = dice.roll(hp_text, rng, label="HP")
            rolls.append(roll)
            rolled.append(cid)
            spec = {**spec, "hp": str(roll.total)}
        combatants.append(monster(spec, side, dc, rng, id=cid, rules=rules))
        xp_of[cid] = worth
    mode = initiative or chosen or str(rules["initiative_model"])
    enc = standing.started(Encounter.model_validate(dict(     # validated: the initiative is the command's word
        room_dc=dc, combatants=tuple(combatants), initiative=mode, surprised=tuple(surprised))), state)
    title = name or label_
    foes = [c for c in combatants if c.kind != "pc"]
    opening = Event(ENCOUNTER, "", tuple(c.id for c in combatants), tuple(rolls), {
        "fight": title, "room_dc": dc, "mode": mode, "party": [m.id for m in members],
        "monsters": {c.id: c.name for c in foes}, "hp": {c.id: c.hp for c in foes}, "ac": {c.id: c.ac for c in foes},
        "rolled": rolled}, (), {c.id: Part(c.name, c.kind, c.player or "") for c in combatants})
    return Lineup(title, enc, {m.id: m.id for m in members}, xp_of, opening, held)


def _pc(state: CampaignState, member: Member, rules: Ruleset, held: Sequence[Scheduled]) -> Combatant:
    """Her combatant, with what lasts from her entries and her player's one Luck pool (F-LUCK-01, luck_owner)."""
    from furnace.campaign.luck import pool_of

    c = enter(member.character, rules, member.id, held, state.clock.now)
    pool = pool_of(state, member)
    return c.model_copy(update={"luck_dice": pool.dice, "luck_streak": pool.streak})


def _monsters(state: CampaignState, text: str | None, fight_file: FightFile | None, room_dc: int | None,
              ) -> tuple[list[tuple[dict[str, Any], str, int]], int, str, str | None, list[str]]:
    """(spec, side, XP) for each monster, the default ROOM DC, the fight's name, its initiative, the surprised."""
    if fight_file is not None:
        specs = []
        for m in fight_file.monsters:
            spec = {k: v for k, v in m.model_dump().items() if v is not None}
            specs += [({**spec, "name": f"{m.name} {i}" if m.count > 1 else m.name}, m.side, 0)
                      for i in range(1, m.count + 1)]
        return specs, fight_file.room_dc, fight_file.name, fight_file.initiative, list(fight_file.surprised)
    listed = parse_monsters(str(text), bestiary(state))
    specs = [({**m.spec(), "name": f"{m.name} {i}" if n > 1 else m.name}, "monsters", m.xp)
             for m, n in listed for i in range(1, n + 1)]
    name = "a fight with " + ", ".join(f"{m.name} x{n}" if n > 1 else m.name for m, n in listed)
    return specs, max(m.room_dc for m, _ in listed), name, None, []


def monster_specs(state: CampaignState, text: str) -> list[tuple[dict[str, Any], int]]:
    """(spec, XP) of each monster of a list like "goblin x2, ogre" (the bestiary and the campaign's overrides)."""
    specs, *_ = _monsters(state, text, None, None)
    return [(spec, worth) for spec, _side, worth in specs]


def rolled_hp(spec: dict[str, Any], rng: DiceSource) -> tuple[dict[str, Any], list[dice.RollResult]]:
    """A monster's spec with its HP rolled (when dice), and the roll."""
    hp_text = str(spec.get("hp", "1d8"))
    if hp_text.lstrip("-").isdigit():
        return spec, []
    roll = dice.roll(hp_text, rng, label="HP")
    return {**spec, "hp": str(roll.total)}, [roll]


def parts(combatants: Sequence[Combatant]) -> dict[str, Part]:
    return {c.id: Part(c.name, c.kind, c.player or "") for c in combatants}


def unique_id(name: str, taken: set[str]) -> str:
    return _unique(name, taken)


def _unique(name: str, taken: set[str]) -> str:
    candidate, n = name, 2
    while candidate in taken:
        candidate, n = f"{name}-{n}", n + 1
    taken.add(candidate)
    return candidate


# -- the commands --------------------------------------------------------------------------------------------
def fight(who: Sequence[str], rng: DiceSource, *, monsters: str | None = None, fight_file: FightFile | None = None,
          room_dc: int | None = None, name: str | None = None, rounds: int = 20, initiative: str | None = None,
          options: dict[str, Any] | None = None) -> Command:
    """The automatic fight (each side attacks the nearest foe), settled onto the roster: one command."""

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        _none_in_progress(state)
        rules = _rules(state, options or {})
        state, adopted = adopt(state, rng, rules)
        lineup = line_up(state, party(state, who), rng, rules, monsters=monsters, fight_file=fight_file,
                         room_dc=room_dc, name=name, initiative=initiative)
        enc, fought = run_fight(lineup.encounter, rng, rules, rounds)
        done = Fight(name=lineup.name, turns=play.Turns(encounter=enc), members=lineup.members, xp=lineup.xp,
                     deaths=fallen(lineup.encounter, enc, fought), options=options or {}, began=state.clock.now,
                     suspended=lineup.dumped(), lasting=list(kept_facts(fought)))
        outcome = _outcome(enc, "played", lineup.name)
        after, settled = settle(lineup.taken_over(state), done, rules, rng)
        return after, [*adopted, lineup.opening, *fought, outcome, *settled]

    return run


def begin(who: Sequence[str], rng: DiceSource, *, monsters: str | None = None, fight_file: FightFile | None = None,
          room_dc: int | None = None, name: str | None = None, initiative: str | None = None,
          options: dict[str, Any] | None = None) -> Command:
    """A fight played turn by turn: round 1's initiative, then it waits for the first combatant due."""

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        _none_in_progress(state)
        rules = _rules(state, options or {})
        state, adopted = adopt(state, rng, rules)
        lineup = line_up(state, party(state, who), rng, rules, monsters=monsters, fight_file=fight_file,
                         room_dc=room_dc, name=name, initiative=initiative)
        turns, events = play.start(lineup.encounter, rng, rules)
        started = Fight(name=lineup.name, turns=turns, members=lineup.members, xp=lineup.xp,
                        deaths=fallen(lineup.encounter, turns.encounter, events), options=options or {},
                        began=state.clock.now, suspended=lineup.dumped(), lasting=list(kept_facts(events)))
        return _keep(lineup.taken_over(state), started), [*adopted, lineup.opening, *events, _due(turns)]

    return run


def next_turns(rng: DiceSource) -> Command:
    """The monsters' turns with the tactic, until a player character is due or the fight ends."""

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        now = current(state)
        turns, events = play.run_tactic(now.turns, rng, _rules(state, now.options))
        return _keep(state, _moved(now, turns, events)), [*events, _due(turns)]

    return run


def act(who: str, verb: str, target: str | None, rng: DiceSource, *, spell: str | None = None,
        note: str = "", item: str | None = None, bloodmagic: bool = False, asked: bool = False,
        standing: dict[str, str] | None = None) -> Command:
    """One combatant's chosen action on her turn (a player's, or the referee's for a monster); an action she
    cannot take is refused with the reason and nothing changes. `asked`: a choice it gives a player is asked
    (`furnace.play.answering`), else her standing answer decides; `standing`: the actor's answers given with the
    action (kind → answer)."""

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        now = current(state)
        rules = _rules(state, now.options)
        cid = resolve(state, now, who)
        aim = resolve(state, now, target) if target is not None and target.upper() != "RANGED" else target
        action = play.action_for(now.turns, cid, verb, aim, rules, spell=spell, note=note, item=item,
                                 bloodmagic=bloodmagic)
        turns, events = answering.take(now.turns, cid, action, rng, rules, standing=standing, ask=asked)
        return _keep(state, _moved(now, turns, events)), [*events, _due(turns)]

    return run


def end(rng: DiceSource | None = None) -> Command:
    """End the fight in progress (won, lost or broken off) and settle it onto the roster; what still lasts goes
    on the campaign clock (`rng` rolls what that rolls: H-HEAL-04's hours, AMB-93's weeks; the system's dice by
    default)."""

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        now = current(state)
        after, settled = settle(state, now, _rules(state, now.options), rng or dice.system())
        return after, [_outcome(now.turns.encounter, "ended", now.name), *settled]

    return run


def _outcome(enc: Encounter, how: str, name: str) -> Event:
    dead = [c for c in enc.combatants if c.status == "dead"]
    return Event(FIGHT, "", tuple(c.id for c in dead), (), {
        "how": how, "fight": name, "rounds": enc.round, "winner": enc.winner or "", "over": enc.over,
        "dead": [c.id for c in dead]}, (), {c.id: Part(c.name, c.kind, c.player or "") for c in dead})


# -- the fight in the campaign's state --------------------------------------------------------------------------
def resolve(state: CampaignState, now: Fight, who: str) -> str:
    """A combatant's id from its id, its name (any case) or its roster member's id or name."""
    enc = now.turns.encounter
    if any(c.id == who for c in enc.combatants):
        return who
    named = [c.id for c in enc.combatants if c.name.lower() == who.strip().lower()]
    if len(named) == 1:
        return named[0]
    try:
        member = state.member(who).id
    except (CampaignError, UnknownNameError):
        member = None
    by_member = [cid for cid, mid in now.members.items() if mid == member]
    if by_member:
        return by_member[0]
    known = [f"{c.id} ({c.name})" for c in enc.combatants]
    raise IllegalActionError(f"no combatant {who!r} in {now.name}; known: {', '.join(known)}")


def _keep(state: CampaignState, now: Fight) -> CampaignState:
    return state.model_copy(update={"encounter": now.model_dump(mode="json")})


def _moved(now: Fight, turns: play.Turns, events: Sequence[Event]) -> Fight:
    deaths = {**now.deaths, **fallen(now.turns.encounter, turns.encounter, events)}
    return now.model_copy(update={"turns": turns, "deaths": deaths, "lasting": [*now.lasting, *kept_facts(events)]})


moved = _moved
keep = _keep


def due_fact(turns: play.Turns) -> Event:
    """Whose turn it is now (or the fight is over)."""
    return _due(turns)


def _due(turns: play.Turns) -> Event:
    c = play.due(turns)
    enc = turns.encounter
    if c is None:
        return Event(DUE, "", (), (), {"round": enc.round, "over": True, "winner": enc.winner or ""})
    return Event(DUE, c.id, (), (), {"round": enc.round, "side": c.side, "id": c.id, "over": False}, (),
                 {c.id: Part(c.name, c.kind, c.player or "")})


def _none_in_progress(state: CampaignState) -> None:
    if state.encounter is not None:
        name = state.encounter.get("name", "a fight")
        raise CampaignError(f"{name} is in progress: play it (`furnace encounter status`) or end it "
                            "(`furnace encounter end`) first")


def _rules(state: CampaignState, options: dict[str, Any]) -> Ruleset:
    rules = rules_of(state)
    return rules.with_options(options, "this fight") if options else rules


def fallen(before: Encounter, after: Encounter, events: Sequence[Event]) -> dict[str, Fallen]:
    """Who died between `before` and `after`: the round and the cause the facts give (the death fact's `cause`),
    with the facts that tell it: the death, and the last blow taken before it (its `by` and `means`)."""
    was = {c.id: c.status for c in before.combatants}
    out: dict[str, Fallen] = {}
    for c in after.combatants:
        if c.status != "dead" or was.get(c.id) == "dead":
            continue
        at = max((i for i, e in enumerate(events) if e.kind == "death" and _about(e, c)), default=None)
        if at is None:
            out[c.id] = Fallen(round=after.round, cause=c.cause_of_death or "died_in_the_fight")
            continue
        death = events[at]
        blow = next((e for e in reversed(events[:at]) if e.kind == "damage" and _about(e, c)), None)
        cause = str(death.data.get("cause") or c.cause_of_death or "")
        facts = tuple(kept(e) for e in (death, blow) if e is not None)
        out[c.id] = Fallen(round=int(death.data.get("round", after.round)), cause=cause, facts=facts)
    return out


def _about(e: Event, c: Combatant) -> bool:
    """The event is about this combatant: its actor."""
    return e.actor == c.id


# -- settling ------------------------------------------------------------------------------------------------------
def settle(state: CampaignState, done: Fight, rules: Ruleset, rng: DiceSource) -> tuple[CampaignState, list[Event]]:
    """Write the fight back onto the roster (each character, her death with cause and round; what still lasts
    back on the campaign clock, `handover.leave`), share the XP, and clear the fight in progress. The fight's
    rounds moved time (AMB-03: each `round_seconds`): the clock moves on by them first, what falls due meanwhile
    fires, and what lasts goes back on it from the fight's end."""
    state, events = _fight_time(state.model_copy(update={"encounter": None}), done, rules, rng)
    for cid, mid in done.members.items():
        member = state.roster.get(mid)
        if member is None or member.status == "dead":
            continue
        state, logged = settle_member(state, done, cid, mid, rules, rng)
        events += logged
    state, earned = _share_xp(state, done)
    return state.model_copy(update={"encounter": None}), [*events, *earned]


def _fight_time(state: CampaignState, done: Fight, rules: Ruleset, rng: DiceSource,
                ) -> tuple[CampaignState, list[Event]]:
    """The clock moves on by the fight's rounds (its suspended entries are the fight's, off the clock)."""
    from furnace.play.clock import advance

    seconds = done.turns.encounter.round * int(rules["round_seconds"])
    if seconds <= 0:
        return state, []
    return run_clock(state, lambda view, rules_: advance(view, seconds, "second", rng, rules_), rules)


def settle_member(state: CampaignState, done: Fight, cid: str, mid: str, rules: Ruleset, rng: DiceSource,
                  ) -> tuple[CampaignState, list[Event]]:
    """One member leaves the fight: her character written back, what lasts on the clock, her death recorded."""
    enc = done.turns.encounter
    member = state.roster[mid]
    c = enc.get(cid)
    character, events = aftermath.settle(member.character, c, rules)
    character = _entered_with(character, member.character.hp, rules)
    died = done.deaths.get(cid)
    if c.status == "dead" and character.alive:
        character = character.model_copy(update={"dead": died.cause if died else "died in the fight"})
    out = Leaving(mid, c, done.entries(mid), enc.round, done.facts_about(cid))
    state, character, lasting_ = leave(state, character, out, rng, rules)
    events += lasting_
    state = put(state, member, character, died.cause if died else "")
    state, death = _death(state, mid, died, done.name)
    events += death
    return state, events


def _entered_with(character: Character, hp: int, rules: Ruleset) -> Character:
    """M-HEAL-01 (AMB-90 a): under the Middle Sea healing model, the HP the character entered the fight with (the
    roster's, untouched while the fight runs) is kept for the post-combat recovery roll, which stops there."""
    if rules["healing_model"] != "middle-sea" or not character.alive:
        return character
    from furnace.houserules.middle_sea.common import state_of, with_state

    return with_state(character, {**state_of(character), "hp_at_combat_start": hp})


def _death(state: CampaignState, mid: str, died: Fallen | None, fight_name: str,
           ) -> tuple[CampaignState, list[Event]]:
    """A death in this fight goes into the roster with its cause, its round and the fight."""
    member = state.roster[mid]
    if member.status != "dead" or member.death is None or member.death.encounter is not None:
        return state, []
    death = Death(cause=died.cause if died else member.death.cause, at=state.clock.now,
                  round=died.round if died else None, encounter=fight_name,
                  facts=died.facts if died else member.death.facts)
    return state.with_member(member.model_copy(update={"death": death})), [
        Event(ROSTER, member.character.name, (), (), {"id": mid, "round": death.round, "fight": fight_name,
                                                      "cause": death.cause, "facts": list(death.facts)}, (),
              cast_of([member]))]


def _share_xp(state: CampaignState, done: Fight) -> tuple[CampaignState, list[Event]]:
    """REF-24: the XP of the monsters beaten, and what the last share left over (the campaign's `xp_pool`), shared
    equally among the surviving characters; what this share leaves over is kept in the pool for the next fight's
    (no XP vanishes)."""
    enc = done.turns.encounter
    beaten = [c for c in enc.combatants if c.id in done.xp and c.status in BEATEN]
    survivors = [mid for mid in done.members.values() if mid in state.roster and state.roster[mid].status != "dead"]
    carried = state.xp_pool if survivors else 0
    total = sum(done.xp[c.id] for c in beaten) + carried
    share, left = divmod(total, len(survivors)) if total > 0 and survivors else (0, 0)
    living = [state.roster[mid] for mid in survivors]
    events = [Event(xp.XP, "", tuple(m.character.name for m in living), (), {
        "award": "fight", "fight": done.name, "beaten": len(beaten), "total": total, "share": share,
        "remainder": left, "survivors": survivors, "carried": carried, "kept": left}, ("REF-24",), cast_of(living))]
    if total <= 0 or not survivors:
        return state, events
    state = state.model_copy(update={"xp_pool": left})
    for mid in survivors if share else ():
        member = state.roster[mid]
        character, event = xp.award(member.character, share, done.name)
        state = put(state, member, character)
        events.append(event.with_data(from_fight=True))      # its reason is the fight's name: the referee's
    return state, events


__all__ = ["Fallen", "Fight", "Lineup", "act", "begin", "bestiary", "current", "due_fact", "end", "fallen", "fight",
           "keep", "line_up", "monster_specs", "moved", "next_turns", "parts", "party", "resolve", "rolled_hp",
           "settle", "settle_member", "unique_id"]

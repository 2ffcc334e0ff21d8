"""Running a session: what the referee does between fights, each a command on the campaign, logged.

Each function here builds a `Command` (state → next state and the events that explain it) for `Store.apply`;
the rules are the chapters' (`furnace.characters.xp`, `furnace.magic.casting`, `furnace.play.rest`,
`furnace.hazards`), the campaign only finds the members, calls the rule and puts the results back.

- `with_faces(command, rng)`: dice entered at the table (`EnteredFaces`): the faces left over are refused
  inside the command's transaction (nothing changes), and every event with a roll is logged `entered: true`.
- `chosen(state, who, party)`: the members a command acts on: named (by name or id) or the party
  (`adventuring`: the living, not retired, without the peasants who stayed home once their player promoted one).
- `award_xp` (F-BASE-08, REF-24: the ledger of awards), `learn_spell` (F-CLR-03, F-MU-05).
- `start_session` begins a numbered session; `furnace.campaign.recap` tells what happened since.

The other seams of a session: `furnace.campaign.timekeeping` (the clock and what runs on it: light, disease,
food, travel), `furnace.campaign.rest` (rests by the healing model, with the time they take) and
`furnace.campaign.gear` (items, coins, loot, repairs).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from furnace.campaign.commands import cast_of, on_member, put
from furnace.campaign.state import CampaignError, CampaignState, Member
from furnace.campaign.store import Applied, Command, ConflictError
from furnace.characters import xp
from furnace.characters.character import Character
from furnace.characters.facts import fact
from furnace.dice import DiceSource
from furnace.dice.source import EnteredFaces
from furnace.events import Event, declare
from furnace.rules.ruleset import Ruleset

if TYPE_CHECKING:
    from furnace.campaign.store import Store

SESSION = declare("session", start="public", session="public", title="public", at="public",
                  example={"start": True, "title": "the barrow", "at": 0})   # the fact that begins a session
SPELL = declare("spell_learnt", spell="public", known="actor", cap="actor",
                example={"spell": "Flame Shield", "known": 3, "cap": 4})   # a spell learnt
LIVING = ("alive", "dying")    # who counts as the party: not the dead, not the retired
MAX_XP = 1_000_000


# -- dice entered at the table --------------------------------------------------------------------------------
def with_faces(command: Command, rng: DiceSource) -> Command:
    """The command, checking entered faces at its end (inside the transaction) and marking its rolls entered."""
    if not isinstance(rng, EnteredFaces):
        return command

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        rng.rewind()                  # the store runs a command again after a clash with another writer
        after, events = command(state)
        rng.finish()
        marked = [_entered(e) for e in events if e.rolls]
        return after, [_entered(e) if e.rolls or not marked else e for e in events]

    return run


def _entered(event: Event) -> Event:
    return replace(event, data={**event.data, "entered": True})


def chain(*commands: Command) -> Command:
    """Commands run one after the other as one: one transaction, one entry in the log."""

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        events: list[Event] = []
        for command in commands:
            state, new = command(state)
            events += new
        return state, events

    return run


# -- who a command acts on ------------------------------------------------------------------------------------
def chosen(state: CampaignState, who: Sequence[str], party: bool = False) -> list[Member]:
    """The members named (by name or id, each once, in the order given), or with `party` the living ones."""
    if party and who:
        raise CampaignError("name the characters or give --party, not both")
    if party:
        members = adventuring(state)
        if not members:
            raise CampaignError(f"the campaign {state.name!r} has no living characters")
        return members
    if not who:
        raise CampaignError("name who (a character's name or id), or give --party")
    found: dict[str, Member] = {}
    for name in who:
        member = state.member(name)
        if member.status == "dead":
            cause = member.death.cause if member.death else "the dead stay dead"
            raise CampaignError(f"{member.character.name} ({member.id}) is dead: {cause}")
        found.setdefault(member.id, member)
    return list(found.values())


def adventuring(state: CampaignState) -> list[Member]:
    """The party (`--party`, `--party all`): the members living (alive or dying) and not retired, but for the
    0-level peasants who stayed home — those whose player has a promoted character living (after the funnel,
    each player plays on with the survivor she promoted). Name one to bring her along all the same."""
    living = [m for m in state.roster.values() if m.status in LIVING and m.character.alive]
    promoted = {m.player for m in living if m.character.level >= 1}
    return [m for m in living if m.character.level >= 1 or m.player not in promoted]


def names_of(members: Sequence[Member]) -> str:
    """'Agna', 'Agna and Bo', 'Agna, Bo and Cy'."""
    names = [m.character.name for m in members]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def split(amount: int, among: int) -> tuple[int, int]:
    """An amount shared out evenly: each one's share and what is left over (the sign kept on both)."""
    share, left = divmod(abs(amount), among)
    sign = -1 if amount < 0 else 1
    return sign * share, sign * left


# -- experience (F-BASE-08, REF-24) ---------------------------------------------------------------------------
def award_xp(amount: int, who: Sequence[str], *, party: bool = False, reason: str = "the referee's award",
             each: bool = False) -> Command:
    """XP shared out evenly among the characters named (or the party), the remainder stated; `each` gives every
    one the whole amount. Each award goes into the character's XP ledger (REF-24)."""
    if isinstance(amount, bool) or not isinstance(amount, int) or amount == 0 or abs(amount) > MAX_XP:
        raise CampaignError(f"an XP award is a whole number from -{MAX_XP:,} to {MAX_XP:,}, not 0, not {amount!r}")

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        members = chosen(state, who, party)
        share, left = (amount, 0) if each else split(amount, len(members))
        events = [Event(xp.XP, "", tuple(m.character.name for m in members), (),
                        {"award": "shared", "amount": amount, "share": share, "remainder": left, "reason": reason,
                         "each": each, "among": [m.id for m in members]}, ("REF-24",), cast_of(members))]
        if share == 0:
            return state, events
        for member in members:
            after, event = xp.award(member.character, share, reason)
            state = put(state, member, after)
            events.append(event)
        return state, events

    return run


# -- spells known (F-CLR-03, F-MU-05) ------------------------------------------------------------------------------
def learn_spell(who: str, spell: str) -> Command:
    """A caster learns a spell of the spells in force (the campaign's own included), within the cap."""
    from furnace.magic.casting import learn_spell as learn
    from furnace.magic.casting import spells_known_cap

    def rule(character: Character, rules: Ruleset) -> tuple[Character, list[Event]]:
        after = learn(character, spell, rules)
        new = after.spells[-1]
        cap = spells_known_cap(after, rules)
        return after, [fact(SPELL, character, (), ("F-CLR-03", "F-MU-05"), spell=new, known=len(after.spells),
                            cap=cap)]

    return on_member(who, rule)


# -- sessions -------------------------------------------------------------------------------------------------------
def start_session(store: Store, name: str, title: str = "", *, retries: int = 8) -> Applied:
    """Begin the next session: its number is one more than the sessions begun in the log (the campaign's first
    is session 1). Read and written with the version seen, so two referees never start the same number."""
    for attempt in range(retries):
        version = store.version(name)
        number = 1 + sum(1 for e in store.events(name) if is_session_start(e.kind, e.data))
        try:
            return store.apply(name, "campaign session start", _begin(number, title), expected_version=version)
        except ConflictError:
            if attempt == retries - 1:
                raise
    raise AssertionError("unreachable")


def is_session_start(kind: str, data: dict[str, object]) -> bool:
    return kind == SESSION and bool(data.get("start"))


def _begin(number: int, title: str) -> Command:
    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        event = Event(SESSION, "", (), (), {"start": True, "session": number, "title": title, "at": state.clock.now},
                      ("F-BASE-08",))
        return state.model_copy(update={"session": number}), [event]

    return run

"""Campaign commands: each a function from the campaign's state to the next state and its events.

A command is built from its arguments and a dice source (`damage("ann1", 4)`, `roll("d20+2", rng)`) and run
by `Store.apply`, which logs what it did in the same transaction as the change. The rules are the engine's
and the chapters'; a command only finds the member, calls the rule and puts the result back in the roster.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from furnace import dice
from furnace.campaign import upgrades  # noqa: F401  (adds the upgrades of older campaigns to the store's)
from furnace.campaign.state import CampaignError, CampaignState, Death, Member
from furnace.campaign.store import Command
from furnace.characters.character import Character
from furnace.events import Event, Part, declare
from furnace.play import luck
from furnace.rules.ruleset import Ruleset

JOIN = declare("join", id="public", player="public", file="referee",
               example={"id": "ann1", "player": "Ann", "file": "ann.json"})
HEAL = "heal"        # the engine's kind (furnace.play.apply): `amount`, `hp_before`, `hp_after`, `hp_max`; `source`
ROLL = declare("roll", rolls="public", expression="public", label="public", total="public",
               example={"expression": "d20+2", "label": "Stealth", "total": 14})


def rules_of(state: CampaignState) -> Ruleset:
    """The campaign's ruleset: its profile, the referee's option overrides and override files."""
    from furnace.campaign.overrides import campaign_ruleset

    return campaign_ruleset(state)


def status_of(character: Character) -> str:
    if not character.alive:
        return "dead"
    return "dying" if character.hp <= 0 else "alive"


def put(state: CampaignState, member: Member, character: Character, cause: str = "",
        facts: Sequence[Event] = ()) -> CampaignState:
    """The member with her new character; a death is recorded with its cause, the time it came and the facts
    that tell it (`facts`: the death facts among them). Conditions do not outlive their cause: brought above 0 HP
    she is no longer DYING or UNCONSCIOUS and her dying and waking entries leave the clock; the dead lose every
    lasting entry (`lasting.up_again`)."""
    from furnace.campaign.lasting import up_again

    if not character.alive or member.character.hp <= 0 < character.hp:   # a recovery, not any write: a poison's
        character, state = up_again(state, character)                      # deep sleep at 13 HP stays
    status = status_of(character) if member.status != "retired" else "retired"
    death = member.death
    if status == "dead" and death is None:
        death = Death(cause=character.dead or cause or "unknown", at=state.clock.now, facts=death_facts(facts))
    after = state.with_member(member.model_copy(update={"character": character, "status": status, "death": death}))
    if luck.held_by(character) == luck.held_by(member.character):
        return after
    from furnace.campaign.luck import spread  # her Luck Dice are her player's: each of her characters holds them

    return spread(after, after.roster[member.id])


def death_facts(events: Sequence[Event]) -> tuple[dict[str, Any], ...]:
    """The death facts among these events, as the roster keeps them (without their dice)."""
    return tuple(kept(e) for e in events if e.kind == "death")


def kept(e: Event) -> dict[str, Any]:
    """A fact as the roster keeps it: its values, participants and rules, not its dice."""
    return {**e.to_dict(), "rolls": []}


def cast_of(members: Sequence[Member]) -> dict[str, Part]:
    """Members as facts name them out of a fight: by their characters' names, PCs of their players."""
    return {m.character.name: Part(m.character.name, "pc", m.player or m.character.player or "") for m in members}


def join(character: Character, player: str = "") -> Command:
    """A character joins the roster, with a short id unique in the campaign."""

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        cid = state.new_id(character.name)
        member = Member(id=cid, character=character, player=player or character.player or "",
                        status=status_of(character), joined=state.clock.now)
        return state.with_member(member), [Event(JOIN, character.name, (), (), {"id": cid, "player": member.player},
                                                 (), cast_of([member]))]

    return run


def on_member(who: str, rule: Callable[[Character, Ruleset], tuple[Character, Sequence[Event]]]) -> Command:
    """A command that applies one rule to one living member of the roster."""

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        member = state.member(who)
        if member.status == "dead":
            cause = member.death.cause if member.death else "the dead stay dead"
            raise CampaignError(f"{member.character.name} ({member.id}) is dead: {cause}")
        after, events = rule(member.character, rules_of(state))
        return put(state, member, after, facts=events), list(events)

    return run


def living(state: CampaignState, who: str) -> Member:
    """A member who is not dead (by name or id)."""
    member = state.member(who)
    if member.status == "dead":
        cause = member.death.cause if member.death else "the dead stay dead"
        raise CampaignError(f"{member.character.name} ({member.id}) is dead: {cause}")
    return member


def roll(expression: str, rng: dice.DiceSource, *, label: str = "", who: str = "",
         variables: dict[str, int | str] | None = None) -> Command:
    """A roll at the table, kept in the log with its whole tree; it changes nothing else. `who`: the member who
    rolls (her name or id; none: the referee)."""
    result = dice.parse(expression).roll(rng, variables or {}, label=label)

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        roller = [state.member(who)] if who else []
        actor = roller[0].character.name if roller else ""
        return state, [Event(ROLL, actor, (), (result,), {"expression": expression, "label": label,
                                                          "total": result.total}, (), cast_of(roller))]

    return run

"""Her Luck Dice on a roll from her sheet she has seen (F-LUCK-03), asked of her in two steps: the console's.

    roll("Ann-1", "save", rng, ability="CON", dc=14)    # seen: fails on 11, she holds 2 → the roll waits
    answer("Ann-1", 1, rng)                              # the same d20 again, with one Luck Die

`furnace check --who` at a terminal shows the roll and asks in one process (`cli.standing.seen_first`). The console
answers between two requests, possibly on two workers, so the roll seen is kept in the campaign: `roll` rolls it
and, when her Luck Dice could change it (`may_change`), logs that it waits (`luck_asked`, the roll as the table
saw it) and keeps its faces in the table (`Table.asked`) — nothing else changes, no failure streak is built yet.
`answer` rolls the same faces again with the Luck Dice she spends (0 to what her player holds; the referee may
answer for her) and logs the roll as a roll from her sheet is always logged (`table.sheet_roll`). Until then her
next roll from the sheet is refused: a roll seen is never rolled again.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from furnace.campaign import table
from furnace.campaign.state import CampaignError, CampaignState
from furnace.campaign.store import Command
from furnace.dice import DiceSource
from furnace.events import Event, declare

# a roll from her sheet seen and waiting for her Luck Dice: what was rolled (`roll`, `ability`, `skill`, `weapon`),
# its `total` against the `dc`, `success` so far, the `natural` d20 (a SPELLCHECK's `sl`), the dice her player
# `held` then
LUCK_ASKED = declare("luck_asked", rolls="actor", roll="public", ability="public", skill="public", weapon="actor",
                     total="actor", dc="public", success="public", natural="actor", sl="actor", member="public",
                     held="actor", example={"roll": "save", "ability": "CON", "skill": None, "weapon": None,
                                            "total": 11, "dc": 14, "success": False, "natural": 9, "sl": None,
                                            "member": "ann1", "held": 2})
SHOWN = ("roll", "ability", "skill", "weapon", "total", "dc", "success", "natural", "sl", "member")


def may_change(rolled: Mapping[str, Any], held: int) -> bool:
    """Whether Luck Dice could change a roll from her sheet (its fact's data): she holds some, and it failed (any
    SPELLCHECK: a die may raise its SL, F-SPELL-09) without a mishap, which luck never cancels."""
    failed = not rolled.get("saved", rolled.get("success"))
    return held >= 1 and (failed or rolled.get("roll") == "spellcheck") and not rolled.get("mishap")


def roll(who: str, kind: str, rng: DiceSource, *, ability: str | None = None, skill: str | None = None,
         dc: int = 12) -> Command:
    """A roll from `who`'s sheet (`table.sheet_roll`'s), kept waiting for her Luck Dice when they could change it,
    else logged at once with none spent."""
    from furnace.campaign.luck import pool_of
    from furnace.play.answering import Recorder

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        seen = Recorder(rng)
        after, events = table.sheet_roll(who, kind, seen, ability=ability, skill=skill, dc=dc, luck=0)(state)
        rolled, member = events[0], state.member(who)
        held = pool_of(state, member).dice
        if not may_change(rolled.data, held):
            return after, list(events)
        kept = table.table_of(state)
        waiting = table.SeenRoll(roll=kind, ability=ability, skill=skill, dc=dc,
                                 faces=tuple(seen.drawn))
        state = table.with_table(state, kept.model_copy(update={"asked": {**kept.asked, member.id: waiting}}))
        data = {k: rolled.data.get(k) for k in SHOWN} | {"held": held}
        return state, [Event(LUCK_ASKED, rolled.actor, (), rolled.rolls, data, ("F-LUCK-03",), rolled.cast)]

    return run


def answer(who: str, dice: int, rng: DiceSource) -> Command:
    """`who`'s roll waiting for her Luck Dice rolled again, the same faces, with `dice` of them spent (0: none)."""
    from furnace.campaign.luck import pool_of
    from furnace.play.answering import Recorder

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        member = state.member(who)
        kept = table.table_of(state)
        seen = kept.asked.get(member.id)
        if seen is None:       # (the words are hers to read: only she and the referee answer for her)
            said = f"no roll of {member.character.name}'s waits for her Luck Dice"
            raise CampaignError(said).for_all(said)
        held = pool_of(state, member).dice
        if isinstance(dice, bool) or not isinstance(dice, int) or not 0 <= dice <= held:
            said = (f"{member.character.name}'s player holds {held} Luck {'Die' if held == 1 else 'Dice'}: spend "
                    f"0 to {held}, not {dice!r}")
            raise CampaignError(said).for_all(said)
        rest = {k: v for k, v in kept.asked.items() if k != member.id}
        state = table.with_table(state, kept.model_copy(update={"asked": rest}))
        again = Recorder(rng, seen.faces)
        after, events = table.sheet_roll(member.id, seen.roll, again, ability=seen.ability, skill=seen.skill,
                                         dc=seen.dc, luck=dice)(state)
        return after, list(events)

    return run


def waiting(state: CampaignState, kept: table.Table) -> dict[str, int]:
    """Each member whose roll waits for her Luck Dice (`kept`: the campaign's table), and the dice her player
    holds."""
    from furnace.campaign.luck import pool_of

    return {mid: pool_of(state, state.member(mid)).dice for mid in kept.asked}

"""Lay on Hands out of a fight: a Cleric of the roster on a member (herself, by option loh_self).

The rules are `furnace.magic.casting`'s: the SPELLCHECK read on F-TAB-06, the Hit Dice the recipient spends from
her own pool within her daily cap (F-CLR-05, F-CLR-07, AMB-15); a condition cured instead of HP once the referee
approves (F-CLR-06, CF-47); the optional CON SAVE for one more Hit Die after a healing (F-CLR-08). The command
finds the two members, calls the rule and puts both back. In a fight, laying on hands is the Cleric's action on
her turn, so the command is refused while an encounter runs.
"""

from __future__ import annotations

from typing import Any

from furnace.campaign.commands import put, rules_of
from furnace.campaign.state import CampaignError, CampaignState, Member
from furnace.campaign.store import Command
from furnace.characters.character import Character
from furnace.dice import DiceSource
from furnace.events import Event

DOWN = frozenset({"DYING", "UNCONSCIOUS"})     # what a character at 0 HP or below is, until healed above it


def lay_on_hands(cleric: str, recipient: str, rng: DiceSource, room_dc: int, *, cure: str | None = None,
                 approved: bool = False, extra_hd: bool = False) -> Command:
    """The Cleric `cleric` lays hands on `recipient` (ids or names of the roster) against the ROOM DC."""
    if not isinstance(room_dc, int) or not 1 <= room_dc <= 60:
        raise CampaignError(f"the ROOM DC is a whole number from 1 to 60, not {room_dc!r}")
    if cure is not None and extra_hd:
        raise CampaignError("a Lay on Hands that cures a condition heals no HP: no extra Hit Die after it (F-CLR-08)")

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        from furnace.magic.casting import extra_hit_dice, lay_on_hands_cure
        from furnace.magic.casting import lay_on_hands as rule

        if state.encounter is not None:
            raise CampaignError("a fight is running: in it, Lay on Hands is the Cleric's action on her turn")
        healer, patient = _living(state, cleric), _living(state, recipient)
        rules = rules_of(state)
        if cure is not None:
            by, to, events = lay_on_hands_cure(healer.character, patient.character, cure, rng, room_dc, rules,
                                               approved=approved)
        else:
            by, to, events = rule(healer.character, patient.character, rng, room_dc, rules)
            if extra_hd and any(e.kind == "lay_on_hands" and e.data["allowed"] for e in events):
                to, more = extra_hit_dice(to, rng, room_dc, rules)
                events.extend(more)
            to = _awake(to)
        if healer.id == patient.id:
            return put(state, healer, _both(healer.character, by, to), facts=events), events
        state = put(state, healer, by, facts=events)
        return put(state, state.member(patient.id), to, facts=events), events

    return run


def _living(state: CampaignState, who: str) -> Member:
    member = state.member(who)
    if member.status == "dead":
        raise CampaignError(f"{member.character.name} ({member.id}) is dead: no prayer reaches her")
    return member


def _awake(c: Character) -> Character:
    """Healed above 0 HP she wakes, as from any healing (`campaign.fightedit.heal`): no longer down."""
    if c.hp <= 0 or not DOWN.intersection(c.conditions):
        return c
    return c.model_copy(update={"conditions": [x for x in c.conditions if x not in DOWN]})


def _both(before: Character, as_cleric: Character, as_recipient: Character) -> Character:
    """Her own Lay on Hands: the recipient's changes (HP, Hit Dice, the day's count) and the Cleric's (her
    disapproval range, a lockout) on one character."""
    changed: dict[str, Any] = {k: getattr(as_cleric, k) for k in type(before).model_fields
                               if getattr(as_cleric, k) != getattr(before, k)}
    return as_recipient.model_copy(update=changed) if changed else as_recipient

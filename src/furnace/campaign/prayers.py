"""Lay on Hands out of a fight, on the campaign's characters (F-CLR-05…07, F-TAB-06, AMB-15): the Cleric and the
recipient are roster members; the SPELLCHECK, the Hit Dice the recipient spends within her pool and her daily cap,
or the condition cured with the referee's approval (F-CLR-06, CF-47) are `furnace.magic.casting`'s."""

from __future__ import annotations

from furnace.campaign.commands import put, rules_of
from furnace.campaign.state import CampaignError, CampaignState
from furnace.campaign.store import Command
from furnace.dice import DiceSource
from furnace.events import Event
from furnace.magic.casting import lay_on_hands as heal_by_hands
from furnace.magic.casting import lay_on_hands_cure


def lay_on_hands(cleric: str, recipient: str, rng: DiceSource, *, room_dc: int | None = None,
                 cure: str | None = None, approved: bool = False) -> Command:
    """The Cleric lays hands on the recipient (herself under loh_self): heal, or cure a condition. The ROOM DC
    outside a fight is the option hazard_save_dc unless given (AMB-15 a)."""

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        rules = rules_of(state)
        healer, patient = state.member(cleric), state.member(recipient)
        for m in (healer, patient):
            if m.status == "dead":
                raise CampaignError(f"{m.character.name} ({m.id}) is dead")
        dc = room_dc if room_dc is not None else int(rules["hazard_save_dc"])
        if cure:
            after, treated, events = lay_on_hands_cure(healer.character, patient.character, cure, rng, dc, rules,
                                                       approved=approved)
        else:
            after, treated, events = heal_by_hands(healer.character, patient.character, rng, dc, rules)
        if healer.id == patient.id:
            return put(state, healer, treated, facts=events), events
        state = put(state, healer, after, facts=events)
        return put(state, state.roster[patient.id], treated, facts=events), events

    return run

"""A planned fight for the simulation plot: the campaign's living characters against the bestiary's monsters,
laid out as a fight of the campaign is (`campaign.encounters.line_up`) and fought by the engine's tactic
(`play.encounter.run_fight`), never written back. It is the `furnace.play.simulate.Source` of the referee's
"how deadly is this?" button; the fights run in this process, their number bounded by the route."""

from __future__ import annotations

from dataclasses import dataclass

from furnace.campaign import encounters
from furnace.campaign.commands import rules_of
from furnace.campaign.state import CampaignState
from furnace.play.simulate import Fighter, Fought
from furnace.rules.bestiary import parse_monsters


@dataclass(frozen=True)
class PlannedFight:
    state: CampaignState
    who: tuple[str, ...]
    monsters: str
    room_dc: int | None = None
    rounds: int = 20

    def monster_names(self) -> list[str]:
        return [m.name for m, _ in parse_monsters(self.monsters, encounters.bestiary(self.state))]

    def prepare(self) -> Fighter:
        from furnace import dice
        from furnace.play.encounter import run_fight

        rules = rules_of(self.state)
        members = encounters.party(self.state, self.who)

        def fight(seed: int) -> Fought:
            rng = dice.seeded(seed)
            lineup = encounters.line_up(self.state, members, rng, rules, monsters=self.monsters,
                                        room_dc=self.room_dc)
            after, events = run_fight(lineup.encounter, rng, rules, self.rounds)
            return lineup.encounter, after, events

        return fight

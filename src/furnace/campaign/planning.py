"""A planned fight of the campaign, for `furnace simulate --party … --monsters …` and the console's "how deadly
is this?" button: the campaign's living characters against the bestiary's monsters, laid out as a fight of the
campaign is (`encounters.line_up`) and fought by the engine's tactic (`play.simulate.fight_out`: the fight,
then the countdown of its dying), never written back. It is a `furnace.play.simulate.Source`; a sweep varies its
fields (`play.simulate.vary`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from furnace import dice
from furnace.campaign import encounters
from furnace.campaign.commands import rules_of
from furnace.campaign.state import CampaignState
from furnace.play.answering import standing_in
from furnace.play.outcomes import Fought
from furnace.play.simulate import Fighter, fight_out
from furnace.rules.bestiary import parse_monsters
from furnace.rules.ruleset import Ruleset


@dataclass(frozen=True)
class CampaignSource:
    """The campaign's living characters against the bestiary's monsters, laid out as `furnace fight --party
    … --monsters …` lays them out (campaign.encounters), and never written back."""

    state: CampaignState             # read once
    who: tuple[str, ...]
    monsters: str
    room_dc: int | None = None
    rounds: int = 20
    options: tuple[tuple[str, Any], ...] = ()
    initiative: str | None = None
    counts: tuple[tuple[str, int], ...] = ()      # a sweep's monster counts, by name or id
    policies: tuple[tuple[str, str], ...] = ()    # standing answers (who, policy): `furnace.play.policies`

    def _listed(self) -> list[tuple[Any, int]]:
        wanted = {name.lower(): n for name, n in self.counts}
        return [(m, wanted.get(m.name.lower(), wanted.get(m.id.lower(), n)))
                for m, n in parse_monsters(self.monsters, encounters.bestiary(self.state))]

    def monster_names(self) -> list[str]:
        return [m.name for m, _ in self._listed()]

    def rules(self) -> Ruleset:
        rules = rules_of(self.state)
        return rules.with_options(dict(self.options), "this fight") if self.options else rules

    def prepare(self) -> Fighter:
        rules = self.rules()
        members = encounters.party(self.state, self.who)
        monsters = ", ".join(f"{m.id} x{n}" for m, n in self._listed()) if self.counts else self.monsters
        order = {"initiative": self.initiative} if self.initiative else {}

        def fight(seed: int) -> Fought:
            rng = dice.seeded(seed)
            lineup = encounters.line_up(self.state, members, rng, rules, monsters=monsters, room_dc=self.room_dc)
            start = lineup.encounter.model_copy(update=order) if order else lineup.encounter
            start = standing_in(start, dict(self.policies))
            return fight_out(start, rng, rules, self.rounds)

        return fight

"""Luck Dice on the campaign: whose they are, one pool per owner, the referee's hand on it (F-LUCK-01/02).

Under the option luck_owner `player` (the default) a player's Luck Dice and her run of failed rolls are one pool
across all her characters — the funnel's four peasants of one player share it, and so do her heroes after — held
by each living character of hers alike (`Character.luck_dice` and `extensions["luck"]`), so every sheet and the
engine read the same pool; under `character` each character keeps her own. What reads luck reads it through
`pool_of(state, member)`; what writes a character through `commands.put` hands a changed pool to the owner's other
characters (`spread`). A campaign written before this held one copy per character, which fights and the clock
let drift apart: the store merges them once, as a logged command of its own (`merge_pools`, run by
`furnace.campaign.upgrades`), each player's pool the largest of her living characters' (capped at 3, F-LUCK-02)
with the longest streak. The referee adjusts a pool with `adjust` (`furnace luck WHO +1`), logged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from furnace.campaign.state import CampaignError, CampaignState, Member
from furnace.campaign.store import Command
from furnace.dice import DiceSource, RollResult
from furnace.events import Event, Part, declare
from furnace.play import luck
from furnace.play.checks import CheckResult, succeeds
from furnace.play.choosing import rerolled_natural
from furnace.play.luck import MAX_DICE, LuckSpend, LuckState
from furnace.rules.ruleset import Ruleset

# the referee changes a pool (`owner`: "player" or "character"; `holders`: the characters holding it); a split pool
# made one (`player`, each character's `pools` before, the `dice` and `streak` kept)
ADJUST = declare("luck_adjust", owner="public", player="public", holders="public", before="actor", after="actor",
                 streak="actor", reason="public",
                 example={"owner": "player", "player": "Ann", "holders": ["Ann-1", "Ann-2"], "before": 1, "after": 2,
                          "streak": 0, "reason": "a clever plan"})
MERGED = declare("luck_merged", targets=1, player="public", pools="public", dice="public", streak="public",
                 example={"player": "Ann", "pools": {"Ann-1": 2, "Ann-2": 0}, "dice": 2, "streak": 1})
RULES = ("F-LUCK-01", "F-LUCK-02")


def by_player(state: CampaignState) -> bool:
    """luck_owner player: a player's characters share her pool."""
    from furnace.campaign.overrides import campaign_ruleset

    return bool(campaign_ruleset(state)["luck_owner"] == "player")


def holders(state: CampaignState, member: Member) -> list[Member]:
    """The members holding `member`'s pool: her player's living characters (her alone without a player, or under
    luck_owner character). The dead keep what they held when they fell."""
    if not member.player or not by_player(state):
        return [member]
    return [m for m in state.roster.values() if m.player == member.player and (m.status != "dead" or m is member)]


def merged(pools: Sequence[LuckState]) -> LuckState:
    """Copies of one pool that drifted apart made one: the most dice (at most 3) and the longest streak."""
    return LuckState(min(MAX_DICE, max((p.dice for p in pools), default=0)), max((p.streak for p in pools), default=0))


def pool_of(state: CampaignState, member: Member) -> LuckState:
    """The Luck Dice and failure streak `member`'s rolls spend and build (F-LUCK-01, luck_owner). The one function
    the encounter, the console and the simulation read luck through.

    Example:
        pool_of(state, state.member("Ann-1")).dice     # 2: Ann's, whichever of her characters earned them
    """
    return merged([luck.held_by(m.character) for m in holders(state, member)])


def hold(state: CampaignState, member: Member, pool: LuckState) -> CampaignState:
    """Every holder of `member`'s pool holds `pool`."""
    for m in holders(state, member):
        if luck.held_by(m.character) != pool:
            state = state.with_member(m.model_copy(update={"character": luck.kept(m.character, pool)}))
    return state


def spread(state: CampaignState, member: Member) -> CampaignState:
    """`member`'s character holds a new pool (a fight, a save on the clock): her player's other characters take it."""
    return hold(state, member, luck.held_by(member.character)) if member.player else state


# -- the referee's hand ------------------------------------------------------------------------------------------
def parse_change(text: str) -> tuple[str, int]:
    """`+1`, `-2` (a change) or `3` (the pool set to 3)."""
    value = text.strip()
    try:
        number = int(value)
    except ValueError:
        raise CampaignError(f"a change of Luck Dice is +N, -N or N (set), not {text!r}") from None
    return ("by" if value[:1] in "+-" else "to"), number


def adjust(who: str, change: str, reason: str = "") -> Command:
    """The referee adds to, takes from or sets a pool, 0 to 3 (F-LUCK-02); her player's characters all hold it."""
    how, number = parse_change(change)

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        member = state.member(who)
        before = pool_of(state, member)
        after = before.dice + number if how == "by" else number
        if not 0 <= after <= MAX_DICE:
            raise CampaignError(f"{member.character.name}'s pool holds {before.dice}: {change} would make {after}; "
                                f"a pool holds 0 to {MAX_DICE} Luck Dice (F-LUCK-02)")
        shared = holders(state, member)
        state = hold(state, member, LuckState(after, before.streak))
        return state, [Event(ADJUST, member.character.name, (), (), {
            "owner": "player" if member.player and by_player(state) else "character",
            "player": member.player, "holders": [m.character.name for m in shared], "before": before.dice,
            "after": after, "streak": before.streak, "reason": reason}, RULES, _cast(shared))]

    return run


# -- Luck Dice on a roll out of a fight (F-LUCK-03) ----------------------------------------------------------------
def wanted(state: CampaignState, member: Member, rules: Ruleset, *, held: int, short: int, roll: str,
           given: int | None, death: bool = False) -> int:
    """The Luck Dice she spends on a roll she has seen: given ahead (`--luck N`, more than she holds is all she
    holds), else her lasting standing answer (`furnace.campaign.standing.policy_for`, the engine's policies) —
    which spends only when one die can save the roll (`short`: what the total lacks) under luck_spend_timing
    after_roll."""
    if given is not None:
        return max(0, min(given, held))
    if held < 1 or short <= 0 or rules["luck_spend_timing"] != "after_roll":
        return 0
    from furnace import dice
    from furnace.campaign.standing import policy_for
    from furnace.play import policies

    die_max = dice.parse(str(rules["luck_die_size"])).bounds()[1]
    saves = rules["luck_die_effect"] == "reroll" or short <= die_max
    options = tuple(str(n) for n in range(held + 1))
    return int(policies.decide(policy_for(state, member.player, rules), "luck",
                               {"saves": saves, "roll": roll, "death": death}, options))


def spent_from_pool(state: CampaignState, member: Member, n: int, before: int, after: int,
                    rolls: Sequence[RollResult]) -> tuple[CampaignState, Event]:
    """`n` Luck Dice out of her player's pool (every holder holds what is left), told as the fight tells a spend."""
    from furnace.play.choosing import LUCK

    pool = pool_of(state, member)
    state = hold(state, member, LuckState(pool.dice - n, pool.streak))
    return state, Event(LUCK, member.character.name, (), tuple(rolls), {"before": before, "after": after,
                                                                         "left": pool.dice - n}, ("F-LUCK-03",),
                        _cast([member]))


def on_roll(state: CampaignState, member: Member, rng: DiceSource, rules: Ruleset, *, roll: RollResult, total: int,
            needed: int, given: int | None, death: bool = False) -> tuple[CampaignState, LuckSpend | None, list[Event]]:
    """F-LUCK-03 out of a fight: Luck Dice of her player's pool spent on a CHECK, SAVE or ATK she has seen
    (`wanted`), by the engine's rule (`play.luck.spend`: a die added, or the d20 rolled again); the spend and the
    new total, or None."""
    pool = pool_of(state, member)
    n = wanted(state, member, rules, held=pool.dice, short=needed - total, roll=roll.label, given=given,
               death=death)
    if n < 1:
        return state, None, []
    _, spent = luck.spend(pool, rng, total, rules, n, natural=roll.natural, label="Luck Die")
    state, told = spent_from_pool(state, member, n, total, spent.total, spent.rolls)
    return state, spent, [told]


def counted(state: CampaignState, member: Member, success: bool, kind: str,
            rules: Ruleset) -> tuple[CampaignState, list[Event]]:
    """F-LUCK-01, AMB-02: one of her player's rolls out of a fight finished (after the Luck Dice spent on it): a
    failure builds the pool's streak — the second in a row and each after earn a die (F-LUCK-02: none past 3) — and
    a success ends it. The fight counts its own rolls (`play.aftermath`), the clock its hazards' SAVEs."""
    pool, earned = luck.record(pool_of(state, member), success, kind, rules)
    state = hold(state, member, pool)
    if earned is None:
        return state, []
    return state, [Event(luck.EARNED, member.character.name, (), (), earned, luck.LUCK_RULES, _cast([member]))]


@dataclass(frozen=True)
class Lucky:
    """A CHECK, SAVE or ATK after the Luck Dice spent on it: the total rolled, the dice, the new total, success."""

    before: int
    dice: int
    total: int
    success: bool

    def values(self, success_key: str = "success") -> dict[str, Any]:
        """What the roll's fact keeps of it."""
        return {"luck_before": self.before, "luck_dice": self.dice, "total": self.total, success_key: self.success}


def on_check(state: CampaignState, member: Member, rng: DiceSource, rules: Ruleset, result: CheckResult,
             given: int | None, *, death: bool = False, crit_on: int = 20,
             ) -> tuple[CampaignState, Lucky | None, list[Event]]:
    """Her Luck Dice on a CHECK, SAVE or ATK she has seen (`on_roll`; none on a success unless given), and the
    roll read again by `play.checks`' own verdict (the natural face as it stands, or the d20 rolled again)."""
    if result.success and not given:
        return state, None, []
    needed = result.total + 1 if result.success else result.dc.value
    state, spent, told = on_roll(state, member, rng, rules, roll=result.roll, total=result.total, needed=needed,
                                 given=given, death=death)
    if spent is None:
        return state, None, told
    natural = rerolled_natural(spent, result.roll) or 0
    ok = succeeds(result.kind, spent.total, result.dc.value, natural, rules, crit_on)
    return state, Lucky(result.total, spent.spent, spent.total, ok), told


# -- the merge of split pools ------------------------------------------------------------------------------------
def split(state: CampaignState) -> dict[str, list[Member]]:
    """Each player whose living characters hold pools that differ (a campaign of an older Furnace)."""
    players: dict[str, list[Member]] = {}
    for m in state.roster.values():
        if m.player and m.status != "dead":
            players.setdefault(m.player, []).append(m)
    return {p: ms for p, ms in players.items() if len({luck.held_by(m.character) for m in ms}) > 1}


def merge_pools(state: CampaignState) -> tuple[CampaignState, list[Event]]:
    """A campaign command: each player's split pools made one (`merged`), one fact per player (nothing under
    luck_owner character, where each character's pool is her own)."""
    events: list[Event] = []
    if not split(state) or not by_player(state):
        return state, events
    for player, members in split(state).items():
        pool = merged([luck.held_by(m.character) for m in members])
        events.append(Event(MERGED, "", tuple(m.character.name for m in members), (), {
            "player": player, "pools": {m.character.name: m.character.luck_dice for m in members},
            "dice": pool.dice, "streak": pool.streak}, RULES, _cast(members)))
        state = hold(state, members[0], pool)
    return state, events


def _cast(members: Sequence[Member]) -> dict[str, Part]:
    return {m.character.name: Part(m.character.name, "pc", m.player) for m in members}


__all__ = ["ADJUST", "MERGED", "Lucky", "adjust", "by_player", "hold", "holders", "merge_pools", "merged", "on_check",
           "on_roll", "pool_of", "spent_from_pool", "split", "spread", "wanted"]

"""Standing answers that last between fights: each player's named policy, the kinds of choice the referee does not
ask, and the seconds a question waits in the console before her standing answer decides it.

    furnace standing --policy Ann=dying --quiet sunder --seconds 60

They live in the campaign's state (`CampaignState.standing`, `quiet`, `question_seconds`); a fight begun on the
campaign starts from them (`started`), and `furnace encounter standing` changes the fight alone. Set by the referee
as one logged command (`set_lasting`), its fact naming what holds now.
"""

from __future__ import annotations

from typing import Any

from furnace.campaign.state import CampaignError, CampaignState
from furnace.campaign.store import Command
from furnace.events import Event, declare
from furnace.play import policies
from furnace.play.frozen import updated
from furnace.play.questions import KINDS
from furnace.play.state import Encounter

# the referee sets the standing answers that last between fights: the `policies` by player (or side, `referee`,
# `*`), the kinds not asked (`quiet`), the `seconds` a question waits in the console (0: no limit)
LASTING = declare("standing_lasting", policies="referee", quiet="public", seconds="public",
                  example={"policies": {"Ann": "dying"}, "quiet": ["sunder"], "seconds": 60})
SIDES = ("party", "monsters", policies.REFEREE, "*")
MAX_SECONDS = 86_400


def started(encounter: Encounter, state: CampaignState) -> Encounter:
    """A fight begun on the campaign: its standing answers and the kinds not asked are the campaign's."""
    if not state.standing and not state.quiet:
        return encounter
    asking = encounter.asking.model_copy(update={"policies": {**state.standing, **encounter.asking.policies},
                                                 "quiet": tuple(state.quiet)})
    return updated(encounter, {"asking": asking})


def quiet_kinds(kinds: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """Kinds of choice (`questions.KINDS`), each once, or the error naming the kinds."""
    for kind in kinds:
        if kind not in KINDS:
            raise CampaignError(f"no kind of choice {kind!r}; the kinds are {', '.join(KINDS)}")
    return tuple(dict.fromkeys(kinds))


def _who(state: CampaignState, who: str) -> str:
    """A player of the roster, a side (party, monsters), `referee` or `*`: whom a lasting policy answers for."""
    players = sorted({m.player for m in state.roster.values() if m.player})
    if who in SIDES or who in players:
        return who
    raise CampaignError(f"no player {who!r} in {state.name!r}: a standing answer is for a player "
                        f"({', '.join(players) or 'none yet'}), a side (party, monsters), referee or * (everyone)")


def set_lasting(answers: dict[str, str] | None = None, quiet: tuple[str, ...] | None = None,
                seconds: int | None = None, *, clear: tuple[str, ...] = ()) -> Command:
    """The referee's standing answers between fights: policies by player (merged over those held; `clear` drops
    some), the kinds not asked (None: as they were), the seconds a question waits (None: as it was)."""
    for name in (answers or {}).values():
        policies.check(name)
    kinds = quiet_kinds(quiet) if quiet is not None else None
    if seconds is not None and (isinstance(seconds, bool) or not 0 <= seconds <= MAX_SECONDS):
        raise CampaignError(f"a question waits 0 (no limit) to {MAX_SECONDS} seconds, not {seconds!r}")

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        named = {_who(state, who): name for who, name in (answers or {}).items()}
        kept = {who: name for who, name in state.standing.items() if who not in clear}
        changes: dict[str, Any] = {"standing": {**kept, **named}}
        if kinds is not None:
            changes["quiet"] = kinds
        if seconds is not None:
            changes["question_seconds"] = seconds
        after = state.model_copy(update=changes)
        return after, [Event(LASTING, "", (), (), told(after))]

    return run


def told(state: CampaignState) -> dict[str, Any]:
    """What holds between fights, as JSON (the fact's values, `campaign show --json`'s)."""
    return {"policies": dict(state.standing), "quiet": list(state.quiet), "seconds": state.question_seconds}


def policy_for(state: CampaignState, player: str, rules: Any) -> str:
    """The policy that answers for `player` out of a fight: hers, the party's, everyone's, the rules' default."""
    for key in (player, "party", "*"):
        if key and key in state.standing:
            return state.standing[key]
    return str(rules["default_policy"])


__all__ = ["LASTING", "policy_for", "quiet_kinds", "set_lasting", "started", "told"]

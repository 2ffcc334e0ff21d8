"""The fight in progress as a campaign keeps it (`CampaignState.encounter`, JSON), read back: the `Fight`, its open
question and that question's time limit.

What `furnace encounter status` reads, apart from what plays a fight (`furnace.campaign.encounters`, whose
commands also import the roster's hand-over, the overrides, the clock's keeping and the aftermath) and from what
answers a question (`furnace.campaign.questions`): both re-export these, so a read of the table loads neither.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from furnace.campaign.state import VALIDATING, CampaignError, CampaignState
from furnace.play import answering
from furnace.play import turns as play
from furnace.play.clock import Scheduled

if TYPE_CHECKING:
    from furnace.campaign.store import Store
    from furnace.play.questions import Question

LOOK_BACK = 5000       # the log rows read back for the fact of the open question (a step tells far fewer)


class Fallen(BaseModel):
    """When and how a combatant died in the fight."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    round: int
    cause: str                                    # the death fact's cause (a code, or a chapter's words)
    facts: tuple[dict[str, Any], ...] = ()        # the facts that tell it: the death, the last blow (no dice)


class Fight(BaseModel):
    """The fight in progress, as `CampaignState.encounter` keeps it (JSON)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    name: str
    turns: play.Turns
    members: dict[str, str]                       # combatant id → roster id
    xp: dict[str, int] = Field(default_factory=dict)   # monster combatant id → its XP (the bestiary's)
    deaths: dict[str, Fallen] = Field(default_factory=dict)
    options: dict[str, Any] = Field(default_factory=dict)   # rule options for this fight only
    began: int = 0                                # campaign clock seconds
    # what lasts, the encounter's while it runs: each member's entries taken off the clock as she entered (by
    # member id, as `play.clock.Scheduled` JSON), and the facts about lasting wounds (a doom's kind, a bone broken)
    suspended: dict[str, list[dict[str, Any]]] = Field(default_factory=dict)
    lasting: list[dict[str, Any]] = Field(default_factory=list)

    def entries(self, mid: str) -> tuple[Scheduled, ...]:
        return tuple(Scheduled.model_validate(e) for e in self.suspended.get(mid, []))

    def facts_about(self, cid: str) -> tuple[dict[str, Any], ...]:
        return tuple(f for f in self.lasting if f.get("actor") == cid)


def current(state: CampaignState) -> Fight:
    """The fight in progress, or a CampaignError saying how to start one."""
    if state.encounter is None:
        raise CampaignError("no encounter is in progress: start one with `furnace encounter start`")
    from pydantic import VERSION

    from furnace.rules.cache import latest_made

    encounter = state.encounter
    try:        # (as the state itself: the fight last validated from the same JSON is read from the cache)
        return latest_made("fight", state.name, lambda: json.dumps(encounter), lambda: Fight.model_validate(encounter),
                           *VALIDATING, version=VERSION)
    except ValidationError as exc:
        raise CampaignError(f"the encounter in progress does not validate: {exc.errors()[0]['msg']}") from None


def open_questions(state: CampaignState) -> list[Question]:
    """The questions the fight in progress waits on (none without a fight)."""
    if state.encounter is None:
        return []
    return answering.open_questions(current(state).turns)


# -- the time limit: a question left waiting falls to the standing answer ---------------------------------------
def asked_at(store: Store, name: str, qid: str) -> datetime | None:
    """When the open question `qid` was asked: the time the log wrote its question fact (the newest of that id, as
    ids begin again with each fight), or None when the log no longer shows it."""
    end = store.count(name)
    since = end
    while since > 0 and end - since < LOOK_BACK:
        since = max(0, since - 200)
        for row in reversed(store.events(name, since=since, limit=200)):
            if row.kind == "question" and row.data.get("id") == qid:
                return datetime.fromisoformat(row.created_at)
    return None


def deadline(store: Store, name: str, state: CampaignState) -> tuple[Question, datetime] | None:
    """The open question and the moment its standing answer decides it (the campaign's `question_seconds` after it
    was asked); None without a limit or an open question."""
    found = open_questions(state)
    if not state.question_seconds or not found:
        return None
    at = asked_at(store, name, found[0].id)
    return (found[0], at + timedelta(seconds=state.question_seconds)) if at is not None else None

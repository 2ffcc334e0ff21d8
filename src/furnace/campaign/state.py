"""A campaign's state: its profile and the referee's overrides, the roster, the clock, the fight in progress.

The state is an immutable value. The store never saves it whole except as a snapshot: a command's events
record which *entities* of it changed, before and after (`entities` splits the state into them: the
campaign's own settings, each override, each member of the roster, the clock, the encounter). Replaying
those changes in order rebuilds the state without rolling a die or running a rule again, so a campaign
replays to the same state even after a rule's code changes, and undoing a command is restoring its
"before" values.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from furnace.characters.character import Character
from furnace.errors import FurnaceError, UnknownNameError
from furnace.play.clock import Campaign as ClockCampaign
from furnace.play.clock import Clock

Status = Literal["alive", "dying", "dead", "retired"]
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.'-]{0,63}$")
OVERRIDE_KINDS = ("table", "option", "archetype", "spell", "item", "monster", "profile")
# the source of a stored state's validation: the campaign's models and all a state holds (characters, the clock, the
# fight with its combatants and the chapters' state on them, the rules' names, the dice): the stamp of the cache of
# the states made (`from_entities`)
VALIDATING = tuple(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), part) for part in (
    "campaign", "characters", "play", "rules", "magic", "hazards", "houserules", "dice", "events.py", "errors.py"))


class CampaignError(FurnaceError):
    """A campaign request that cannot be met: an unknown member, a bad name, a name taken."""


class ConflictError(CampaignError):
    """Another command changed the campaign after this one read it: read it again and retry."""

    http_status = 409


class Death(BaseModel):
    """How and when a character died (the dead stay dead, and the roster remembers)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    cause: str                        # a cause's code (threshold, bled_out …) or the referee's words
    at: int = 0                       # campaign clock seconds
    round: int | None = None          # the round of the fight, if it was one
    encounter: str | None = None
    # the facts that tell it (the death, the last blow), as `furnace.events.Event.to_dict` writes them without dice:
    # `furnace.render.story.campaign.death_words` tells them to each viewer
    facts: tuple[dict[str, Any], ...] = ()


class Member(BaseModel):
    """One character of the roster, past or present, with the player who runs it."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    id: str
    character: Character
    player: str = ""
    status: Status = "alive"
    death: Death | None = None
    joined: int = 0                   # campaign clock seconds


class Override(BaseModel):
    """A referee's data file kept in the campaign: a table, archetype, spell, item or monster by id."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    kind: str
    id: str
    text: str                         # the file as the referee wrote it (YAML), validated when added
    source: str = ""                  # the file name it came from


class CampaignState(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    name: str
    profile: str = "furnace"
    options: dict[str, Any] = Field(default_factory=dict)       # the referee's rule-option overrides
    flags: dict[str, Any] = Field(default_factory=dict)         # hostile place, wilderness … (the clock's)
    session: int = 1
    overrides: dict[str, Override] = Field(default_factory=dict)  # "kind:id" → the referee's file
    roster: dict[str, Member] = Field(default_factory=dict)     # short id → member
    clock: Clock = Field(default_factory=Clock)
    encounter: dict[str, Any] | None = None                     # the fight in progress, as JSON
    table: dict[str, Any] = Field(default_factory=dict)         # the web console's table (campaign.table)
    xp_pool: int = Field(0, ge=0, le=10**9)   # XP a fight's share left over (REF-24), added to the next fight's
    # the standing answers kept between fights (`furnace.campaign.standing`): a policy per player (or side, `referee`,
    # `*`), the kinds of choice the referee does not ask, and the seconds a question waits in the console before
    # her standing answer decides it (0: it waits for her)
    standing: dict[str, str] = Field(default_factory=dict, max_length=200)
    quiet: tuple[str, ...] = Field((), max_length=20)
    question_seconds: int = Field(0, ge=0, le=86_400)

    # -- the roster ---------------------------------------------------------------------------------------
    def member(self, who: str) -> Member:
        """A member by short id, or by name where the name is unique in the campaign."""
        if who in self.roster:
            return self.roster[who]
        named = [m for m in self.roster.values() if m.character.name.lower() == who.strip().lower()]
        if len(named) == 1:
            return named[0]
        if named:
            ids = ", ".join(f"{m.id} ({m.status})" for m in named)
            raise CampaignError(f"{len(named)} characters are named {who!r}: use an id ({ids})")
        raise UnknownNameError("character", who, [m.character.name for m in self.roster.values()])

    def new_id(self, name: str) -> str:
        """A short id unique in the campaign: the name's first letters and a number (ann1, bo2 …)."""
        stem = re.sub(r"[^a-z]", "", name.lower())[:4] or "pc"
        n = 1
        while f"{stem}{n}" in self.roster:
            n += 1
        return f"{stem}{n}"

    def with_member(self, member: Member) -> CampaignState:
        return self.model_copy(update={"roster": {**self.roster, member.id: member}})

    def clock_campaign(self) -> ClockCampaign:
        """What the clock acts on: the living characters by name, the time and the flags."""
        living = {m.character.name: m.character for m in self.roster.values() if m.status != "dead"}
        return ClockCampaign(clock=self.clock, characters=living, flags=self.flags)

    # -- entities: how the store records changes -------------------------------------------------------
    def entities(self) -> dict[str, Any]:
        """The state as JSON values by path; a change to the campaign is a change to some of these."""
        # the name is the campaign row's, not the log's: a renamed or imported campaign keeps its events
        kept = {"profile", "options", "flags", "session", *(("xp_pool",) if self.xp_pool else ()),
                *(("standing",) if self.standing else ()), *(("quiet",) if self.quiet else ()),
                *(("question_seconds",) if self.question_seconds else ())}
        out: dict[str, Any] = {"campaign": self.model_dump(mode="json", include=kept),
                               "clock": self.clock.model_dump(mode="json")}
        if self.encounter is not None:
            out["encounter"] = self.encounter
        if self.table:
            out["table"] = self.table
        out.update({f"override/{k}": v.model_dump(mode="json") for k, v in self.overrides.items()})
        out.update({f"member/{k}": v.model_dump(mode="json") for k, v in self.roster.items()})
        return out

    @classmethod
    def from_entities(cls, entities: dict[str, Any], name: str) -> CampaignState:
        """The state the entities describe, each entity checked in turn: a log or an export that names an
        entity Furnace does not keep, or holds a value of the wrong shape, is refused naming that entity. On the
        command line the state last made of the same entities by the same code is read from the cache
        (`furnace.rules.cache.latest_made`): a read after a write builds no validator."""
        from pydantic import VERSION

        from furnace.rules.cache import latest_made

        return latest_made("state", name, lambda: json.dumps(entities), lambda: cls.checked(entities, name),
                           *VALIDATING, version=VERSION)

    @classmethod
    def checked(cls, entities: dict[str, Any], name: str) -> CampaignState:
        """`from_entities` without the cache: a write's check that what it logs reads back."""
        if not isinstance(entities, dict):
            raise CampaignError("the stored campaign does not validate: its entities are not a mapping")
        for path, value in entities.items():
            check_entity(path, value)
        try:
            campaign = {k: v for k, v in entities["campaign"].items() if k != "name"}
            return cls(name=name, **campaign, clock=entities.get("clock", {}), encounter=entities.get("encounter"),
                       table=entities.get("table") or {},
                       overrides={k.split("/", 1)[1]: v for k, v in entities.items() if k.startswith("override/")},
                       roster={k.split("/", 1)[1]: v for k, v in entities.items() if k.startswith("member/")})
        except KeyError as exc:
            raise CampaignError(f"the stored campaign does not validate: it has no {exc.args[0]!r} entity") from None
        except ValidationError as exc:
            raise CampaignError(f"the stored campaign does not validate: {exc}") from None


CAMPAIGN_FIELDS = frozenset({"name", "profile", "options", "flags", "session", "xp_pool", "standing", "quiet",
                             "question_seconds"})   # the "campaign" entity's


def check_entity(path: Any, value: Any) -> None:
    """One entity of a stored state: a path Furnace writes (`CampaignState.entities`) and a value of its shape."""
    def refuse(reason: str) -> CampaignError:
        return CampaignError(f"the stored campaign does not validate: the entity {str(path)[:80]!r} {reason}")

    kind, _, key = str(path).partition("/")
    if not isinstance(path, str) or (kind in ("member", "override")) != bool(key) or kind not in (
            "campaign", "clock", "encounter", "table", "member", "override"):
        raise refuse("is not one Furnace keeps")
    if not isinstance(value, dict):
        raise refuse(f"holds {type(value).__name__ if value is not None else 'null'}, not a mapping")
    if kind == "campaign" and not set(value) <= CAMPAIGN_FIELDS:
        raise refuse(f"has fields a campaign has not: {', '.join(sorted(map(str, set(value) - CAMPAIGN_FIELDS)))}")


def check_name(name: str) -> str:
    """Campaign names: letters, digits, spaces and . _ ' - ; at most 64 characters."""
    if not isinstance(name, str) or not NAME.match(name):
        raise CampaignError(f"{name!r} is not a campaign name: use letters, digits, spaces, '.', '_', \"'\" or "
                            "'-', at most 64 characters, starting with a letter or digit")
    return name


def changes(before: dict[str, Any], after: dict[str, Any]) -> list[dict[str, Any]]:
    """The entities a command changed: path, value before (None: new), value after (None: removed)."""
    paths = sorted(set(before) | set(after))
    return [{"path": p, "before": before.get(p), "after": after.get(p)} for p in paths
            if _canonical(before.get(p)) != _canonical(after.get(p))]


def apply_changes(entities: dict[str, Any], changed: list[dict[str, Any]], *, undo: bool = False) -> None:
    """Replay recorded changes onto entities in place (their 'before' values when undoing)."""
    for change in changed:
        value = change["before"] if undo else change["after"]
        if value is None:
            entities.pop(change["path"], None)
        else:
            entities[change["path"]] = value


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


canonical = _canonical

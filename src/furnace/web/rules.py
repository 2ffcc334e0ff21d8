"""The referee's panel of the campaign's rules: every option in force with where its value comes from (the
default, the profile, an override file, an option set in the campaign), the profile the rules come from now and
each override; one option set, or a set taken back.

Each route is a few lines over `furnace.campaign.overrides` — what `furnace rules list`, `furnace campaign show`,
`furnace campaign override set` and `override remove set:NAME` run — logged as one command, so `undo` takes it
back. The referee's alone: a campaign's override files can say what the party will meet.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from pydantic import Field

from furnace.campaign import overrides
from furnace.web.api import Body, run, store_of
from furnace.web.auth import Asker

router = APIRouter(prefix="/api")
C = "/campaigns/{campaign}"
OPTION_NAME = r"^[A-Za-z0-9_-]+$"


class OptionBody(Body):
    option: str = Field(min_length=1, max_length=64, pattern=OPTION_NAME)
    value: Annotated[str, Field(max_length=200)] | bool | int   # as `override set NAME=VALUE` reads it: true, 3


@router.get(C + "/rules")
def rules_in_force(campaign: str, request: Request) -> dict[str, Any]:
    """The campaign's effective rules: each option's value, where it comes from, its default and choices; the
    profile they come from now (`began`: the one the campaign began under) and each override."""
    state = store_of(request).open(campaign)
    rules, profile = overrides.campaign_ruleset(state), overrides.profile_in_force(state)
    return {"profile": profile.name, "began": profile.began, "profile_override": profile.key or None,
            "overrides": [{"key": x.key, "kind": x.kind, "id": x.id, "source": x.source,
                           **({"value": x.value} if x.kind == overrides.SET else {})} for x in overrides.listed(state)],
            "options": [{"name": v.spec.name, "value": v.value, "source": v.source, "default": v.spec.default,
                         "title": v.spec.title, "type": v.spec.type, "choices": v.spec.choices,
                         "set": v.spec.name in state.options} for v in rules]}


@router.post(C + "/rules")
def rules_set(campaign: str, body: OptionBody, request: Request, caller: Asker) -> dict[str, Any]:
    """One option set in the campaign (`furnace campaign override set NAME=VALUE`): an unknown option or a value
    it does not take is refused, changing nothing."""
    value = str(body.value).lower() if isinstance(body.value, bool) else str(body.value)
    return run(request, caller, campaign, "override set", overrides.setting_option(f"{body.option}={value}"))


@router.post(C + "/rules/{option}/unset")
def rules_unset(campaign: str, option: str, request: Request, caller: Asker) -> dict[str, Any]:
    """An option set in the campaign taken back (`override remove set:NAME`): the profile's value is in force."""
    return run(request, caller, campaign, "override remove", overrides.removing(f"{overrides.SET}:{option}"))

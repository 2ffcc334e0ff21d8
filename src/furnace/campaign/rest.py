"""Rest on the campaign: the healing model in force, and the time the rest takes on the clock (CF-32, REF-08).

The kind is the healing model's own (`play.rest.rest`): furnace `short`/`long` (F-REST-01/02), hazards
`night`/`full_day`/`week` (H-HEAL-01..06), middle-sea `post_combat`/`hour`/`day` (M-HEAL-01..03). The rules do
not say how long a Furnace rest is (REF-08); the reading here, which the referee can override (`length`):

    short 1 hour · long 8 hours · night 8 hours · full_day 1 day · week 7 days · post_combat no time ·
    hour 1 hour · day 1 day

The clock runs first, with the resters flagged `resting` (a disease's save is then made without the −2 for not
resting, H-DIS-05): what falls due during the rest fires in order. Then each rester still alive heals by the
model at the rest's end. Under the hazards model the place is the campaign's flags (`hostile`, `bed`,
`troubled`: H-HEAL-01/05/07, `hazards.healing.rest_in_campaign`); under every model a rest in a place flagged
hostile (`place`: `furnace place hostile`) recovers nothing when the option hazards_no_rest_in_dungeon is on
(H-HEAL-07, CF-32).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from furnace.campaign.commands import cast_of, put, rules_of
from furnace.campaign.session import chosen
from furnace.campaign.state import CampaignError, CampaignState
from furnace.campaign.store import Command
from furnace.campaign.timekeeping import ClockFn, clock_view, not_in_a_fight, run_clock
from furnace.dice import DiceSource
from furnace.events import Event, declare
from furnace.play.clock import DAY, HOUR, unit_seconds
from furnace.play.clock import Campaign as ClockView
from furnace.play.clock import advance as clock_advance
from furnace.rules.ruleset import Ruleset

REST_LENGTH = {"short": HOUR, "long": 8 * HOUR, "night": 8 * HOUR, "full_day": DAY, "week": 7 * DAY,
               "post_combat": 0, "hour": HOUR, "day": DAY}
MAX_TIMES = 365
# a rest begins: who rests (the targets), the `rest` (the model's kind: long, night …), its length in `seconds` and
# the healing `model`; or one of them `died` before it was over
REST = declare("rest", targets=2, rest="public", seconds="public", model="public", died="public",
               example={"rest": "long", "seconds": 8 * HOUR, "model": "furnace", "died": False})
# the referee says where the party is: a `hostile` place (a dungeon) or not, and whether a rest there recovers
# nothing under the rules in force (`no_recovery`: option hazards_no_rest_in_dungeon, H-HEAL-07)
PLACE = declare("place", hostile="public", no_recovery="public", example={"hostile": True, "no_recovery": True})


def place(hostile: bool) -> Command:
    """The party is in a hostile place (a dungeon, REF-34: the referee's word) or a safe one: the campaign's
    `hostile` flag, which every rest reads (H-HEAL-07)."""

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        rules = rules_of(state)
        flags = {k: v for k, v in state.flags.items() if k != "hostile"} | ({"hostile": True} if hostile else {})
        return state.model_copy(update={"flags": flags}), [
            Event(PLACE, "", (), (), {"hostile": hostile, "no_recovery": hostile and
                                      bool(rules["hazards_no_rest_in_dungeon"])}, ("H-HEAL-07",))]

    return run


def rest_kinds(rules: Ruleset) -> list[str]:
    """The rests of the healing model in force."""
    from furnace.play.rest import HEALING_MODELS

    model = HEALING_MODELS.find(str(rules["healing_model"]))
    if model is None:
        raise CampaignError(f"the {rules['healing_model']} healing model is not available")
    return list(model)


def rest(kind: str, who: Sequence[str], rng: DiceSource, *, party: bool = False, length: int | None = None,
         unit: str = "second", times: int = 1) -> Command:
    """The characters named (or the living party) rest `times` times in a row, each rest `length` units long
    (the model's reading above when not given)."""
    if isinstance(times, bool) or not isinstance(times, int) or not 1 <= times <= MAX_TIMES:
        raise CampaignError(f"rest 1 to {MAX_TIMES} times in a row, not {times!r}")

    def run(state: CampaignState) -> tuple[CampaignState, list[Event]]:
        not_in_a_fight(state, "rest")
        rules = rules_of(state)
        kinds = rest_kinds(rules)
        if kind not in kinds:
            raise CampaignError(f"the {rules['healing_model']} healing model rests by {', '.join(kinds)}, "
                                f"not {kind!r}")
        seconds = REST_LENGTH.get(kind) if length is None else _length(length, unit, rules)
        if seconds is None:
            raise CampaignError(f"how long is a {kind} rest? give its length (REF-08)")
        ids = [m.id for m in chosen(state, who, party)]
        events: list[Event] = []
        for _ in range(times):
            state, new = _rest_once(state, kind, ids, seconds, rng, rules)
            events += new
        return state, events

    return run


def _length(amount: int, unit: str, rules: Ruleset) -> int:
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
        raise CampaignError(f"a rest lasts a whole number of {unit}s from 0, not {amount!r}")
    return amount * unit_seconds(unit, rules)


def _rest_once(state: CampaignState, kind: str, ids: list[str], seconds: int, rng: DiceSource, rules: Ruleset,
               ) -> tuple[CampaignState, list[Event]]:
    resters = [state.roster[i] for i in ids if state.roster[i].status != "dead"]
    names = [m.character.name for m in resters]
    events = [Event(REST, "", tuple(names), (), {"rest": kind, "seconds": seconds, "who": ids,
                                                 "model": rules["healing_model"]}, ("REF-08",), cast_of(resters))]
    state, fired = run_clock(state, _resting(names, seconds, rng), rules)
    events += fired
    for member_id in ids:
        member = state.roster[member_id]
        if member.status == "dead":
            events.append(Event(REST, member.character.name, (), (), {"rest": kind, "died": True}, (),
                                cast_of([member])))
            continue
        after, healed = _heal(state, member.character.name, kind, rng, rules)
        state = put(state, member, after)
        events += healed
    return state, events


def _heal(state: CampaignState, name: str, kind: str, rng: DiceSource, rules: Ruleset) -> tuple[Any, list[Event]]:
    """One character's rest by the model in force; the hazards model reads the place from the campaign's flags,
    and under every model a rest in a hostile place heals nothing when hazards_no_rest_in_dungeon is on (H-HEAL-07,
    CF-32: the Hazards rule layered on the Furnace and Middle Sea rests)."""
    member = next(m for m in state.roster.values() if m.character.name == name and m.status != "dead")
    if rules["hazards_no_rest_in_dungeon"]:       # the Hazards chapter imported only when its rule is on
        from furnace.hazards.healing import in_hostile_place, no_recovery

        if in_hostile_place(state.flags, name):
            return no_recovery(member.character, kind, rng, rules)
    if rules["healing_model"] == "hazards":
        from furnace.hazards.healing import rest_in_campaign

        view, _ = clock_view(state)
        after, events = rest_in_campaign(view, name, kind, rng, rules)
        return after.characters[name], events
    from furnace.play.rest import rest as model_rest

    return model_rest(member.character, kind, rng, rules)


def _resting(names: list[str], seconds: int, rng: DiceSource) -> ClockFn:
    """The clock moves on while they rest: the `resting` flag names them, and is put back as it was after."""

    def fn(view: ClockView, rules: Ruleset) -> tuple[ClockView, list[Event]]:
        had = "resting" in view.flags
        before = view.flags.get("resting")
        flag: Any = True if before is True else sorted({*(before if isinstance(before, list) else []), *names})
        after, events = clock_advance(view.model_copy(update={"flags": {**view.flags, "resting": flag}}), seconds,
                                      "second", rng, rules)
        flags = {k: v for k, v in after.flags.items() if k != "resting"}
        if had:
            flags["resting"] = before
        return after.model_copy(update={"flags": flags}), events

    return fn

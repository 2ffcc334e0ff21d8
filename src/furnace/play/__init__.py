"""The engine: checks, luck, skills, encounters (attacks, crits, fumbles, conditions, death), rests and the
clock, with the registries through which the chapters (magic, hazards, house rules) plug in their actions,
modifiers, death and healing models, fight hooks and clock handlers. The engine imports no chapter.

Start a fight with `fightfile.build` (or `Encounter(...)` of `Combatant`s), then `run_round`, `run_fight`
or `take_turn(enc, who, Action("attack", target), rng, rules)`; each returns the next immutable `Encounter`
and the events that explain it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from furnace._exports import lazy

if TYPE_CHECKING:
    from furnace.play.aftermath import settle
    from furnace.play.checks import CheckResult, Modifier, check, make_dc
    from furnace.play.clock import Campaign, Clock, Scheduled, advance, cancel, handler, remaining, reschedule, schedule
    from furnace.play.combatant import Combatant, from_character, monster
    from furnace.play.contests import contested
    from furnace.play.death import death_threshold, take_damage
    from furnace.play.effort import SkillChallenge
    from furnace.play.encounter import (
        Action,
        Tactic,
        act,
        run_fight,
        run_round,
        tactic_attack_nearest,
        take_turn,
    )
    from furnace.play.fightfile import FightFile, build, load_fight
    from furnace.play.injuries import roll_injury, stabilise
    from furnace.play.luck import LuckState, record, spend
    from furnace.play.reaction import enemy_morale, pc_morale
    from furnace.play.recorded import replay
    from furnace.play.registry import Registry, StateModifier, load_chapters
    from furnace.play.rest import long_rest, short_rest
    from furnace.play.skills import skill_check, stunt
    from furnace.play.state import Encounter, Step
    from furnace.play.timers import Timer
    from furnace.play.turns import Turns, due, legal_actions, take

_EXPORTS = {
    "settle": "aftermath",
    "Turns": "turns",
    "due": "turns",
    "legal_actions": "turns",
    "take": "turns",
    "Modifier": "checks",
    "CheckResult": "checks",
    "check": "checks",
    "make_dc": "checks",
    "contested": "contests",
    "SkillChallenge": "effort",
    "Timer": "timers",
    "enemy_morale": "reaction",
    "pc_morale": "reaction",
    "skill_check": "skills",
    "stunt": "skills",
    "LuckState": "luck",
    "spend": "luck",
    "record": "luck",
    "Combatant": "combatant",
    "from_character": "combatant",
    "monster": "combatant",
    "Encounter": "state",
    "Step": "state",
    "Action": "encounter",
    "Tactic": "encounter",
    "run_round": "encounter",
    "run_fight": "encounter",
    "take_turn": "encounter",
    "act": "encounter",
    "tactic_attack_nearest": "encounter",
    "replay": "recorded",
    "FightFile": "fightfile",
    "load_fight": "fightfile",
    "build": "fightfile",
    "take_damage": "death",
    "death_threshold": "death",
    "stabilise": "injuries",
    "roll_injury": "injuries",
    "short_rest": "rest",
    "long_rest": "rest",
    "Campaign": "clock",
    "Clock": "clock",
    "Scheduled": "clock",
    "advance": "clock",
    "schedule": "clock",
    "cancel": "clock",
    "reschedule": "clock",
    "remaining": "clock",
    "handler": "clock",
    "Registry": "registry",
    "StateModifier": "registry",
    "load_chapters": "registry",
}
__all__ = [
    "Action",
    "Campaign",
    "CheckResult",
    "Clock",
    "Combatant",
    "Encounter",
    "FightFile",
    "LuckState",
    "Modifier",
    "Registry",
    "Scheduled",
    "SkillChallenge",
    "StateModifier",
    "Step",
    "Tactic",
    "Timer",
    "Turns",
    "act",
    "advance",
    "build",
    "cancel",
    "check",
    "contested",
    "death_threshold",
    "due",
    "enemy_morale",
    "from_character",
    "handler",
    "legal_actions",
    "load_chapters",
    "load_fight",
    "long_rest",
    "make_dc",
    "monster",
    "pc_morale",
    "record",
    "remaining",
    "replay",
    "reschedule",
    "roll_injury",
    "run_fight",
    "run_round",
    "schedule",
    "settle",
    "short_rest",
    "skill_check",
    "spend",
    "stabilise",
    "stunt",
    "tactic_attack_nearest",
    "take",
    "take_damage",
    "take_turn",
]
__getattr__, __dir__ = lazy(__name__, _EXPORTS)

"""Turn by turn: whose turn it is, what she may do now and why not, and one action at a time.

`encounter.run_round` plays every combatant's turn in one go. At a table the players choose: `start` opens
round 1 (initiative, F-INIT-01/02) and stops at the first combatant due; `due` names her; `legal_actions`
lists what she may do now, each refused action with its reason; `take` carries out one chosen action and
moves on to the next combatant who can act — expiring conditions, rolling a dying character's d20, closing
the phase and the round (morale, the next round's initiative) on the way. `run_tactic` plays the tactic for
those nobody chooses for (the monsters) until a player character is due.

The order is `run_round`'s, built on the same functions: the same dice and the same choices give the same
fight (tests/play/test_turns.py plays a whole fight with the tactic and compares it with `run_fight`).
Actions chosen through `take` are checked first (`refusal`); the tactic's own actions are not, as in the
automatic fight.

Reach (F-BASE-05, AMB-58; zones are where each combatant stands): a melee blow needs the attacker and the
target CLOSE; "go NEAR and ATK" (`move_attack`) reaches a foe CLOSE or NEAR, from CLOSE or NEAR; a missile
reaches anyone not FAR. Stabilising (AMB-28) reaches a dying ally CLOSE or NEAR. Moving (going NEAR to
attack, going RANGED, disengaging) needs legs that move this turn (not PRONE, CANT_MOVE, nor just stood up,
AMB-20). A chapter's action ("cast", from magic) is tried on a scratch copy of the fight: whatever it
refuses (an unknown spell, a depleted caster, a barred target) is refused here with its reason.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field

from furnace import dice
from furnace.dice import DiceSource
from furnace.errors import FurnaceError, IllegalActionError
from furnace.events import Event, declare
from furnace.play import conditions as cond
from furnace.play import registry
from furnace.play.combatant import Combatant
from furnace.play.encounter import ENGINE_ACTIONS as ENGINE_ACTIONS
from furnace.play.encounter import (
    ROUND,
    Action,
    Tactic,
    _act_even_if_fallen,
    _actors,
    _casters,
    _finish,
    _morale,
    acting_last,
    chapter_action,
    chapter_actions,
    finish_if_won,
    roll_initiative,
    round_phases,
    start_turn,
    tactic_attack_nearest,
)
from furnace.play.state import Encounter, Step
from furnace.rules.ruleset import Ruleset

__all__ = ["ENGINE_ACTIONS", "VERBS", "Choice", "Turns", "action_for", "after_edit", "delay", "due", "joined",
           "legal_actions", "refusal", "run_tactic", "start", "take", "without"]

TARGETED = frozenset({"attack", "move_attack", "stabilise"})
VERBS = ("attack", "cast", "use", "stabilise", "dodge", "move", "disengage", "wait", "free")   # as a table says them
REACH = ("CLOSE", "NEAR")
MAX_TURNS = 10_000        # `run_tactic` stops here: a fight nobody can end is not played forever


class Turns(BaseModel):
    """A fight played turn by turn: the encounter, the phase of the round, its actors and whose turn it is."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    encounter: Encounter
    phase: int = 0                                  # index into encounter.phases
    order: tuple[str, ...] = ()                     # the phase's actors, in turn order (fixed as it begins)
    turn: int = 0                                   # order[turn] is due, her turn begun (start_turn done)
    casting: tuple[str, ...] = ()                   # F-INIT-02: who declared a spell this round
    killed_by: dict[str, int] = Field(default_factory=dict)   # slain this phase → the killer's ATK total
    begun: tuple[str, ...] = ()                     # who delayed her turn this phase: it has begun already

    @property
    def together(self) -> bool:
        """A phase whose actors strike together (a tied initiative, or simultaneous): the slain still strike."""
        phases = round_phases(self.encounter)
        if not 0 <= self.phase < len(phases):
            return False
        phase = phases[self.phase]
        return len(phase) > 1 or phase in (("ranged",), ("melee",))


@dataclass(frozen=True)
class Choice:
    """One action of the menu for one combatant now: whom and with what she may take it, or why not."""

    kind: str
    targets: tuple[str, ...] = ()     # the combatants she may take it against (ids), if it needs one
    details: tuple[str, ...] = ()     # what it may use (the spells she may cast now)
    reason: str | None = None         # why she may not; None: she may

    @property
    def legal(self) -> bool:
        return self.reason is None

    def explain(self) -> str:
        if self.reason is not None:
            return f"{self.kind}: no — {self.reason}"
        extra = [f"at {', '.join(self.targets)}"] if self.targets else []
        extra += [f"with {', '.join(self.details)}"] if self.details else []
        return f"{self.kind}: yes" + (f" ({'; '.join(extra)})" if extra else "")


# -- the turn pointer ------------------------------------------------------------------------------------------
def start(encounter: Encounter, rng: DiceSource, rules: Ruleset, choose: Tactic = tactic_attack_nearest,
          ) -> tuple[Turns, list[Event]]:
    """Open the next round (round 1: initiative) and stop at the first combatant due."""
    if encounter.over:
        raise IllegalActionError("the fight is over")
    step = Step(encounter, rng, rules)
    casting = _new_round(step, choose)
    phases = round_phases(step.enc)
    order = tuple(_actors(step.enc, phases[0], frozenset(casting))) if phases else ()
    turns = Turns(encounter=step.enc, order=order, casting=casting)
    return _advance(step, turns, choose, first=True), step.events


def due(turns: Turns) -> Combatant | None:
    """The combatant whose turn it is (her turn begun: conditions expired, dying d20 rolled); None when over."""
    if turns.encounter.over or turns.turn >= len(turns.order):
        return None
    return turns.encounter.get(turns.order[turns.turn])


def take(turns: Turns, who: str, action: Action, rng: DiceSource, rules: Ruleset,
         choose: Tactic = tactic_attack_nearest) -> tuple[Turns, list[Event]]:
    """`who` takes `action` on her turn, then the fight moves on to the next combatant who can act.
    An action she may not take raises IllegalActionError with the reason, and nothing changes."""
    why = refusal(turns, who, action, rules)
    if why is not None:
        raise IllegalActionError(why)
    return _play(turns, who, action, rng, rules, choose)


def run_tactic(turns: Turns, rng: DiceSource, rules: Ruleset, *, until: Callable[[Combatant], bool] | None = None,
               choose: Tactic = tactic_attack_nearest) -> tuple[Turns, list[Event]]:
    """Play the tactic's action for each combatant due until `until(combatant)` (default: a player character
    is due) or the fight ends."""
    stop = until or (lambda c: c.kind == "pc")
    events: list[Event] = []
    for _ in range(MAX_TURNS):
        c = due(turns)
        if c is None or stop(c):
            break
        turns, new = _play(turns, c.id, choose(turns.encounter, c), rng, rules, choose)
        events += new
    return turns, events


def _play(turns: Turns, who: str, action: Action, rng: DiceSource, rules: Ruleset, choose: Tactic,
          ) -> tuple[Turns, list[Event]]:
    step = Step(turns.encounter, rng, rules, killed_by=dict(turns.killed_by))
    _act_even_if_fallen(step, who, action)
    return _advance(step, turns, choose), step.events


def _new_round(step: Step, choose: Tactic) -> tuple[str, ...]:
    """As `run_round` opens a round: its number, initiative (round 1, or every round per option), casters."""
    initiative = step.enc.initiative
    step.enc = step.enc.model_copy(update={"round": step.enc.round + 1})
    step.fact(ROUND, "")
    if step.enc.round == 1 or (step.rules["reroll_initiative_each_turn"] and initiative == "group"):
        roll_initiative(step)
    acting_last(step)
    return tuple(sorted(_casters(step.enc, choose)))


def _begins(step: Step, cid: str, together: bool, begun: tuple[str, ...] = ()) -> bool:
    """`run_round`'s test of a turn: the surprised lose round 1; the fallen are skipped (unless slain this
    phase in a phase that strikes together); then the turn begins, and says whether she may act. A turn delayed
    (`begun`) began already: its conditions are not expired nor its dying d20 rolled twice."""
    if step.enc.round == 1 and step.c(cid).side in step.enc.surprised:
        return False
    slain = together and step.c(cid).status == "dead" and cid in step.killed_by
    if not slain and not step.c(cid).in_fight:
        return False
    if cid in begun:
        c = step.c(cid)
        return c.active and (not c.held or cond.can_act(c.held))
    return start_turn(step, cid) or (together and cid in step.killed_by)


def _advance(step: Step, turns: Turns, choose: Tactic, *, first: bool = False) -> Turns:
    """Move the pointer to the next combatant who can act, closing phases and rounds on the way."""
    phase, order, casting, begun = turns.phase, turns.order, turns.casting, turns.begun
    turn = turns.turn if first else turns.turn + 1
    for _ in range(MAX_TURNS):
        at = turns.model_copy(update={"encounter": step.enc, "phase": phase, "order": order, "casting": casting,
                                      "begun": begun})
        finish_if_won(step, at.together)
        if step.enc.over:
            return at.model_copy(update={"encounter": step.enc, "order": (), "turn": 0, "killed_by": {},
                                         "begun": ()})
        while turn < len(order):
            if _begins(step, order[turn], at.together, begun):
                return at.model_copy(update={"encounter": step.enc, "turn": turn, "killed_by": dict(step.killed_by)})
            turn += 1
        _finish(step)
        step.killed_by.clear()
        if not step.enc.over and phase + 1 >= len(round_phases(step.enc)):
            _morale(step)
            _finish(step)
            if not step.enc.over:
                casting, phase = _new_round(step, choose), -1
        if step.enc.over:
            return at.model_copy(update={"encounter": step.enc, "order": (), "turn": 0, "killed_by": {}})
        phase, turn, begun = phase + 1, 0, ()
        order = tuple(_actors(step.enc, round_phases(step.enc)[phase], frozenset(casting)))
    raise IllegalActionError(f"no one could act in {MAX_TURNS} turns; end the fight")


# -- the referee's edits to a fight in progress ------------------------------------------------------------------
DELAY = declare("delay", example={})


def after_edit(turns: Turns, step: Step, choose: Tactic = tactic_attack_nearest) -> Turns:
    """The fight after the referee changed it on `step` (HP, a condition, damage or healing out of turn): over if
    one side is left standing; moved on to the next combatant if the one due can no longer act."""
    at = turns.model_copy(update={"encounter": step.enc})
    if step.enc.over:
        return at
    finish_if_won(step, False)
    if step.enc.over:
        return at.model_copy(update={"encounter": step.enc, "order": (), "turn": 0, "killed_by": {}, "begun": ()})
    c = due(at)
    if c is not None and not (c.active and (not c.held or cond.can_act(c.held))):
        return _advance(step, at, choose)
    return at.model_copy(update={"encounter": step.enc})


def delay(turns: Turns, who: str, rng: DiceSource, rules: Ruleset, choose: Tactic = tactic_attack_nearest,
          ) -> tuple[Turns, list[Event]]:
    """The combatant due waits until the others of her phase have acted: her turn goes to the end of the phase's
    order (it has begun: nothing of its start is done twice), and the next one's turn begins."""
    c = due(turns)
    if c is None or c.id != who:
        raise IllegalActionError(f"only the combatant due may delay her turn: {c.name if c else 'no one'} is due")
    if turns.turn + 1 >= len(turns.order):
        raise IllegalActionError(f"{c.name} is the last to act in this phase: there is no one to wait for")
    order = (*turns.order[:turns.turn], *turns.order[turns.turn + 1:], who)
    step = Step(turns.encounter, rng, rules, killed_by=dict(turns.killed_by))
    step.fact(DELAY, who)
    moved = turns.model_copy(update={"order": order, "begun": (*turns.begun, who)})
    return _advance(step, moved, choose, first=True), step.events


def without(turns: Turns, cid: str, rng: DiceSource, rules: Ruleset, choose: Tactic = tactic_attack_nearest,
            ) -> tuple[Turns, list[Event]]:
    """The fight without this combatant (she leaves it): out of the order, and if she was due the next one's turn
    begins; the fight is over if one side is left standing."""
    was = due(turns)
    enc = turns.encounter
    enc = enc.model_copy(update={"combatants": tuple(c for c in enc.combatants if c.id != cid),
                                 "last": tuple(x for x in enc.last if x != cid)})
    turn = turns.turn - (1 if cid in turns.order[:turns.turn] else 0)
    moved = turns.model_copy(update={"encounter": enc, "order": tuple(x for x in turns.order if x != cid),
                                     "turn": turn, "begun": tuple(x for x in turns.begun if x != cid),
                                     "killed_by": {k: v for k, v in turns.killed_by.items() if k != cid}})
    step = Step(enc, rng, rules, killed_by=dict(moved.killed_by))
    if was is not None and was.id == cid:
        return _advance(step, moved, choose, first=True), step.events
    return after_edit(moved, step, choose), step.events


def joined(turns: Turns, combatant: Combatant) -> Turns:
    """The fight with one more combatant: she acts from her side's next phase."""
    enc = turns.encounter
    return turns.model_copy(update={"encounter": enc.model_copy(update={"combatants": (*enc.combatants, combatant)})})


# -- what she may do -------------------------------------------------------------------------------------------
def action_for(turns: Turns, who: str, verb: str, target: str | None, rules: Ruleset, *, spell: str | None = None,
               note: str = "", item: str | None = None, bloodmagic: bool = False) -> Action:
    """The engine's action for a verb as the table says it (VERBS): `attack FOE` strikes where she stands, or
    goes NEAR first when she must (as the tactic does); `move FOE` goes NEAR and attacks; `move RANGED` goes
    RANGED; `cast TARGET` with a spell; `use [TARGET]` a magic item's power; `stabilise ALLY`; `dodge`,
    `disengage`, `wait`; `free` with a note for the referee. A Rogue's blow at a surprised foe in round 1 is a
    Sneak Attack (F-ROG-04); `bloodmagic` spends the Bloodshaman's HP on the blow (F-ARCH-03). `take` checks it."""
    verb = {"stabilize": "stabilise", "lay": "lay_on_hands"}.get(verb.lower(), verb.lower())
    if verb not in VERBS and chapter_action(verb):     # a chapter's own action by name: `lay` ALLY
        return Action(verb, target or who, detail=note or None)
    if verb in ("attack", "move") and target is not None and target.upper() not in ("RANGED",):
        enc = turns.encounter
        sneak = enc.round == 1 and "Sneak Attack" in enc.get(who).features and any(
            c.id == target and c.side in enc.surprised for c in enc.combatants)
        blood = "bloodmagic" if bloodmagic else None
        plain = Action("attack", target, sneak=sneak, detail=blood)
        if verb == "attack" and refusal(turns, who, plain, rules) is None:
            return plain
        return Action("move_attack", target, sneak=sneak, detail=blood)
    if verb == "move":
        if target is None:
            raise IllegalActionError("move takes a foe (go NEAR and attack it) or RANGED")
        return Action("go_ranged")
    if verb == "cast":
        return Action("cast", target, detail=spell)
    if verb == "use":
        return Action("use", target or who, detail=item)
    if verb == "free":
        return Action("free", note=note or "a free-form action")
    if verb in ("stabilise", "dodge", "disengage", "wait", "attack"):
        return Action(verb, target)
    raise IllegalActionError(f"unknown action {verb!r}; the actions are {', '.join(VERBS)}")


def refusal(turns: Turns, who: str, action: Action, rules: Ruleset) -> str | None:
    """Why `who` may not take `action` now (not her turn, a target out of reach, a condition, what a chapter
    refuses), or None when she may."""
    enc = turns.encounter
    if enc.over:
        return f"the fight is over: {enc.winner or 'no one'} stands"
    try:
        c = enc.get(who)
    except IllegalActionError as exc:
        return str(exc)
    now = due(turns)
    if now is None or now.id != c.id:
        return f"it is not {c.name}'s turn: {now.name if now else 'no one'} is due (round {enc.round})"
    if not c.active and action.kind not in ("attack", "move_attack"):
        return f"{c.name} falls this phase: only the blow she struck as she fell may land (F-INIT-02)"
    if action.kind in TARGETED or chapter_action(action.kind):
        found = _target(enc, c, action)
        if isinstance(found, str):
            return found
    rule = _RULES.get(action.kind)
    if rule is not None:
        return rule(enc, c, action)
    if chapter_action(action.kind):
        return _dry_run(turns, c, action, rules)
    known = [*ENGINE_ACTIONS, *(name for name, _ in chapter_actions())]
    return f"unknown action {action.kind!r}; the actions are {', '.join(known)}"


def legal_actions(turns: Turns, who: str, rules: Ruleset) -> list[Choice]:
    """Every action of the menu for `who` now: legal ones with their targets (and spells), the others with the
    reason (the first target's, when no target will do)."""
    enc = turns.encounter
    c = enc.get(who)
    out: list[Choice] = []
    for kind in [*ENGINE_ACTIONS, *(name for name, _ in chapter_actions())]:
        chapter = chapter_action(kind)
        if kind not in TARGETED and not chapter:
            out.append(Choice(kind, reason=refusal(turns, who, Action(kind), rules)))
            continue
        if chapter and not registry.ACTIONS.get(kind).details(c):
            out.append(Choice(kind, reason=f"{c.name} has nothing to {kind}"))
            continue
        details: Sequence[str | None] = registry.ACTIONS.get(kind).details(c) if chapter else (None,)
        reasons: list[str] = []
        targets: list[str] = []
        usable: list[str] = []
        for detail in details:
            for o in _candidates(enc, c, kind):
                why = refusal(turns, who, Action(kind, o.id, detail=detail), rules)
                if why is None:
                    targets += [o.id] if o.id not in targets else []
                    usable += [detail] if detail and detail not in usable else []
                else:
                    reasons.append(why)
        if targets:
            out.append(Choice(kind, tuple(targets), tuple(usable)))
        else:
            out.append(Choice(kind, reason=reasons[0] if reasons else _no_target(kind)))
    return out


def _candidates(enc: Encounter, c: Combatant, kind: str) -> list[Combatant]:
    if kind == "stabilise":
        return [o for o in enc.combatants if o.side == c.side and o.id != c.id and o.status == "dying"]
    if kind in ("attack", "move_attack"):
        return [o for o in enc.combatants if o.side != c.side and o.in_fight]
    return [o for o in enc.combatants if o.in_fight]


def _no_target(kind: str) -> str:
    return "no ally of hers is dying" if kind == "stabilise" else "no one in the fight to aim it at"


def _target(enc: Encounter, c: Combatant, action: Action) -> Combatant | str:
    if action.target is None:
        return f"{_name(action.kind)} needs a target"
    try:
        t = enc.get(action.target)
    except IllegalActionError as exc:
        return str(exc)
    if action.kind in ("attack", "move_attack"):
        if t.side == c.side:
            return f"{t.name} is on {c.name}'s side"
        if not t.in_fight:
            return f"{t.name} is {t.status}: out of the fight"
    elif chapter_action(action.kind) and not t.in_fight:
        return f"{t.name} is {t.status}: out of the fight"
    return t


def _name(kind: str) -> str:
    return {"move_attack": "going NEAR to attack", "go_ranged": "going RANGED"}.get(kind, kind)


def _blocked(c: Combatant, what: frozenset[str]) -> str:
    return ", ".join(sorted(cond.names(c.held) & what))


def _cannot_move(c: Combatant) -> str | None:
    if not cond.can_move(c.held):
        return f"{c.name} cannot move this turn ({_blocked(c, cond.NO_MOVE)})"
    if "_stood_up" in c.features:
        return f"{c.name} stood up this turn: that was her movement (AMB-20)"
    return None


def _attack(enc: Encounter, c: Combatant, action: Action) -> str | None:
    t = enc.get(str(action.target))
    if not cond.can_attack(c.held):
        return f"{c.name} cannot attack this turn ({_blocked(c, cond.NO_ATTACK)})"
    if c.ranged:
        if "FAR" in (c.zone, t.zone):
            far = c if c.zone == "FAR" else t
            return f"{t.name} is out of reach: {far.name} is FAR, beyond a missile's range (F-BASE-05)"
        return None
    if action.kind == "attack" and not (c.zone == "CLOSE" and t.zone == "CLOSE"):
        return (f"{t.name} is out of reach: {c.name} is {c.zone} and {t.name} {t.zone}; a melee blow needs both "
                "CLOSE — go NEAR and attack (move_attack) instead (F-BASE-05)")
    if action.kind == "move_attack":
        if t.zone not in REACH:
            return (f"{t.name} is {t.zone}: out of reach this turn (a foe CLOSE or NEAR can be reached and "
                    "attacked in one turn, F-BASE-05)")
        if c.zone != "CLOSE":
            if c.zone not in REACH:
                return f"{c.name} is {c.zone}: too far to reach a foe and attack in one turn (F-BASE-05)"
            return _cannot_move(c)
    return None


def _stabilise(enc: Encounter, c: Combatant, action: Action) -> str | None:
    t = enc.get(str(action.target))
    if t.side != c.side or t.id == c.id:
        return f"{c.name} stabilises an ally, and {t.name} is not one"
    if t.status != "dying":
        return f"{t.name} is not dying ({t.status}, HP {t.hp})"
    if c.zone not in REACH or t.zone not in REACH:
        return (f"{t.name} is out of reach: {c.name} is {c.zone} and {t.name} {t.zone} (stabilising needs the "
                "dying ally within reach, CLOSE or NEAR: AMB-28, F-BASE-05)")
    return None


def _go_ranged(enc: Encounter, c: Combatant, action: Action) -> str | None:
    if c.zone == "RANGED":
        return f"{c.name} is RANGED already"
    return _cannot_move(c)


def _disengage(enc: Encounter, c: Combatant, action: Action) -> str | None:
    if c.zone != "CLOSE":
        return f"{c.name} is {c.zone}, not CLOSE: there is nothing to disengage from (F-CMBT-03)"
    return _cannot_move(c)


def _always(enc: Encounter, c: Combatant, action: Action) -> str | None:
    return None


_RULES: dict[str, Callable[[Encounter, Combatant, Action], str | None]] = {
    "attack": _attack, "move_attack": _attack, "stabilise": _stabilise, "go_ranged": _go_ranged,
    "disengage": _disengage, "dodge": _always, "wait": _always, "free": _always}


def _dry_run(turns: Turns, c: Combatant, action: Action, rules: Ruleset) -> str | None:
    """A chapter's action tried on a scratch copy of the fight with scratch dice: what it refuses (magic: an
    unknown spell, one she does not know, a depleted caster, a barred target), or None."""
    step = Step(turns.encounter, dice.seeded(0), rules, killed_by=dict(turns.killed_by))
    try:
        registry.ACTIONS.get(action.kind).run(step, c.id, str(action.target), action.detail)
    except FurnaceError as exc:
        return str(exc)
    return None

"""The encounter engine: initiative, turns, one action each, the log; the attacks are `furnace.play.attacks`.

Every public function takes an immutable `Encounter` and a dice source and returns the next
`Encounter` with the events that explain it, so a fight replays exactly from its seed and actions.
F-INIT-01/02 (group or simultaneous per the fight file, else the option initiative_model; reroll_initiative_
each_turn; simultaneous_attack_ties, AMB-49), F-SURP-01, F-CMBT-01…03 (opportunity_attacks and free_disengage,
AMB-60; a maimed foot moves only NEAR, F-TAB-38 4–5), F-DEATH-01 (dying_nat20_injury_roll, AMB-31).

Each action is a rule in `registry.ACTIONS`: the engine's own (`EngineAction`, registered below) beside the
chapters' (magic's "cast"); `act` looks the action's kind up there and runs it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from furnace.dice import DiceSource
from furnace.errors import IllegalActionError
from furnace.events import Event, declare
from furnace.play import conditions as cond
from furnace.play import registry
from furnace.play.apply import apply_periodic
from furnace.play.attacks import attack, bloodmagic, more_attacks, nearest_enemy, rage, rally
from furnace.play.attacks import extra_attacks as _extra_attacks
from furnace.play.combatant import FIGHTING, ZONES, Combatant
from furnace.play.death import dying_turn, kill
from furnace.play.injuries import roll_injury, stabilise
from furnace.play.kept import Kept
from furnace.play.state import Encounter, Step
from furnace.rules.ruleset import Ruleset

# the facts of a round and a turn, and who may know each value (furnace.events.declare)
ROUND = declare("round", example={"round": 1})
INITIATIVE = declare("initiative", simultaneous="public", phases="public",
                     example={"phases": [["party"], ["monsters"]], "simultaneous": False})
ACTS_LAST = declare("acts_last", targets=1)
END = declare("end", winner="public", example={"winner": "party"})
EXPIRE = declare("expire", conditions="public", example={"conditions": ["PRONE"]})
STAND = declare("stand")
WAIT = declare("wait", why="public", example={"why": "cannot_move"})
DODGE = declare("dodge")
DISENGAGE = declare("disengage")
FREE_ACTION = declare("free_action", note="actor", example={"note": "swings from the chandelier"})
MOVE = declare("move", targets=1, zone="public", maimed="public", attacks="public",
               example={"zone": "CLOSE", "maimed": False, "attacks": True})
OPPORTUNITY = declare("opportunity", targets=1)
MORALE = declare("morale", side="public", total="referee", morale="referee", breaks="public", outcome="public",
                 example={"side": "monsters", "breaks": True, "outcome": "flee"})
LOST_BLOW = declare("lost", total="actor", killer="public")

# the engine's own actions (each registered in registry.ACTIONS, below, as a chapter registers hers: magic's "cast")
ActionKind = Literal["attack", "move_attack", "dodge", "disengage", "go_ranged", "stabilise", "wait", "free"]


@dataclass(frozen=True)
class Action:
    """One action a turn (F-CMBT-01): what, and at whom."""

    kind: ActionKind | str
    target: str | None = None
    note: str = ""
    sneak: bool = False
    detail: str | None = None   # what a chapter's action needs: the spell's name for "cast"


# -- turns and rounds -----------------------------------------------------------------------------------
Tactic = Callable[[Encounter, Combatant], Action]   # who acts how, when no one chooses for them


def tactic_attack_nearest(enc: Encounter, c: Combatant) -> Action:
    """The simple tactic: attack the nearest enemy, closing in first if need be."""
    target = nearest_enemy(enc, c)
    if target is None:
        return Action("wait")
    for kind, rule in chapter_actions():   # a chapter's action first: a caster casts
        detail = rule.tactic(enc, c, target)
        if detail is not None:
            return Action(kind, target, detail=detail)
    return _attack(c, target, enc.round == 1 and enc.get(target).side in enc.surprised)


def _attack(c: Combatant, target: str, unaware: bool) -> Action:
    # F-ROG-04: a foe caught by surprise is unaware in the first round: a Rogue's blow is a Sneak Attack
    sneak = unaware and "Sneak Attack" in c.features
    return _ATTACKS["attack" if c.ranged or c.zone == "CLOSE" else "move_attack", target, sneak]


# the attack actions made before, by kind, target and sneak: a value, so one serves every turn that takes it (a
# fight chooses an action at every turn, and making a frozen dataclass costs more than finding one): the last 4096
_ATTACKS: Kept[tuple[str, str, bool], Action] = Kept(lambda key: Action(key[0], key[1], sneak=key[2]), 4096)


def _choose(step: Step, cid: str, choose: Tactic) -> Action:
    """The tactic's action for her. The simple tactic reads the working state as it is now (the nearest foe
    from its Standing), and freezes it only for a chapter's action she could take (a spell she knows): the
    same action `tactic_attack_nearest(step.enc, c)` chooses, without an Encounter made for every turn."""
    if choose is not tactic_attack_nearest:
        enc = step.enc
        return choose(enc, step.c(cid))
    c = step.c(cid)
    target = step.standing().nearest(c.side)
    if target is None:
        return Action("wait")
    for kind, rule in _hers(step, c):     # a chapter's action first: a caster casts
        detail = rule.tactic(step.enc, c, target)
        if detail is not None:
            return Action(kind, target, detail=detail)
    return _attack(c, target, step.round == 1 and step.c(target).side in step.frame.surprised)


def _hers(step: Step, c: Combatant) -> tuple[tuple[str, registry.ActionRule], ...]:
    """The chapters' actions she has something to take with (`details`: an action she has nothing to take it with
    is not hers), worked out once for each kit (`details` reads nothing else: `combatant.KIT`) and kept from fight
    to fight (a simulation's party carries the same kit into every fight)."""
    actions = step.memo.get(chapter_actions)       # (the registry's entries compared once a step, not a turn)
    if actions is None:
        actions = step.memo[chapter_actions] = chapter_actions()
    features, chapters = c.features, c.chapters
    kit = (id(features), id(chapters))
    try:
        known = _KITS[kit]
    except KeyError:           # (a subscript, not `_KITS.get`: see `_attack`)
        known = None
    if known is None or known[0] is not features or known[1] is not chapters or known[2] is not actions:
        if len(_KITS) >= KITS_KEPT:
            _KITS.clear()
        found = tuple((kind, rule) for kind, rule in actions if rule.details(c))
        known = _KITS[kit] = (features, chapters, actions, found)
    hers: tuple[tuple[str, registry.ActionRule], ...] = known[3]
    return hers


# each kit's chapters' actions (`_hers`), by the identity of its features and chapters, each entry holding them (so
# that no other takes their ids while it is kept) and the actions it was asked of: the last KITS_KEPT
_KITS: dict[tuple[int, int], tuple[Any, ...]] = {}
KITS_KEPT = 1024


def start_turn(step: Step, cid: str) -> bool:
    """Conditions expire at the start of their holder's turn; the dying roll their d20. True: may act."""
    c = step.c(cid)
    if not c.held and c.doomed_round is None and c.status == "up":
        return True           # (nothing to expire, no timer running, not dying: most turns)
    if c.held:
        c = _conditions_at_turn_start(step, c)
    if c.doomed_round is not None and c.doomed_round <= step.round and c.in_fight:
        kill(step, c, "wound_timer")
        return False
    if c.status == "dying":
        dying_turn(step, cid)
        if step.c(cid).status == "up" and step.options["dying_nat20_injury_roll"]:
            roll_injury(step, cid)   # AMB-31 (option): up on a natural 20, and the injury table as if stabilised
        return step.c(cid).active
    if c.held:
        apply_periodic(step, cid)
        c = step.c(cid)
    if not c.held:             # (`active`, for one who holds nothing)
        return c.status == "up"
    return c.active and cond.can_act(c.held)


def _conditions_at_turn_start(step: Step, c: Combatant) -> Combatant:
    """What ends at the start of her turn ends; a PRONE combatant up and able stands (AMB-20)."""
    kept, ended = cond.expire_at_turn_start(c.held, step.round)
    if ended:
        c = step.update(c.id, held=kept)
        step.fact(EXPIRE, c.id, conditions=[h.name for h in ended])
    prone = [h for h in kept if h.name == "PRONE" and h.ending == "stands"]
    if prone and c.active:   # AMB-20: standing up takes the turn's movement
        c = step.update(c.id, held=tuple(h for h in kept if h not in prone),
                        features=(*c.features, "_stood_up"))
        step.fact(STAND, c.id, rules=("AMB-20",))
    return c


def act(step: Step, cid: str, action: Action) -> None:
    """Carry out one action (the turn's one action, F-CMBT-01): the rule of its kind in `registry.ACTIONS` (none
    such: she waits). Whatever happens, a combatant who stood up this turn has done so by its end."""
    try:
        c = step.c(cid)
        if c.status != "up" or (c.held and not c.active):      # (`active` asked only of one who holds something)
            raise IllegalActionError(f"{c.name} is {c.status} and cannot act")
        rules = step.memo.get(act)       # the actions by kind, found once a step: a fight acts at every turn
        if rules is None:
            rules = step.memo[act] = dict(registry.ACTIONS.entries())
        rule = rules.get(action.kind)
        if isinstance(rule, EngineAction):
            rule.perform(step, cid, action)
        elif rule is not None:                     # a chapter's action: at someone in the fight
            if action.target is None:
                raise IllegalActionError(f"{action.kind} needs a target")
            step.c(action.target)
            rule.run(step, cid, action.target, action.detail)
        else:
            _wait(step, cid, action)
    finally:
        c = step.c(cid)
        if "_stood_up" in c.features:
            step.update(cid, features=tuple(f for f in c.features if f != "_stood_up"))


@dataclass(frozen=True)
class EngineAction:
    """One of the engine's own actions as `registry.ACTIONS` holds it, beside the chapters' (magic's "cast"): the
    rule that carries it out on the whole `Action` (its note, its Sneak Attack). The automatic tactic picks the
    attack itself (`_choose`): as an ActionRule it offers the tactic nothing (`tactic`, `details`)."""

    kind: str
    perform: Callable[[Step, str, Action], None]

    def run(self, step: Step, cid: str, target: str, detail: str | None) -> None:
        self.perform(step, cid, Action(self.kind, target, detail=detail))

    def tactic(self, enc: Encounter, c: Combatant, target: str) -> str | None:
        return None

    def details(self, c: Combatant) -> tuple[str, ...]:
        return ()


def _attack_action(step: Step, cid: str, action: Action) -> None:
    """F-CMBT-01: ATK a foe where she stands ("attack"), or go NEAR and ATK ("move_attack"); Rage and Rally as she
    attacks, the extra ATKs a row or a chapter grants after it, and what a round's use of the weapon costs."""
    c = step.c(cid)
    target = _within_reach(step, c, action)
    if target is None:
        return
    if "rage" in c.features:     # (a Barbarian may rage as she attacks)
        rage(step, cid)
    if c.powers:           # (Rally is a power she holds)
        rally(step, cid)
    if action.detail == "bloodmagic":
        bloodmagic(step, cid)
    attack(step, cid, target, sneak=action.sneak)
    if step.queue:         # (a crit row granted another ATK)
        _extra_attacks(step)
    more, after = step.memo.get(_attack_action) or _attack_hooks(step)
    if more:               # (a chapter's rule may grant more under these rules)
        more_attacks(step, cid, target)
    for hook in after:     # the round's use of the weapon (M-WPN-05)
        hook(step, cid, c)


def _attack_hooks(step: Step) -> tuple[tuple[registry.AttacksHook, ...], tuple[registry.AfterAttackHook, ...]]:
    """The chapters' extra ATKs and what follows each attack action under these rules, read once a step (kept in
    its memo: an attack action reads both)."""
    found = step.memo[_attack_action] = (step.hooks(registry.ATTACKS_PER_ACTION), step.hooks(registry.AFTER_ATTACK))
    return found


def _within_reach(step: Step, c: Combatant, action: Action) -> str | None:
    """The foe she strikes: one of another side (or one she means to strike, `note`), while she may attack, CLOSE
    or closing in (`_close_in`); None when she cannot strike this turn. An attack at nobody, or at her own side
    unmeant, is refused."""
    if action.target is None:
        raise IllegalActionError("an attack needs a target")
    t = step.c(action.target)
    if t.side == c.side and action.kind == "attack" and not action.note:
        raise IllegalActionError(f"{t.name} is on {c.name}'s side")
    if c.held and not cond.can_attack(c.held):
        step.fact(WAIT, c.id, why="cannot_attack")
        return None
    if action.kind == "move_attack" and c.zone != "CLOSE" and not _close_in(step, c.id, t):
        return None
    return t.id


def _dodge(step: Step, cid: str, action: Action) -> None:
    """F-CMBT-02: ATKs against her are HARD until her next turn."""
    c = step.c(cid)
    step.update(cid, held=(*c.held, cond.Held(name=cond.modifier_name("atk_against", "HARD"), source="DODGE",
                                              until_round=step.round + 1)))
    step.fact(DODGE, cid, rules=("F-CMBT-02",))


def _disengage(step: Step, cid: str, action: Action) -> None:
    """F-CMBT-03: she steps back NEAR without drawing a blow."""
    step.update(cid, zone="NEAR")
    step.fact(DISENGAGE, cid, rules=("F-CMBT-03",))


def _stabilise(step: Step, cid: str, action: Action) -> None:
    if action.target is None:
        raise IllegalActionError("stabilise needs a target")
    stabilise(step, cid, action.target, referee=action.note == "referee")


def _free(step: Step, cid: str, action: Action) -> None:
    """F-CMBT-04: something the rules do not model, told to the referee."""
    step.fact(FREE_ACTION, cid, rules=("F-CMBT-04",), note=action.note)


def _wait(step: Step, cid: str, action: Action) -> None:
    step.fact(WAIT, cid, why="")


def _close_in(step: Step, cid: str, t: Combatant) -> bool:
    """"Go NEAR and ATK": the mover closes to CLOSE, unless she cannot move; with a maimed foot (MOVE_NEAR_ONLY,
    F-TAB-38 4–5) she moves only NEAR: from farther than NEAR she comes one zone closer and does not attack.
    True: she is CLOSE and attacks."""
    c = step.c(cid)
    held = c.held           # (most who close in hold nothing: no condition asked)
    if (held and not cond.can_move(held)) or "_stood_up" in c.features:
        step.fact(WAIT, cid, why="cannot_move")
        return False
    if held and cond.moves_only_near(held) and c.zone not in ("NEAR", "CLOSE"):
        zone = ZONES[ZONES.index(c.zone) - 1]
        step.update(cid, zone=zone)
        step.fact(MOVE, cid, (t.id,), zone=zone, maimed=True, attacks=False)
        return False
    step.change(c, {"zone": "CLOSE"})      # (she is not CLOSE: `_within_reach`)
    if t.zone != "CLOSE" and not t.ranged:
        step.update(t.id, zone="CLOSE")
    step.record(MOVE, cid, (t.id,), (), (), {"round": step.round, "zone": "CLOSE", "maimed": False, "attacks": True})
    return True


def _go_ranged_action(step: Step, cid: str, action: Action) -> None:
    _go_ranged(step, cid)


def _go_ranged(step: Step, cid: str) -> None:
    """Go RANGED. Leaving CLOSE without DISENGAGE gives each foe CLOSE a free ATK under opportunity_attacks,
    unless free_disengage lets anyone move away freely (AMB-60, REF-16); a maimed foot moves only NEAR."""
    c = step.c(cid)
    if c.zone == "CLOSE" and step.options["opportunity_attacks"] and not step.options["free_disengage"]:
        for foe in [o for o in step.enc.enemies_of(c) if o.zone == "CLOSE" and cond.can_attack(o.held)]:
            step.fact(OPPORTUNITY, foe.id, (cid,), rules=("AMB-60",))
            attack(step, foe.id, cid)
            _extra_attacks(step)
        if not step.c(cid).active:
            return
    zone = "RANGED"
    if cond.moves_only_near(c.held) and c.zone == "CLOSE":
        zone = "NEAR"
    step.update(cid, zone=zone)
    step.fact(MOVE, cid, zone=zone, maimed=zone == "NEAR", attacks=False)


# the engine's own actions, registered as a chapter registers hers (`registry.ACTIONS`); ENGINE_ACTIONS in menu order
for _kind, _perform in (("attack", _attack_action), ("move_attack", _attack_action), ("dodge", _dodge),
                        ("disengage", _disengage), ("go_ranged", _go_ranged_action),
                        ("stabilise", _stabilise), ("wait", _wait), ("free", _free)):
    registry.ACTIONS.add(_kind, EngineAction(_kind, _perform))
ENGINE_ACTIONS = ("attack", "move_attack", "go_ranged", "dodge", "disengage", "stabilise", "wait", "free")


def chapter_action(kind: str) -> bool:
    """Whether `kind` is a chapter's action (registered, and not one of the engine's own)."""
    return kind in registry.ACTIONS and kind not in ENGINE_ACTIONS


def chapter_actions() -> tuple[tuple[str, registry.ActionRule], ...]:
    """The chapters' actions, by name: those the automatic tactic asks first (a caster casts)."""
    entries = registry.ACTIONS.entries()
    if _CHAPTER_ACTIONS[0] is not entries:
        _CHAPTER_ACTIONS[:] = [entries, tuple((k, r) for k, r in entries if not isinstance(r, EngineAction))]
    chosen: tuple[tuple[str, registry.ActionRule], ...] = _CHAPTER_ACTIONS[1]
    return chosen


_CHAPTER_ACTIONS: list[Any] = [None, ()]     # [the registry's entries, the chapters' among them], kept together


def roll_initiative(step: Step) -> None:
    """F-INIT-01: each side rolls d6, the higher acts first, a tie acts together; F-INIT-02 phases."""
    if step.frame.initiative == "simultaneous":
        step.reframe(phases=(("ranged",), ("melee",)))
        step.fact(INITIATIVE, "", rules=("F-INIT-02",), simultaneous=True)
        return
    rolls = {side: step.roll("d6", f"initiative: {side}") for side in dict.fromkeys(c.side for c in step.working())}
    order = sorted(rolls, key=lambda s: -rolls[s].total)
    phases: list[tuple[str, ...]] = []
    for side in order:
        if phases and rolls[phases[-1][0]].total == rolls[side].total:
            phases[-1] = (*phases[-1], side)
        else:
            phases.append((side,))
    step.reframe(phases=tuple(phases))
    step.fact(INITIATIVE, "", (), tuple(rolls.values()), ("F-INIT-01",), phases=[list(p) for p in phases])


LAST = ("last",)   # the round's closing phase: who acts last (LAST_TO_ACT: F-TAB-34 4–5, M-WPN-06 with AMB-99)


def round_phases(enc: Encounter) -> tuple[tuple[str, ...], ...]:
    """The round's phases in order: the initiative's, then LAST when someone acts last this round."""
    return (*enc.phases, LAST) if enc.last else enc.phases


def acting_last(step: Step) -> None:
    """As a round opens: whoever holds LAST_TO_ACT ("last to act next turn", an off-balance fighter under
    off_balance_segments last_to_act) leaves her side's phase and acts after everyone else this round."""
    last = tuple([c.id for c in step.working() if c.held and c.in_fight and "LAST_TO_ACT" in cond.names(c.held)])
    step.reframe(last=last)
    if last:
        step.fact(ACTS_LAST, last[0], last[1:])


def _actors(enc: Encounter, phase: tuple[str, ...], casting: frozenset[str] = frozenset()) -> list[str]:
    """Who acts in a phase; in simultaneous initiative spells go with missiles (F-INIT-02); those acting last
    only in the LAST phase."""
    return _acting(enc.combatants, enc.last, phase, casting)


def _acting(combatants: Sequence[Combatant], last: tuple[str, ...], phase: tuple[str, ...],
            casting: frozenset[str]) -> list[str]:
    """`_actors` of these combatants (the encounter's, or a Step's working ones as they are now)."""
    if phase == LAST:
        fighting = {c.id for c in combatants if c.in_fight}
        return [cid for cid in last if cid in fighting]
    if phase == ("ranged",):
        ids = [c.id for c in combatants if (c.ranged or c.id in casting) and c.status in FIGHTING]
    elif phase == ("melee",):
        ids = [c.id for c in combatants if not c.ranged and c.id not in casting and c.status in FIGHTING]
    else:
        ids = [c.id for c in combatants if c.side in phase and c.status in FIGHTING]   # (`in_fight`, a turn's)
    return [cid for cid in ids if cid not in last] if last else ids


def _casters(enc: Encounter, choose: Tactic) -> frozenset[str]:
    """F-INIT-02: who declares a spell this round; they act in the first phase, with ranged attacks."""
    if enc.initiative != "simultaneous":
        return frozenset()
    return frozenset(c.id for c in enc.combatants if c.active and choose(enc, c).kind == "cast")


def won(step: Step) -> bool:
    """At most one side has anyone active left."""
    return not step.standing().contested()


def finish_if_won(step: Step, together: bool) -> None:
    """The fight ends as soon as one side is left standing — the blow (or the Cleave) that fells the last foe ends
    it there — except in a phase that strikes together, whose slain still strike (F-INIT-02)."""
    if not together and not step.frame.over and won(step):
        _finish(step)


def _finish(step: Step) -> None:
    standing = [side for side, keys in step.standing().sides.items() if keys]   # the sides with someone active
    if len(standing) <= 1 and not step.frame.over:
        winner = next(iter(standing), None)
        step.reframe(over=True, winner=winner)
        step.fact(END, "", winner=winner or "")


def run_round(enc: Encounter, rng: DiceSource, rules: Ruleset,
              choose: Tactic = tactic_attack_nearest) -> tuple[Encounter, list[Event]]:
    """One round: initiative (first round, or each round per option), then each phase's actors act."""
    if enc.over:
        raise IllegalActionError("the fight is over")
    step = Step(enc, rng, rules)
    _round(step, choose)
    return step.enc, step.events


def _round(step: Step, choose: Tactic) -> None:
    """`run_round` on a Step's working state (which `run_fight` keeps from round to round, frozen once)."""
    step.queue.clear()
    step.killed_by.clear()
    step.reframe(round=step.round + 1)
    step.record(ROUND, "", (), (), (), {"round": step.round})
    if step.round == 1 or (step.options["reroll_initiative_each_turn"] and step.frame.initiative == "group"):
        roll_initiative(step)
    acting_last(step)
    casting = _casters(step.enc, choose) if step.frame.initiative == "simultaneous" else frozenset()
    for phase in round_phases(step.frame):
        _phase(step, phase, casting, choose)
        _finish(step)
        if step.frame.over:
            break
        step.killed_by.clear()
    if not step.frame.over:
        _morale(step)
        _finish(step)


def _phase(step: Step, phase: tuple[str, ...], casting: frozenset[str], choose: Tactic) -> None:
    """Each of the phase's actors takes her turn, but the surprised in the first round (F-SURP-01); the fight ends
    as soon as one side is left standing (`finish_if_won`)."""
    together = len(phase) > 1 or phase in (("ranged",), ("melee",))
    surprised = step.frame.surprised if step.round == 1 else ()     # (neither changes within the round)
    for cid in _acting(step.working(), step.frame.last, phase, casting):
        c = step.c(cid)     # (read anew at each turn: a blow lost in a simultaneous phase sets the whole state back)
        if surprised and c.side in surprised:
            continue
        # (`_begins`, asked only of one who holds something, runs a timer or is not up: most turns begin at once)
        if (c.status == "up" and not c.held and c.doomed_round is None) or _begins(step, cid, together):
            action = _choose(step, cid, choose)
            c = step.c(cid)
            if c.status == "up" and (not c.held or c.active):    # (`active`)
                act(step, cid, action)
            elif cid in step.killed_by:     # F-INIT-02: in a simultaneous phase the slain still strike
                _act_even_if_fallen(step, cid, action)
        if not together and not step.frame.over and not step.standing().contested():
            _finish(step)       # (`finish_if_won`, `won` inlined: asked after every turn)
        if step.frame.over:
            return


def _begins(step: Step, cid: str, together: bool) -> bool:
    """Her turn begins (`start_turn`) unless she is out of the fight; one slain this phase, in a phase that strikes
    together, still begins it and strikes (F-INIT-02: `_act_even_if_fallen` weighs the blow). True: she acts."""
    c = step.c(cid)
    slain = together and cid in step.killed_by
    if c.status not in FIGHTING and not (slain and c.status == "dead"):
        return False
    return start_turn(step, cid) or slain


def _morale(step: Step) -> None:
    """F-OPT-04 (optional): a monster side that has lost half its number rolls 2d6 against its morale
    (default half the ROOM DC); rolling over it, the survivors surrender or flee and leave the fight."""
    if not step.options["enemy_morale"]:
        return
    for side in dict.fromkeys(c.side for c in step.working()):
        members = [c for c in step.working() if c.side == side]
        if side in step.frame.morale_tested or any(c.kind == "pc" for c in members):
            continue
        standing = [c for c in members if c.active]
        if not standing or len(standing) * 2 > len(members):
            continue
        value = next((c.morale for c in members if c.morale is not None), None)
        from furnace.play.reaction import enemy_morale  # (the optional rule's module, loaded when it is in play)

        result = enemy_morale(step.rng, step.frame.room_dc, step.rules, morale=value, label="morale")
        step.reframe(morale_tested=(*step.frame.morale_tested, side))
        step.fact(MORALE, "", (), (result.roll,), ("F-OPT-04",), side=side, total=result.roll.total,
                  morale=result.morale, breaks=result.breaks, outcome=result.outcome)
        if result.breaks:
            for c in standing:
                step.update(c.id, status="fled")


def _act_even_if_fallen(step: Step, cid: str, action: Action) -> None:
    c = step.c(cid)
    if c.active:
        act(step, cid, action)
        return
    # simultaneous: the fallen creature's declared blow still lands unless it rolls lower than its killer
    killer_total = step.killed_by.get(cid)
    if killer_total is None or action.kind not in ("attack", "move_attack") or action.target is None:
        return
    # the state to set back should the blow be lost: only in simultaneous initiative (a group's tie strikes
    # together and its blows all stand), so frozen only there
    saved = step.enc if step.frame.initiative == "simultaneous" else None
    step.put(c.model_copy(update={"status": "up"}))
    before = len(step.events)
    attack(step, cid, action.target)
    totals = [e.data.get("total") for e in step.events[before:] if e.kind in ("hit", "miss", "fumble",
                                                                              "defended", "not_defended")]
    step.put(step.c(cid).model_copy(update={"status": c.status}))
    tie_lost = step.options["simultaneous_attack_ties"] == "cancel"   # AMB-49: an equal total lands (resolve) or not
    own = (totals[0] or 0) if totals else 0
    if saved is not None and totals and (own < killer_total or (tie_lost and own == killer_total)):
        step.enc = saved   # the blow is lost: nothing it did stands
        del step.events[before:]
        step.fact(LOST_BLOW, cid, (), (), ("F-INIT-02",) + (("AMB-49",) if own == killer_total else ()),
                  total=own, killer=killer_total)


def take_turn(enc: Encounter, cid: str, action: Action, rng: DiceSource, rules: Ruleset,
              ) -> tuple[Encounter, list[Event]]:
    """One combatant's action outside the automatic round loop (an interactive table)."""
    step = Step(enc, rng, rules)
    act(step, cid, action)
    _finish(step)
    return step.enc, step.events


def run_fight(enc: Encounter, rng: DiceSource, rules: Ruleset, max_rounds: int = 20,
              ) -> tuple[Encounter, list[Event]]:
    """Rounds of the simple tactic until the fight is over or `max_rounds` are fought: `run_round` after
    `run_round`, on one working state frozen once at the end."""
    events: list[Event] = []
    step = Step(enc, rng, rules, events)
    while not step.frame.over and step.round < max_rounds:
        _round(step, tactic_attack_nearest)
    return step.enc, events


__all__ = ["ZONES", "Action", "act", "attack", "run_fight", "run_round", "take_turn"]


"""The encounter's state, and the working context of one action.

`Encounter` is immutable; an engine function takes one and returns the next with the events that
explain the change. Inside one action the engine works on a `Step`, which gathers the new state and
the events, so that each rule is a short function.

How a Step keeps the fight cheap (`run_fight` keeps one Step from round to round): the combatants as they are now
are a working list, a change replacing one of them by id (`Combatant` is our own frozen dataclass;
`frozen.updated` copies it with the change) and moving her in the Standing (who stands nearest first) instead of
working it out again; the encounter is frozen from that list only when `enc` is read after a change. What a rule
asks of the whole field is answered from the step, never by freezing it: the nearest foe (`standing`), the allies
holding a power (`allies_holding`: who holds one is found once per encounter). The Luck Dice live in the step by
owner (`luck`, `hold_luck`) and reach the PCs' fields at the freeze: a roll copies nobody.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from typing import Any, ClassVar, Literal, TypeVar

from pydantic import ConfigDict

from furnace import dice
from furnace.dice import DiceSource, RollResult
from furnace.errors import IllegalActionError
from furnace.events import Audience, Event, Part
from furnace.play.combatant import ZONES, Combatant
from furnace.play.frozen import Frozen, updated
from furnace.play.kept import Kept
from furnace.play.luck import LuckState
from furnace.play.questions import NOBODY_ASKED, Asking
from furnace.play.registry import Registry
from furnace.play.standing import Standing
from furnace.rules.ruleset import Ruleset

InitiativeModel = Literal["group", "simultaneous"]
T = TypeVar("T")
_MISSING = object()
_new = object.__new__
_set = object.__setattr__
# a change of only these fields leaves a combatant's place in the Standing (zone, HP, side, standing up)
_UNORDERED = frozenset(f.name for f in dataclass_fields(Combatant)) - {"id", "side", "zone", "hp", "status", "held"}
# whether a change of these fields is such a change: the set's method bound once (a compiled module's call of a
# global's method, `_UNORDERED.issuperset(…)`, makes a bound method at every call; so the caches are `Kept`)
_KEEPS_PLACE = _UNORDERED.issuperset
LuckOwner = tuple[str, str]      # ("player", her name) or ("pc", the PC's id): who holds a pool of Luck Dice

# What is worked out once for a tuple of combatants — each one's place by id, who stands nearest first — kept beside
# the encounters holding that tuple, never in them (a model is its fields): by the tuple's identity, each entry
# holding its tuple (so that no other tuple takes its id while it is kept), [combatants, positions, standing]. An
# engine's step makes an encounter's next tuple knowing both (`with_combatants`); the last INDEXES_KEPT are kept: a
# few, for each entry holds its combatants alive, and a simulation's past fights kept alive by the hundred (a fight
# makes three) were work for the garbage collector at every collection (~5 % of a fight), and a miss only works
# an entry out again.
_INDEXES: dict[int, list[Any]] = {}
INDEXES_KEPT = 16


def _index(combatants: tuple[Combatant, ...]) -> list[Any]:
    """The entry of these combatants (a new, empty one when they have none)."""
    entry = _INDEXES.get(id(combatants))
    if entry is None or entry[0] is not combatants:
        if len(_INDEXES) >= INDEXES_KEPT:
            _INDEXES.clear()           # (clear at once: a cache others may read from other threads)
        entry = _INDEXES[id(combatants)] = [combatants, None, None]
    return entry


@dataclass(frozen=True, kw_only=True)
class Encounter(Frozen):
    """Our own frozen dataclass, as `Combatant` (`frozen.Frozen`): copied cheaply by the engine, validated by
    pydantic where it comes in (the campaign's stored encounter, `model_validate`)."""

    __pydantic_config__: ClassVar[ConfigDict] = ConfigDict(extra="forbid")
    room_dc: int = 12
    round: int = 0
    combatants: tuple[Combatant, ...]
    initiative: InitiativeModel = "group"
    phases: tuple[tuple[str, ...], ...] = ()      # who acts in which phase of the round (side names)
    last: tuple[str, ...] = ()                    # who acts after every phase this round (LAST_TO_ACT)
    surprised: tuple[str, ...] = ()
    morale_tested: tuple[str, ...] = ()           # monster sides that have made their morale roll
    winner: str | None = None
    over: bool = False
    asking: Asking = NOBODY_ASKED     # the players' choices: standing answers, the step waiting (a frozen value)

    def positions(self) -> dict[str, int]:
        """Each combatant's place in `combatants` by id (the first, should an id repeat), worked out once for these
        combatants (`_INDEXES`). Never changed once made: a Step shares it."""
        entry = _index(self.combatants)
        positions: dict[str, int] | None = entry[1]
        if positions is None:
            positions = {}
            for i, c in enumerate(self.combatants):
                positions.setdefault(c.id, i)
            entry[1] = positions
        return positions

    def get(self, cid: str) -> Combatant:
        place = self.positions().get(cid)
        if place is None:
            raise IllegalActionError(f"no combatant {cid!r}; known: {', '.join(c.id for c in self.combatants)}")
        return self.combatants[place]

    def put(self, combatant: Combatant) -> Encounter:
        """The encounter with this combatant in the place of the one of her id (none such: unchanged)."""
        positions = self.positions()
        place = positions.get(combatant.id)
        if place is None:
            return updated(self, {"combatants": self.combatants})
        if len(positions) < len(self.combatants):     # an id repeats: every one of them is replaced
            return updated(self, {"combatants": tuple(combatant if c.id == combatant.id else c
                                                      for c in self.combatants)})
        combatants = (*self.combatants[:place], combatant, *self.combatants[place + 1:])
        return self.with_combatants(combatants, positions)

    def with_combatants(self, combatants: tuple[Combatant, ...], positions: dict[str, int],
                        standing: Standing | None = None) -> Encounter:
        """A copy with these combatants, whose ids stand in the places `positions` gives (kept as its index), and
        who stands in the order `standing` gives (when known)."""
        entry = _index(combatants)
        entry[1] = positions
        if standing is not None:
            entry[2] = standing
        return updated(self, {"combatants": combatants})

    def cached_standing(self) -> Standing | None:
        entry = _INDEXES.get(id(self.combatants))
        return entry[2] if entry is not None and entry[0] is self.combatants else None

    def standing(self) -> Standing:
        """Who stands on each side, nearest first (worked out once for these combatants; never changed)."""
        entry = _index(self.combatants)
        standing: Standing | None = entry[2]
        if standing is None:
            standing = entry[2] = Standing.of(self.combatants)
        return standing

    def nearest_foe(self, c: Combatant, near: bool = False) -> str | None:
        """The id of the nearest active foe of c by zone, then HP, then id (only CLOSE or NEAR when `near`)."""
        return self.standing().nearest(c.side, near)

    @property
    def sides(self) -> list[str]:
        return list(dict.fromkeys(c.side for c in self.combatants))

    def enemies_of(self, c: Combatant) -> list[Combatant]:
        return [o for o in self.combatants if o.side != c.side and o.active]

    def allies_of(self, c: Combatant) -> list[Combatant]:
        return [o for o in self.combatants if o.side == c.side and o.id != c.id and o.active]


# each participant as facts name her, made once for all the fights that name her so (a Part is a value): the last
# PARTS_KEPT kept
_PARTS: dict[tuple[str, str, str], Part] = {}
PARTS_KEPT = 4096
# each roster's (each combatant's id, name, kind and player) parts and casts, shared by the steps of that roster
# (`Step._named`): the last NAMED_KEPT
Roster = tuple[tuple[str, str, str, str | None], ...]
_NAMED: dict[Roster, tuple[dict[str, Part], dict[tuple[str, tuple[str, ...]], dict[str, Part]]]] = {}
NAMED_KEPT = 64
# the dice a fight rolls, parsed once by their text (`Step.roll`: `dice.parse`'s own cache is a call deeper); the
# last 1024 kept
_PARSED: Kept[str, dice.DiceExpression] = Kept(dice.parse, 1024)


class _Now(dict[str, Combatant]):
    """The combatants as they are now, by id (the first of a repeated id): `Step.c` is this dict's own look-up, read
    ~900 times a fight; an id not here is refused as the encounter refuses it, naming the combatants."""

    __slots__ = ("frame",)

    def __init__(self, frame: Encounter) -> None:
        super().__init__()
        self.frame = frame

    def __missing__(self, cid: str) -> Combatant:
        return self.frame.get(cid)


class _Options(dict[str, Any]):
    """The rule options' values by name as a fight reads them (hundreds of times a fight): each looked up in the
    Ruleset once, then kept (a Ruleset never changes); an unknown name is refused by the Ruleset."""

    __slots__ = ("rules",)

    def __init__(self, rules: Ruleset) -> None:
        super().__init__()
        self.rules = rules

    def __missing__(self, name: str) -> Any:
        value = self[name] = self.rules[name]
        return value


def _options(rules: Ruleset) -> dict[str, Any]:
    """The options of these rules as fights read them, shared by every step under them (a simulation's thousands
    of fights look each one up once); those of the last OPTIONS_KEPT rulesets kept."""
    found = _OPTIONS.get(id(rules))
    if found is None or found.rules is not rules:
        if len(_OPTIONS) >= OPTIONS_KEPT:
            _OPTIONS.clear()
        found = _OPTIONS[id(rules)] = _Options(rules)
    return found


_OPTIONS: dict[int, _Options] = {}          # by the ruleset's identity, each holding its ruleset
OPTIONS_KEPT = 64


class Step:
    """The working state of one action: the public API stays immutable in and out.

    Inside, a change replaces one combatant in a working list (found by id through the encounter's index), and
    `enc` freezes the list into an Encounter only when it is read after a change; setting `enc` starts again
    from that encounter. A change that changes nothing is not made."""

    # the encounter as last frozen (or set): all its fields but `combatants` are current (a combatant's change
    # changes none of them), read without freezing
    frame: Encounter
    _positions: dict[str, int]            # its index: never changes within it
    _working: list[Combatant]             # the combatants as they are now, in its order
    _now: dict[str, Combatant]            # the same by id (the first of a repeated id): `c`, read ~900 times a fight
    _unique: bool                         # no id repeats
    _standing: Standing | None            # who stands, nearest first, as they are now (when known)
    _standing_mine: bool                  # False: a frozen encounter holds it too (fork it before a move)
    _changed: bool                        # a change since the last freeze
    _pcs: dict[str, tuple[str, ...]] | None     # each player's PCs
    # Luck Dice and streaks as they are now, by owner (F-LUCK-01, luck_owner): the step keeps them (a roll changes
    # its owner's pool here) and writes them into the owner's PCs only when the state freezes (`_luck_stale`: the
    # owners whose PCs may not hold theirs yet), not into a PC at every roll; the rules read them by `luck`
    _luck: dict[LuckOwner, LuckState]
    _luck_stale: set[LuckOwner]
    round: int                            # the frame's round (read at every fact and turn without a model's look-up)
    _holding: dict[str, tuple[str, ...]]  # by a power's key: who held one as the encounter was set (`allies_holding`)
    _parts: dict[str, Part]               # each combatant as facts name her (`part`, `_named`)
    _casts: dict[tuple[str, tuple[str, ...]], dict[str, Part]]    # a fact's cast by actor and targets (`_named`)
    # `c(cid)`: the combatant as she is now; a PC's Luck Dice and streak are her owner's pool as of the last freeze
    # (as they are now: `luck`, which the rules read; her fields take it at the next freeze). An unknown id is
    # refused, naming the combatants. (The working dict's own look-up: no Python call.)
    c: Callable[[str], Combatant]

    def __init__(self, enc: Encounter, rng: DiceSource, rules: Ruleset, events: list[Event] | None = None,
                 queue: list[tuple[str, str, dict[str, Any]]] | None = None,
                 killed_by: dict[str, int] | None = None) -> None:
        self.rng = rng
        self.rules = rules
        self.events: list[Event] = [] if events is None else events
        self.queue: list[tuple[str, str, dict[str, Any]]] = [] if queue is None else queue   # extra attacks
        self.killed_by: dict[str, int] = {} if killed_by is None else killed_by   # victim → killer's ATK this phase
        self._roster: Roster | None = None    # the combatants as facts name them whose `_parts` and `_casts` these are
        self.options: dict[str, Any] = _options(rules)     # `rules[name]`, read as a dict (`_Options`)
        self._by_player = rules["luck_owner"] == "player"     # read at every PC's roll (`luck_owner`)
        self._hooks: dict[int, tuple[Any, ...]] = {}          # each registry's entries, as this step began (`hooks`)
        # what a rule works out once a step and keeps by its own key (the chapters' actions a combatant may take …)
        self.memo: dict[Any, Any] = {}
        self.enc = enc

    @property
    def enc(self) -> Encounter:
        if self._luck_stale:
            self._hand_out_luck()
        if self._changed:
            self.frame = self.frame.with_combatants(tuple(self._working), self._positions, self._standing)
            self._standing_mine = False        # the frozen encounter keeps it: forked before the next move in it
            self._changed = False
        return self.frame

    @enc.setter
    def enc(self, enc: Encounter) -> None:
        self.frame = enc
        self.round = enc.round
        self._positions = enc.positions()
        self._working = list(enc.combatants)
        self._now = _Now(enc)
        for c in self._working:
            self._now.setdefault(c.id, c)
        self.c = self._now.__getitem__
        self._unique = len(self._positions) == len(self._working)     # else every change goes the slow way
        self._standing = None
        self._standing_mine = False
        self._changed = False
        self._pcs = None
        self._luck = {}
        self._luck_stale = set()
        self._holding = {}
        self._named(enc.combatants)

    def _named(self, combatants: tuple[Combatant, ...]) -> None:
        """Each combatant as facts name her (`part`) and each fact's cast by actor and targets (`fact`): those of
        every step of the same combatants (a simulation's thousands of fights name the same participants), until a
        step's combatants change (a creature summoned): then its own, the participants named so far named so still."""
        roster = tuple([(c.id, c.name, c.kind, c.player) for c in combatants])
        if roster == self._roster:
            return
        if self._roster is not None:
            self._parts, self._casts = dict(self._parts), dict(self._casts)
            return
        self._roster = roster
        shared = _NAMED.get(roster)
        if shared is None:
            if len(_NAMED) >= NAMED_KEPT:
                _NAMED.clear()
            shared = _NAMED[roster] = ({}, {})
        self._parts, self._casts = shared

    def reframe(self, **changes: Any) -> None:
        """Change the encounter's own fields (its round, phases, winner …; never `combatants`) without freezing
        the working state: the next freeze keeps them. A change that changes nothing is not made (every round sets
        who acts last, most rounds nobody again)."""
        fields = self.frame.__dict__
        for name, value in changes.items():
            held = fields.get(name, _MISSING)
            if held is not value and (type(held) is not type(value) or held != value):
                break
        else:
            return
        self.frame = updated(self.frame, changes)
        self.round = self.frame.round


    def hooks(self, registry: Registry[T]) -> tuple[T, ...]:
        """A registry's entries that act under this step's rules (`Registry.acting`), in name order, read once a
        step (a fight's step: the chapters add theirs as they are imported, never during a fight), not at every
        attack."""
        found: tuple[T, ...] | None = self._hooks.get(id(registry))
        if found is None:
            found = self._hooks[id(registry)] = registry.acting(self.rules)
        return found

    def put(self, combatant: Combatant) -> None:
        """Replace the combatant of her id (none such: nothing changes, as `Encounter.put`)."""
        if self._luck and combatant.kind == "pc":      # she holds her owner's Luck Dice as they are now
            held = self._luck.get(self.luck_owner(combatant))
            if held is not None and (combatant.luck_dice, combatant.luck_streak) != (held.dice, held.streak):
                combatant = updated(combatant, {"luck_dice": held.dice, "luck_streak": held.streak})
        self._place(combatant, True)

    def _place(self, combatant: Combatant, reorders: bool) -> None:
        place = self._positions.get(combatant.id)
        if place is None or not self._unique:
            self.enc = self.enc.put(combatant)
            return
        old = self._working[place]
        self._working[place] = self._now[combatant.id] = combatant
        self._moved(old, combatant, reorders)

    def _moved(self, old: Combatant, new: Combatant, reorders: bool) -> None:
        """She changed in the working list: the state is changed since its freeze, and she moves in the Standing
        when the change may move her (`reorders`: a field of `key`, her side or what makes her active)."""
        if not self._changed:
            self._changed = True
            if self._standing is None:     # the frozen one's index, if it has one, goes on
                self._standing = self.frame.cached_standing()
        if reorders and self._standing is not None:
            if not self._standing_mine:
                self._standing, self._standing_mine = self._standing.fork(), True
            self._standing.moved(old, new)

    def update(self, cid: str, /, **changes: Any) -> Combatant:
        """The combatant with these fields changed (as `model_copy(update=…)`), put in her place; unchanged when
        every field already holds its value. (Her id by place alone: a field's name is matched against nothing.)"""
        old = self.c(cid)
        fields = old.__dict__
        for name, value in changes.items():
            held = fields.get(name, _MISSING)
            if held is not value and (type(held) is not type(value) or held != value):
                break
        else:
            return old
        return self.change(old, changes)

    def change(self, old: Combatant, changes: dict[str, Any]) -> Combatant:
        """`update` of her as she is now (`c`) by changes that change her (a blow's HP, a step CLOSE): not looked up
        by her id, no field compared, no keyword arguments parsed (the engine's commonest changes)."""
        new = _new(type(old))           # (`frozen.updated`, inlined: a fight changes a combatant ~40 times)
        _set(new, "__dict__", {**old.__dict__, **changes})
        reorders = not _KEEPS_PLACE(changes)
        cid = new.id
        place = self._positions.get(cid)
        if place is None or not self._unique or "id" in changes:
            self._place(new, reorders)
            return new
        self._working[place] = self._now[cid] = new
        standing = self._standing
        if self._changed and self._standing_mine and standing is not None:   # (`_moved`, inlined: most changes)
            if reorders:
                standing.moved(old, new)
            return new
        self._moved(old, new, reorders)
        return new

    def standing(self) -> Standing:
        """Who stands on each side as they are now, nearest first, without freezing the working state."""
        if self._standing is None:
            if self._changed:
                self._standing, self._standing_mine = Standing.of(self._working), True
            else:
                self._standing, self._standing_mine = self.frame.standing(), False
        return self._standing

    def working(self) -> list[Combatant]:
        """The combatants as they are now, in the encounter's order (read only; their Luck Dice may lag: `luck`)."""
        return self._working

    def allies_holding(self, c: Combatant, key: str) -> list[Combatant]:
        """`enc.allies_of(c)` as they are now, of those alone whose powers name `key` (a Fighter's Protection):
        who held such a power is found once for the encounter set (a fight spends powers, never gains one), so an
        attack asks a few, not the whole field."""
        if not self._unique:
            return [o for o in self.enc.allies_of(c) if any(key in data for data in o.powers.values())]
        holders = self.holding(key)
        if not holders:             # (most fights: nobody holds one)
            return []
        found = [self.c(cid) for cid in holders if cid != c.id]
        return [o for o in found if o.side == c.side and o.active and any(key in data for data in o.powers.values())]

    def holding(self, key: str) -> tuple[str, ...]:
        """The ids of those whose powers named `key` as the encounter was set (a fight spends powers, never gains
        one): none, and no attack need ask who holds one now (`allies_holding`)."""
        holders = self._holding.get(key)
        if holders is None:
            holders = self._holding[key] = tuple(o.id for o in self.frame.combatants
                                                 if any(key in data for data in o.powers.values()))
        return holders

    def luck_owner(self, c: Combatant) -> LuckOwner:
        """Whose Luck Dice and streak a PC's rolls feed: her player's, shared by all her PCs (luck_owner player,
        F-LUCK-01, AMB-02), else her own."""
        if c.player and self._by_player:
            return ("player", c.player)
        return ("pc", c.id)

    def luck(self, c: Combatant) -> LuckState:
        """The Luck Dice and streak the PC holds now."""
        owner = ("player", c.player) if c.player and self._by_player else ("pc", c.id)    # (`luck_owner`, inlined)
        held = self._luck.get(owner)
        if held is None:
            held = self._luck[owner] = LuckState(c.luck_dice, c.luck_streak)
        return held

    def hold_luck(self, c: Combatant, state: LuckState) -> None:
        """The PC's owner now holds `state`: she and every other PC of the owner's hold it from the next freeze."""
        owner = ("player", c.player) if c.player and self._by_player else ("pc", c.id)    # (`luck_owner`, inlined)
        if self._luck.get(owner) is not state:     # (an equal one marked too: the freeze copies only a change)
            self._luck[owner] = state
            self._luck_stale.add(owner)

    def _hand_out_luck(self) -> None:
        """Each owner's PCs take her pool as it is now (no copy of a PC who holds it already)."""
        stale, self._luck_stale = self._luck_stale, set()
        owed = [(cid, self._luck[owner]) for owner in stale
                for cid in (self.players_pcs(owner[1]) if owner[0] == "player" else (owner[1],))]
        for cid, held in owed:
            c = self.c(cid)
            if c.luck_dice != held.dice or c.luck_streak != held.streak:
                self._place(updated(c, {"luck_dice": held.dice, "luck_streak": held.streak}), False)

    def players_pcs(self, player: str) -> tuple[str, ...]:
        """The ids of the player's PCs, in order (who is whose PC never changes within a fight's encounter)."""
        if self._pcs is None:
            self._pcs = {}
            for c in self.frame.combatants:
                if c.kind == "pc" and c.player:
                    self._pcs[c.player] = (*self._pcs.get(c.player, ()), c.id)
        return self._pcs.get(player, ())

    def fact(self, kind: str, actor: str, targets: tuple[str, ...] = (), rolls: tuple[RollResult, ...] = (), /,
             rules: tuple[str, ...] = (), *, audience: Audience = "all", **data: Any) -> None:
        """Record a fact of this fight: its kind, who acts on whom (ids), the dice and the values by name (`record`,
        "round" first). (The first four are given by place alone: a value's name is then matched against `rules`
        and `audience` only, which halves the cost of a call with values.)"""
        self.record(kind, actor, targets, rolls, rules, {"round": self.round, **data}, audience)

    def record(self, kind: str, actor: str, targets: tuple[str, ...], rolls: tuple[RollResult, ...],
               rules: tuple[str, ...], data: dict[str, Any], audience: Audience = "all") -> None:
        """`fact` with its values given as the dict the fact keeps, "round" first (`step.round`): the fight's
        commonest facts (a blow, its damage, a move: most of its hundred) are recorded so, with no keyword arguments
        parsed and no second dict made. The fact's cast is made once for each actor and targets (`_named`: a fact
        is a value, facts of the same participants share it); its Event field by field, not by its __init__ (a
        frame less; a test holds every one of `Event`'s fields set)."""
        try:
            cast = self._casts.get((actor, targets))     # (a get, not a KeyError: a new step's first facts)
        except TypeError:           # targets in a list: a cast of its own
            cast = self._cast(actor, targets)
        if cast is None:
            cast = self._casts[actor, targets] = self._cast(actor, targets)
        event = _new(Event)
        event.kind = kind
        event.actor = actor
        event.targets = targets
        event.rolls = rolls
        event.data = data
        event.rules = rules
        event.cast = cast
        event.audience = audience
        self.events.append(event)

    def _cast(self, actor: str, targets: tuple[str, ...]) -> dict[str, Part]:
        """The participants of a fact by id, as facts name them: the actor, then each target."""
        parts = self._parts
        cast = {}
        if actor:
            cast[actor] = parts.get(actor) or self.part(actor)
        for cid in targets:
            if cid and cid not in cast:
                cast[cid] = parts.get(cid) or self.part(cid)
        return cast

    def part(self, cid: str) -> Part:
        """The combatant as facts name her (her name, pc or monster, her player), made once a fight step."""
        found = self._parts.get(cid)
        if found is None:
            c = self.c(cid)
            named = (c.name, c.kind, c.player or "")
            found = _PARTS.get(named)
            if found is None:
                if len(_PARTS) >= PARTS_KEPT:
                    _PARTS.clear()
                found = _PARTS[named] = Part(*named)
            self._parts[cid] = found
        return found

    def roll(self, expression: str, label: str, variables: dict[str, int | str] | None = None) -> RollResult:
        return _PARSED[expression].roll(self.rng, variables, label)

    def variables(self, actor: Combatant) -> dict[str, int | str]:
        """What a row's dice may name: the attacker's level (PC_LVL, LVL) and the ROOM DC."""
        return {"PC_LVL": actor.level, "LVL": actor.level, "ROOM_DC": self.frame.room_dc,
                "HD": actor.hit_die, "CON": actor.con_mod}

    def choose(self, options: list[Combatant]) -> Combatant | None:
        """A random pick (a random ally, a random target), from the dice source."""
        return options[self.rng.randrange(len(options))] if options else None


def zone_index(c: Combatant) -> int:
    return ZONES.index(c.zone)

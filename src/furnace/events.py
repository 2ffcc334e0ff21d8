"""Events as facts: what happened, as typed data, never as a sentence.

An `Event` says what kind of thing happened (`kind`, a name declared in `FACTS`), who did it (`actor`, an id)
and to whom (`targets`, ids), with which dice (`rolls`), its values by name (`data`: numbers such as `amount`,
`hp_before`, `hp_after`, `dc`, `total`, `ac`; ids and words such as `weapon`, `condition`, `table`, `row`), the
rule ids it carries out (`rules`) and the participants' names and kinds as they were (`cast`). Who may know
it at all is its `audience`: everyone at the table, the referee alone (a hidden roll, a note for the referee)
or the acting player and the referee (a private fact).

Which of its values each viewer may know is declared once per kind (`FACTS`: `declare`), next to the code
that records it: a value is public, the referee's, the actor's or a target's (a participant's numbers are
known as that participant is: a PC's by the table, a monster's by the referee), or the acting player's.
`furnace.render.story` tells a fact to one viewer from only what that viewer may know; nothing below the
interfaces writes a sentence.

Rows of a campaign's log written before facts keep their sentence (`furnace.campaign.store.StoredEvent`, whose
`fact` is None): the referee reads them as they were written, the players only how many there were.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Literal

from furnace.dice import RollResult

Audience = Literal["all", "referee", "player"]
Knowledge = Literal["public", "referee", "actor", "target", "player"]
KNOWLEDGE: tuple[Knowledge, ...] = ("public", "referee", "actor", "target", "player")
EMPTY: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Part:
    """A participant as a fact names her: her name then, what she is (pc, monster, npc) and her player."""

    name: str
    kind: str = "pc"
    player: str = ""

    def to_list(self) -> list[str]:
        return [self.name, self.kind, self.player]


@dataclass(slots=True, init=False)
class Event:
    """One fact. A value, never changed once recorded (a changed copy is `dataclasses.replace` or `with_data`); not
    a frozen dataclass only because a fight records about a hundred of them and a frozen one's fields are set
    through `object.__setattr__`, several times the cost of plain slots. (A fight's `Step.fact` makes it field by
    field, without this __init__: a field added here is set there too.)"""

    kind: str
    actor: str
    targets: tuple[str, ...]
    rolls: tuple[RollResult, ...]
    data: Mapping[str, Any]
    rules: tuple[str, ...]
    cast: Mapping[str, Part]
    audience: Audience

    def __init__(self, kind: str, actor: str = "", targets: tuple[str, ...] = (), rolls: tuple[RollResult, ...] = (),
                 data: Mapping[str, Any] | None = None, rules: tuple[str, ...] = (),
                 cast: Mapping[str, Part] | None = None, audience: Audience = "all") -> None:
        self.kind = kind
        self.actor = actor
        self.targets = targets
        self.rolls = rolls
        self.data = EMPTY if data is None else data
        self.rules = rules
        self.cast = EMPTY if cast is None else cast
        self.audience = audience

    @property
    def who(self) -> str:
        """The actor's name as the fact names her."""
        part = self.cast.get(self.actor)
        return part.name if part is not None else self.actor

    def with_data(self, **values: Any) -> Event:
        """The same fact with more values (a character that joined from a file: `file`)."""
        return Event(self.kind, self.actor, self.targets, self.rolls, {**self.data, **values}, self.rules, self.cast,
                     self.audience)

    def renamed(self, names: Mapping[str, str]) -> Event:
        """The same fact with participants renamed (old name → new): their ids and names both."""
        def new(cid: str) -> str:
            return names.get(cid, cid)

        cast = {new(k): Part(names.get(p.name, p.name), p.kind, p.player) for k, p in self.cast.items()}
        return Event(self.kind, new(self.actor), tuple(new(t) for t in self.targets), self.rolls, dict(self.data),
                     self.rules, cast, self.audience)

    def name(self, cid: str) -> str:
        part = self.cast.get(cid)
        return part.name if part is not None else cid

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "actor": self.actor, "targets": list(self.targets),
                               "rolls": [r.to_dict() for r in self.rolls], "data": dict(self.data),
                               "rules": list(self.rules), "cast": {k: p.to_list() for k, p in self.cast.items()},
                               "audience": self.audience}
        return out


def event_from_dict(raw: Mapping[str, Any]) -> Event:
    """An event written by `to_dict` (rolls as their dictionaries: the log keeps them so)."""
    from furnace.dice.result import roll_from_dict

    cast = {str(k): Part(*(str(x) for x in v)) for k, v in dict(raw.get("cast") or {}).items()}
    audience = raw.get("audience", "all")
    return Event(str(raw["kind"]), str(raw.get("actor", "")), tuple(str(t) for t in raw.get("targets", ())),
                 tuple(roll_from_dict(r) for r in raw.get("rolls", ())), dict(raw.get("data") or {}),
                 tuple(str(r) for r in raw.get("rules", ())), cast,
                 audience if audience in ("all", "referee", "player") else "referee")


@dataclass(frozen=True)
class FactKind:
    """A kind of fact: who may know each of its values, the rules it carries out, and example values (so that
    every kind can be told in a test without a fight)."""

    kind: str
    values: Mapping[str, Knowledge]
    example: Mapping[str, Any]
    roles: tuple[str, ...] = ("actor",)   # who the example's participants are: actor, target …

    def knowledge(self, key: str) -> Knowledge:
        return self.values.get(key, "referee")   # a value nobody declared stays with the referee


FACTS: dict[str, FactKind] = {}


def declare(kind: str, *, example: Mapping[str, Any] | None = None, targets: int = 0,
            **values: Knowledge) -> str:
    """Declare a kind of fact and who may know each of its values (`dc="target"`, `note="referee"`); the
    example's values default to 1 for each declared value. Returns the kind, for the recording code to use."""
    for key, know in values.items():
        if know not in KNOWLEDGE:
            raise ValueError(f"fact {kind}: {key} is known by {know!r}, not one of {KNOWLEDGE}")
    before = FACTS.get(kind)
    if before is not None:   # a kind several modules record (damage, heal): one meaning, its values joined
        clash = [k for k, know in values.items() if before.values.get(k, know) != know]
        if clash:
            raise ValueError(f"the fact kind {kind!r} is declared twice, with {', '.join(clash)} known otherwise")
        values = {**before.values, **values}
        example = {**before.example, **(example or {})}
        targets = max(targets, len(before.roles) - 1)
    sample = {key: 1 for key in values} | dict(example or {})
    FACTS[kind] = FactKind(kind, MappingProxyType(dict(values)), MappingProxyType(sample),
                           ("actor", *(f"target{i}" for i in range(targets))))
    return kind

"""Picking the choices a promotion or a level asks: each given one checked against its list, a missing one
picked by the dice (`random`) or named, with every other open choice, in one refusal (`ChoiceError`).

`Picker.some`/`one` fill a choice; `refuse` raises naming what is open; `event` says what the dice picked, one
fact per pick. Used by `furnace.campaign.choices` (promotion, levels) and `furnace.campaign.starting` (the
Human's swap, the starting kit).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from furnace import dice
from furnace.characters.character import Character, CharacterError
from furnace.characters.facts import fact
from furnace.dice import DiceSource
from furnace.dice.source import seeded
from furnace.events import Event, declare

# the choices the dice made, one fact per pick (`picked`: the choice and what was picked for it)
CHOICE = declare("choice", rolls="actor", picked="public", example={"picked": [["skills", ["Athletics", "Stealth"]]]})


class ChoiceError(CharacterError):
    """A choice off its list, or a required one missing: says what is allowed."""

    def __init__(self, message: str, choice: str, allowed: Sequence[str],
                 open_: dict[str, list[str]] | None = None) -> None:
        self.choice = choice
        self.allowed = list(allowed)
        self.open = dict(open_ or {choice: self.allowed})
        super().__init__(message)

    def to_dict(self) -> dict[str, object]:
        return {**super().to_dict(), "choice": self.choice, "allowed": self.allowed, "open": self.open}


@dataclass(frozen=True)
class Choices:
    """What the player chose for a promotion or a level (each a CLI option); `random` fills what is missing."""

    def values(self) -> frozenset[str]:
        """Every name given, for the stand-ins of open choices to keep clear of."""
        named = (self.char_class, self.archetype, self.save, self.style, self.ability, self.feature, self.weapon)
        return frozenset([*(n for n in named if n), *self.skills, *self.expertise, *self.spells, *self.cantrips])

    char_class: str | None = None
    archetype: str | None = None
    skills: tuple[str, ...] = ()
    expertise: tuple[str, ...] = ()
    save: str | None = None
    style: str | None = None
    spells: tuple[str, ...] = ()
    cantrips: tuple[str, ...] = ()
    ability: str | None = None
    feature: str | None = None
    weapon: str | None = None       # the martial melee weapon an archetype feature names (F-ARCH-03)
    kit: tuple[str, ...] = ()       # the starting kit's alternatives taken (F-TAB-40), each asked
    swap: tuple[str, ...] | None = None   # a Human's two scores swapped (F-RACE-02); () declines it
    random: bool = False
    more: bool = False              # spells and cantrips given for later levels too: take what this step opens


# -- picking: the dice fill a missing choice, or every open one is named at once --------------------------------
@dataclass(frozen=True)
class Open:
    """A choice left open: what it is, the option that gives it, how many to choose, from what, and why."""

    what: str
    flag: str
    count: int
    options: tuple[str, ...]
    why: str
    stage: str = ""                 # "level 4" when several levels are asked at once (`character new`)

    def said(self) -> str:
        many = f" (×{self.count})" if self.count > 1 else ""
        at = f"{self.stage}: " if self.stage else ""
        return f"{at}{self.flag}{many} {', '.join(self.options) or 'none'} [{self.why}]"


@dataclass
class Picker:
    """Fills the choices: a given one is checked, a missing one picked by the dice (with `random`) or noted as
    open with a stand-in (its first options) so that every open choice is named in one refusal (`refuse`)."""

    rng: DiceSource
    random: bool
    character: Character
    picked: list[tuple[str, list[str], list[dice.RollResult]]] = field(default_factory=list)
    open: list[Open] = field(default_factory=list)
    stage: str = ""
    given: frozenset[str] = frozenset()     # every value the player gave: a stand-in never takes one of them

    def some(self, what: str, flag: str, given: Sequence[str], count: int, open_: Sequence[str],
             why: str) -> list[str]:
        """`count` choices: those given, the rest picked with the dice (with `random`) or noted open."""
        chosen = list(given)
        for i, g in enumerate(chosen):
            if g in chosen[:i] or g not in open_:
                why_not = "is given twice" if g in chosen[:i] else "cannot be chosen here"
                raise ChoiceError(f"{g} {why_not}: {why}; open: {', '.join(open_) or 'none'}", what, open_)
        if len(chosen) > count:
            raise ChoiceError(f"{why}: {count} {what}, not {len(chosen)} ({', '.join(chosen)})", what, open_)
        pool = [o for o in open_ if o not in chosen]
        missing = min(count - len(chosen), len(pool))
        if missing <= 0:
            return chosen
        if len(pool) == missing:                  # no choice left: every open option is taken
            return chosen + pool
        if not self.random:
            self.open.append(Open(what, flag, missing, tuple(pool), why, self.stage))
            stand_ins = [o for o in pool if o not in self.given] + [o for o in pool if o in self.given]
            return chosen + stand_ins[:missing]
        rolls: list[dice.RollResult] = []
        new = [self._one(what, pool, rolls) for _ in range(missing)]
        self.picked.append((what, new, rolls))
        return chosen + new

    def one(self, what: str, flag: str, given: str | None, open_: Sequence[str], why: str) -> str:
        if given is not None:
            return given
        if not open_:
            raise ChoiceError(f"{why}: there is none to choose", what, [])
        return self.some(what, flag, (), 1, open_, why)[0]

    def decided(self, what: str, names: list[str]) -> None:
        """A pick `random` made without a die (the Human's swap), said like the others."""
        self.picked.append((what, names, []))

    def _one(self, what: str, pool: list[str], rolls: list[dice.RollResult]) -> str:
        if len(pool) == 1:
            return pool.pop()
        roll = dice.parse(f"d{len(pool)}").roll(self.rng, label=f"{what} at random")
        rolls.append(roll)
        return pool.pop(roll.total - 1)

    @property
    def dry(self) -> bool:
        """Some choice is open: what follows runs on stand-ins and a throw-away dice source, then is refused."""
        return bool(self.open)

    def source(self) -> DiceSource:
        """The dice for what follows the choices: the real ones, or (a choice open) a throw-away source, so that
        faces entered at the table are not spent on a promotion about to be refused."""
        return seeded(0) if self.open else self.rng

    def refuse(self, doing: str) -> None:
        """One refusal naming every open choice and its options (nothing changes), unless none is open."""
        refuse(self.character.name, doing, self.open)

    def event(self) -> list[Event]:
        """One fact per pick the dice (or `random`) made, each with its own dice: one line each when told."""
        return [fact(CHOICE, self.character, tuple(rolls), (), picked=[[what, list(names)]])
                for what, names, rolls in self.picked]


def a_or_an(noun: str) -> str:
    """'an Elf', 'a Dwarf'."""
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def spelled(given: str, allowed: Sequence[str], what: str) -> str:
    """A choice spelled as its list spells it (any case), or refused naming the list."""
    if isinstance(given, str):
        for a in allowed:
            if a.lower() == given.strip().lower():
                return a
    noun = what.split(" ", 1)[-1]
    raise ChoiceError(f"{given!r} is not {what}; {noun}s are {', '.join(allowed)}", noun, allowed)


def refuse(name: str, doing: str, opens: Sequence[Open]) -> None:
    """`ChoiceError` naming every open choice with its options, in one line (none open: nothing)."""
    if not opens:
        return
    first = opens[0]
    listed = "; ".join(o.said() for o in opens)
    raise ChoiceError(f"{name}'s {doing} leaves {len(opens)} choice(s) open: {listed}; give them, or pass --random",
                      first.what, list(first.options), {f"{o.stage} {o.flag}".strip(): list(o.options) for o in opens})

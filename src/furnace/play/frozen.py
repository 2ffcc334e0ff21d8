"""The engine's immutable values (a combatant, an encounter): our own frozen stdlib dataclasses, not pydantic models.

A fight copies a combatant at every change (tens of thousands of times a second) and reads her fields ~900 times a
fight, so she is a plain object: her fields in her own `__dict__`, read without a library's hooks, and a copy with
changes is that dict copied and updated (`updated`), made without validation as `model_copy(update=…)` makes it.
Pydantic validates her at the edges — a fight file's monsters, a character's numbers, the campaign's stored
encounter (a stdlib dataclass inside a pydantic model) — through a `TypeAdapter` of the class (`Frozen`'s
`model_validate` and `model_dump`, named as the models' own so that the callers read them alike).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Self, TypeVar

if TYPE_CHECKING:
    from pydantic import TypeAdapter

    from furnace.play.combatant import Combatant

V = TypeVar("V")
_set = object.__setattr__
_new = object.__new__
_ADAPTERS: dict[type, TypeAdapter[Any]] = {}


def updated(value: V, changes: Mapping[str, Any]) -> V:
    """A copy of a `Frozen` value with these fields changed, unvalidated (the engine's changes are its own)."""
    new = _new(type(value))
    _set(new, "__dict__", {**value.__dict__, **changes})
    return new


def adapter(cls: type) -> TypeAdapter[Any]:
    """Pydantic's validator and serialiser of a `Frozen` class, made at its first use (a command that never
    validates one does not build it)."""
    found = _ADAPTERS.get(cls)
    if found is None:
        from pydantic import TypeAdapter

        found = _ADAPTERS[cls] = TypeAdapter(cls)
    return found


class Frozen:
    """The base of a frozen stdlib dataclass of the engine: a cheap copy with changes, and pydantic's validation
    and serialisation at the edges under the names the pydantic models use."""

    __slots__ = ()

    def model_copy(self, *, update: Mapping[str, Any] | None = None) -> Self:
        """This value with the fields of `update` changed (unvalidated, as pydantic's `model_copy`)."""
        return updated(self, update or {})

    @classmethod
    def model_validate(cls, data: Any) -> Self:
        """A value of this class from its fields (a mapping, or one already made), validated and coerced by
        pydantic; a pydantic ValidationError when they do not make one."""
        made: Self = adapter(cls).validate_python(data)
        return made

    def model_dump(self, *, mode: Literal["json", "python"] = "python", include: set[str] | None = None,
                   exclude: set[str] | None = None, exclude_defaults: bool = False) -> dict[str, Any]:
        """Its fields as a dict (`mode="json"`: as JSON holds them), as pydantic dumps a model."""
        dumped: dict[str, Any] = adapter(type(self)).dump_python(
            self, mode=mode, include=include, exclude=exclude, exclude_defaults=exclude_defaults)
        return dumped


class ChapterState(Frozen):
    """The base of a chapter's own state on a combatant (magic's spells cast, a Cleric's disapproval range …), kept
    in `Combatant.chapters` under the chapter's key and registered in `registry.CHAPTER_STATES`: the engine copies
    it with her and never reads it. `FLAT`: each field's name as a combatant held it among her own fields before
    chapters kept their state, and the field it followed — how a stored encounter of that time is read
    (`combatant.chapters_placed`) and how the JSON views still print her (`combatant.flat`)."""

    __slots__ = ()
    FLAT: ClassVar[dict[str, str]] = {}
    KEY: ClassVar[str] = ""          # the chapter's key in `Combatant.chapters`

    @classmethod
    def on(cls, c: Combatant) -> Self:
        """The state this chapter keeps on her (its defaults while it keeps none)."""
        found: Self | None = c.chapters.get(cls.KEY)
        return found if found is not None else _defaults(cls)

    @classmethod
    def changed_on(cls, c: Combatant, **changes: Any) -> dict[str, Any]:
        """The change of her fields that sets these of this chapter's state: for `Step.update(cid, **…)` or
        `model_copy`."""
        return {"chapters": {**c.chapters, cls.KEY: updated(cls.on(c), changes)}}


_DEFAULTS: dict[type, Any] = {}


def _defaults(cls: type[V]) -> V:
    """A chapter state's defaults, made once (a value: every combatant without one shares it)."""
    found: V | None = _DEFAULTS.get(cls)
    if found is None:
        found = _DEFAULTS[cls] = cls()
    return found

"""A cheap copy of a frozen pydantic model with some fields changed: `model_copy(update=…)` without its cost.

The engine copies a combatant at every change of a fight (tens of thousands of times a second), and pydantic's
`model_copy` goes through `__copy__`, `copy.copy` of each of its parts and the private-attribute filter. This
does what `model_copy(update=changes)` does for a model with no extra fields — the fields copied, the changes
set without validation, the changed names added to the fields set — in one step.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import BaseModel
from pydantic_core import PydanticUndefined

M = TypeVar("M", bound=BaseModel)
_set = object.__setattr__
_new = object.__new__
# by model class: None when it allows extra fields (copied the pydantic way), else whether it is frozen (then a copy
# whose fields set would not change shares it: nothing adds to a frozen model's fields set in place)
_KIND: dict[type, bool | None] = {}
_PLAIN: set[type] = set()       # frozen, no extra fields, no private attributes: only its fields to copy


def updated(model: M, changes: Mapping[str, Any]) -> M:
    """`model.model_copy(update=changes)`, faster; a model allowing extra fields goes the pydantic way (it sorts
    the changes into fields and extras)."""
    cls = type(model)
    if cls in _PLAIN:
        new = _new(cls)
        fields = model.__dict__.copy()
        fields.update(changes)
        _set(new, "__dict__", fields)
        fields_set = model.__pydantic_fields_set__
        _set(new, "__pydantic_fields_set__",
             fields_set if fields_set.issuperset(changes) else fields_set | changes.keys())
        _set(new, "__pydantic_extra__", None)
        _set(new, "__pydantic_private__", None)
        return new
    try:
        frozen = _KIND[cls]
    except KeyError:
        config = cls.model_config
        frozen = _KIND[cls] = None if config.get("extra") == "allow" else bool(config.get("frozen"))
        if frozen and not cls.__private_attributes__:
            _PLAIN.add(cls)
    if frozen is None:
        return model.model_copy(update=changes)
    new = _new(cls)
    fields = model.__dict__.copy()
    fields.update(changes)
    _set(new, "__dict__", fields)
    fields_set = model.__pydantic_fields_set__
    _set(new, "__pydantic_fields_set__",
         fields_set if frozen and fields_set.issuperset(changes) else fields_set | changes.keys())
    extra = model.__pydantic_extra__
    _set(new, "__pydantic_extra__", None if extra is None else dict(extra))
    private = model.__pydantic_private__
    _set(new, "__pydantic_private__",
         None if private is None else {k: v for k, v in private.items() if v is not PydanticUndefined})
    return new

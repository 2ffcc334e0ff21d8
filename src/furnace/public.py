"""The public paths into Furnace, which mark themselves when they are entered.

A user reaches the rules by one of three doors: a `furnace` command (the CLI), a console route (the web app)
or a campaign command (`Store.apply` and `Store.undo`, which both of them call). Each door runs its work
inside `entered(kind, name)`, which sets a context variable for the work below it and tells the observers.

The test suite's rule-mark plugin observes the doors to check that a test marked as showing a rule went
through one of them; a test that drives a subprocess (a real server, `make run`) sets `FURNACE_PATH_TRACE`
to a file to which each entry appends a line. Nothing else reads either: outside tests this costs a context
variable set and reset per command.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Literal

Kind = Literal["cli", "console", "campaign"]
Observer = Callable[[str, str], None]

_current: ContextVar[tuple[str, str] | None] = ContextVar("furnace_public_path", default=None)
# the first door entered: its kind, and a mark of this entry (what is kept for the entry is known by it)
_outer: ContextVar[tuple[str, object] | None] = ContextVar("furnace_public_door", default=None)
_observers: list[Observer] = []


@contextmanager
def entered(kind: Kind, name: str) -> Iterator[None]:
    """Run the block as the public path `kind` (`cli`, `console`, `campaign`) named `name`."""
    token = _current.set((kind, name))
    outer = _outer.set(_outer.get() or (kind, object()))
    for observer in tuple(_observers):
        observer(kind, name)
    trace = os.environ.get("FURNACE_PATH_TRACE")
    if trace:
        _append(trace, kind, name)
    try:
        yield
    finally:
        _outer.reset(outer)
        _current.reset(token)


def current() -> tuple[str, str] | None:
    """The innermost public path the running code came in by, or None for a direct library call."""
    return _current.get()


def door() -> tuple[str, object] | None:
    """The outermost public path the running code came in by (`cli` for a campaign command a `furnace` command
    ran) with a mark of that entry (another entry, another mark), or None for a direct library call."""
    return _outer.get()


def observe(observer: Observer) -> Callable[[], None]:
    """Tell `observer(kind, name)` of every entry from now on; the function returned stops it."""
    _observers.append(observer)
    return lambda: _observers.remove(observer) if observer in _observers else None


def _append(path: str, kind: str, name: str) -> None:
    line = f"{kind}\t{' '.join(name.split())}\n"
    try:
        with open(path, "a", encoding="utf-8") as out:
            out.write(line)
    except OSError:   # a trace is a test's aid: a path that cannot be written never stops a command
        pass

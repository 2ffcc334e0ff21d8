"""What the command line does before its first command, to start fast.

Pydantic looks for its plug-ins the first time it builds a model, through `importlib.metadata`: importing that
(email, zipfile, csv, socket) and reading every installed distribution's metadata costs a command 15-40 ms, a
tenth of a campaign read. Here Pydantic's loader is given as one that reads the installed packages' entry points
without it (`furnace.play.entrypoints.entry_points`, the same cheap reading that finds the chapters, done once a
process) when it is first asked: no package declares a `pydantic` plug-in, it finds none — what Pydantic's own
would answer; one does, Pydantic's own loader is imported and loads it, as always. A command that builds no model
(`furnace roll`) reads nothing.

Python's cyclic garbage collector runs a young collection every 700 objects made: importing click, Pydantic and our
models makes enough for ~90 of them in a fight's start (~20 ms, 6-8 % of `fight`, `funnel`, `roll` and `odds
attack`), and they find next to nothing, since a command's objects live until it ends. `collect_seldom` makes that
every 100,000 objects, as mypy's command line does: reference counting still frees at once what has no cycle, and a
long process (`furnace shell`, `furnace serve`, `simulate`) still collects, a few MB of cycles at a time.

At exit, Python collects every object's cycles once more before it ends (~15-30 ms a full collection of a fight's
60,000-odd objects, and the modules' teardown makes it run more: ~100 ms of `furnace fight`, ~25 ms of `furnace roll`)
to run the finalizers of what only a cycle holds, when the process is about to free all its memory anyway.
`collect_nothing_at_exit` freezes what is left (`gc.freeze`) when the process opened no database, or closed every
campaign store it opened (`furnace.campaign.store.every_store_closed`: a campaign command closes its store as it ends)
— a database's connections are what a command could leave to be finalized (a SQLite connection closes its write-ahead
log): a command's files are written whole and closed (`furnace.files`), and what is freed by its count of references
still is as the modules are torn down.

The dice expressions a command rolls are compiled into functions (`furnace.dice.compiled`), a few hundred microseconds
each; here their code is read from what an earlier command compiled of the same source (`keep_dice_code`). So is the
code of a dataclass's methods (`keep_dataclass_code`): `dataclasses` writes each method's source and compiles it, ~1 ms
a class, and a fight makes ~90 classes (~35 ms of `furnace fight`); the code compiled of the same source is the same.
"""

from __future__ import annotations

import atexit
import gc
import importlib
import sys
import types
from collections.abc import Iterable
from typing import Any

YOUNG = 100_000                        # objects made between young collections (Python's default: 700)
DATABASES = ("sqlite3", "sqlalchemy")  # a process that imported one of these may hold a connection to finalize
MAX_METHODS = 4096                     # dataclasses' methods kept (a fight makes ~400, a campaign command more)
LOADER = "pydantic.plugin._loader"     # the module Pydantic imports its `get_plugins` from, on its first model


def get_plugins() -> Iterable[Any]:
    """Pydantic's plug-ins: none unless a package declares one, then those its own loader finds."""
    from furnace.play.entrypoints import entry_points

    if not entry_points("pydantic"):
        return ()
    if sys.modules.get(LOADER) is _STAND_IN:
        del sys.modules[LOADER]
    found: Iterable[Any] = importlib.import_module(LOADER).get_plugins()
    return found


_STAND_IN = types.ModuleType(LOADER, "Pydantic's plug-in loader, read without importlib.metadata (furnace.cli.startup)")
_STAND_IN.get_plugins = get_plugins  # type: ignore[attr-defined]


def keep_dice_code() -> None:
    """Have the dice expressions' compiled functions (`furnace.dice.compiled`) read from the code an earlier command
    compiled of the same source (`furnace.rules.cache.kept_code`), not compiled again: a fight compiles ten."""
    from furnace import dice

    dice.compile_source = _kept_code


def _kept_code(source: str, filename: str) -> types.CodeType:
    from furnace.rules.cache import kept_code  # (here: a command that rolls nothing imports no cache)

    return kept_code(source, filename)


def keep_dataclass_code() -> None:
    """Have the dataclasses made from here on read their methods' code from what an earlier command compiled of the
    same source (`furnace.rules.cache.kept_code`), not compiled again: `dataclasses` runs each method's source with
    `exec`, which here runs the code kept of it."""
    import dataclasses  # (here: imported after `collect_seldom`, as the rest of the command line is)

    dataclasses.exec = _exec_kept  # type: ignore[attr-defined]   # (the module's name, before the builtin's)


def _exec_kept(source: str | types.CodeType, scope: dict[str, Any] | None = None,
               names: dict[str, Any] | None = None) -> None:
    """`exec(source, scope, names)` as dataclasses calls it, a source's code read from the code kept of it."""
    if isinstance(source, str):
        from furnace.rules.cache import kept_code

        source = kept_code(source, "<string>", name="methods", most=MAX_METHODS, at_exit=True)
    exec(source, scope, names)


def read_pydantic_plugins_cheaply() -> None:
    """Stand in for Pydantic's plug-in loader until it is first asked (unless it is already imported)."""
    sys.modules.setdefault(LOADER, _STAND_IN)


def collect_seldom() -> None:
    """A young collection every `YOUNG` objects made, not 700 (the older generations' thresholds kept)."""
    young, middle, old = gc.get_threshold()
    gc.set_threshold(max(YOUNG, young), middle, old)


def collect_nothing_at_exit() -> None:
    """At exit, no collection of the cycles left, unless a database may be open (see the module's note)."""
    atexit.register(_freeze_unless_a_database_is_open)


def _freeze_unless_a_database_is_open() -> None:
    if not any(name in sys.modules for name in DATABASES) or _every_store_closed():
        gc.freeze()


def _every_store_closed() -> bool:
    """A campaign command's database is its store's (the command closes it as it ends): none left open, no
    connection is left to finalize. (Another connection — a backup's, a restore's — is closed where it is opened.)"""
    store = sys.modules.get("furnace.campaign.store")
    return store is not None and bool(store.every_store_closed())

"""What the command line does before its first command, to start fast.

Pydantic looks for its plug-ins the first time it builds a model, through `importlib.metadata`: importing that
(email, zipfile, csv, socket) and reading every installed distribution's metadata costs a command 15-40 ms, a
tenth of a campaign read. The installed packages' entry points are read here without it
(`furnace.play.registry.entry_points`, the same cheap reading that finds the chapters, done once a process): when no
package declares a `pydantic` plug-in, Pydantic's loader is given as one that finds none — what its own would
answer. When one does, Pydantic loads it itself, as always.
"""

from __future__ import annotations

import sys
import types

LOADER = "pydantic.plugin._loader"     # the module Pydantic imports its `get_plugins` from, on its first model


def no_plugins() -> tuple[()]:
    return ()


def skip_pydantic_plugin_scan() -> bool:
    """Answer Pydantic's plug-in look-up without `importlib.metadata` when no plug-in is installed; whether it did."""
    from furnace.play.registry import entry_points

    if LOADER in sys.modules or entry_points("pydantic"):
        return False      # too late to save anything, or a plug-in to load: Pydantic's own loader
    loader = types.ModuleType(LOADER, "Pydantic's plug-in loader when no plug-in is installed (furnace.cli.startup)")
    loader.get_plugins = no_plugins  # type: ignore[attr-defined]
    sys.modules[LOADER] = loader
    return True

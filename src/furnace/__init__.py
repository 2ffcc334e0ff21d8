"""Furnace: a rules engine and referee's toolkit for the Furnace tabletop RPG."""

from furnace import speedups
from furnace.errors import FurnaceError

speedups.install()      # the engine's compiled modules, where they were built from the sources as they are

__all__ = ["FurnaceError", "__version__"]
__version__ = "0.1.0"

"""Furnace: a rules engine and referee's toolkit for the Furnace tabletop RPG."""

from furnace.errors import FurnaceError

__all__ = ["FurnaceError", "__version__"]
__version__ = "0.1.0"

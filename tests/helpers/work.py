"""The work a call does, counted: a bound is shown by the work, never by the clock (issue 20).

    with counted() as work:
        dice.parse("1000d6").distribution()
    assert work.odds == 0 and work.dice == 0      # refused before the work started

While the block runs, the library's own choke points are wrapped and counted:

    dice       faces the library takes from a dice source: `random()` or `randrange()` of a `random.Random`
               or `SystemRandom` (the compiled rolls and the general roller), a `ScriptedDice` (the library's
               own too: a roll replays its faces to explain itself) or the faces a table enters; calls made by
               anything but the library (a test's, hypothesis's own draws) are not counted
    odds       steps of exact odds worked out: entries written to a distribution's tables, terms of the prefix
               sums a sum of dice is folded with (`furnace.dice.odds`)
    estimated  parts of an expression the odds' estimate visited (`odds.estimate`, before any work)
    bytes      bytes read from users' files (`furnace.files.read_text`, the one reader of users' files; the
               packaged data it reads into the cache is not counted)
    firings    clock entries fired (`furnace.play.clock.advance`)

The counts are deterministic: the same call counts the same on an idle machine and a busy one.
"""

from __future__ import annotations

import io
import os
import random
import sys
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import accumulate
from types import FrameType
from typing import Any, TypeVar

import pytest

import furnace
from furnace import files
from furnace.dice import group_odds, odds
from furnace.dice.source import EnteredFaces, ScriptedDice
from furnace.play import clock

T = TypeVar("T")
COMPILED = "<furnace.dice.compiled>"     # the file name of the compiled rolls (furnace.dice.compiled)
PACKAGE = os.path.realpath(os.path.dirname(furnace.__file__)) + os.sep


@dataclass
class Work:
    dice: int = 0
    odds: int = 0
    estimated: int = 0
    bytes: int = 0
    firings: int = 0

    def __str__(self) -> str:
        return (f"{self.dice:,} dice, {self.odds:,} odds steps, {self.estimated:,} parts estimated, "
                f"{self.bytes:,} bytes read, {self.firings:,} firings")


def _library(frame: FrameType | None) -> bool:
    """The caller is the library (a furnace module or a compiled roll), not a test or hypothesis."""
    if frame is None:
        return False
    return str(frame.f_globals.get("__name__") or "").startswith("furnace") or frame.f_code.co_filename == COMPILED


_ACTIVE: list[Work] = []     # the counts open now (a count may open inside another: both count)


def _add(counter: str, n: int = 1) -> None:
    for work in _ACTIVE:
        setattr(work, counter, getattr(work, counter) + n)


@contextmanager
def counted() -> Iterator[Work]:
    """Count the library's work while the block runs (see the module's docstring)."""
    work = Work()
    if _ACTIVE:                  # inside another count: the wrappers are in place
        _ACTIVE.append(work)
        try:
            yield work
        finally:
            _ACTIVE.remove(work)
        return
    with pytest.MonkeyPatch.context() as mp:
        _wrap(mp)
        _ACTIVE.append(work)
        try:
            yield work
        finally:
            _ACTIVE.remove(work)


class _Reader(io.RawIOBase):
    """A user's file opened by furnace.files, its bytes counted as they are read."""

    def __init__(self, stream: Any) -> None:
        super().__init__()
        self.stream = stream

    def fileno(self) -> int:
        return int(self.stream.fileno())

    def read(self, size: int | None = -1) -> bytes:
        data: bytes = self.stream.read(size)
        _add("bytes", len(data))
        return data

    def close(self) -> None:
        self.stream.close()
        super().close()


def _wrap(mp: pytest.MonkeyPatch) -> None:
    """Put the counting wrappers around the library's choke points."""
    def dice_counter(cls: type, name: str) -> None:
        original = getattr(cls, name)

        def counting(self: Any, *args: Any, **kwargs: Any) -> Any:
            if _library(sys._getframe(1)):
                _add("dice")
            return original(self, *args, **kwargs)

        mp.setattr(cls, name, counting)

    dice_counter(random.Random, "random")
    dice_counter(random.Random, "randrange")
    dice_counter(random.SystemRandom, "random")     # its own; its randrange is Random's
    dice_counter(ScriptedDice, "randrange")
    dice_counter(EnteredFaces, "randrange")

    class Table(defaultdict):  # type: ignore[type-arg]
        def __setitem__(self, key: Any, value: Any) -> None:
            _add("odds")
            super().__setitem__(key, value)

    def prefix_sums(values: Iterable[T], *args: Any, **kwargs: Any) -> Iterator[T]:
        for value in accumulate(values, *args, **kwargs):
            _add("odds")
            yield value

    for module in (odds, group_odds):       # the exact odds' tables of totals, and the dice groups' own
        mp.setattr(module, "defaultdict", Table)
        if hasattr(module, "accumulate"):
            mp.setattr(module, "accumulate", prefix_sums)
    for name in ("_leaf_estimate", "_inner_estimate"):
        mp.setattr(odds, name, _counting(getattr(odds, name), "estimated"))

    fdopen = os.fdopen

    def opening(fd: int, *args: Any, **kwargs: Any) -> Any:
        stream = fdopen(fd, *args, **kwargs)
        caller = sys._getframe(1)
        if caller.f_code.co_filename == files.__file__ and (args[0] if args else kwargs.get("mode", "r")) == "rb":
            path = os.path.realpath(os.fspath(caller.f_locals.get("path", "")))
            if not path.startswith(PACKAGE):      # the packaged data, read once into the cache, is not counted
                return _Reader(stream)
        return stream

    mp.setattr(os, "fdopen", opening)
    mp.setattr(clock, "_fire", _counting(clock._fire, "firings"))


def _counting(function: Callable[..., T], counter: str) -> Callable[..., T]:
    def counting(*args: Any, **kwargs: Any) -> T:
        _add(counter)
        return function(*args, **kwargs)

    return counting

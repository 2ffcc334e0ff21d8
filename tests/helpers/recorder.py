"""A test dice source shared by the dice tests."""

from __future__ import annotations


class Recorder:
    """A dice source that shows 1 on every die and records which dice were asked for."""

    def __init__(self) -> None:
        self.sides: list[int] = []

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        self.sides.append(start if stop is None else stop - start)
        return 0

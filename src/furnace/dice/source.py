"""Dice sources: where randomness comes from. Nothing in Furnace calls the global `random`."""

from __future__ import annotations

import random
from collections.abc import Iterable

from furnace.errors import FurnaceError


def seeded(seed: int | str | None) -> random.Random:
    """A reproducible source for tests and replays (`None` seeds from the system)."""
    return random.Random(seed)


def system() -> random.Random:
    """The source a server uses: the operating system's cryptographic generator."""
    import secrets  # not on the roll path of a seeded roll

    return secrets.SystemRandom()


class ScriptExhausted(FurnaceError):
    """A scripted source was asked for more dice than it was given."""


class ScriptedDice:
    """Returns the given faces in order, so a rule test can say exactly what the dice showed.

    `ScriptedDice([17, 3])` makes the next d20 show 17 and the next die 3. A face larger than the die
    raises, which catches a test that scripted the wrong die.
    """

    def __init__(self, faces: Iterable[int]) -> None:
        self.faces = list(faces)
        self.used: list[tuple[int, int]] = []

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        low, high = (0, start) if stop is None else (start, stop)
        if not self.faces:
            raise ScriptExhausted(f"scripted dice ran out (asked for a d{high - low})")
        face = self.faces.pop(0)
        if not 1 <= face <= high - low:
            raise ValueError(f"scripted face {face} cannot come up on a d{high - low}")
        self.used.append((face, high - low))
        return low + face - 1

    def random(self) -> float:  # for code paths that shuffle or choose
        return 0.0

    @property
    def remaining(self) -> int:
        return len(self.faces)

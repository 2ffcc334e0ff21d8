"""Dice sources: where randomness comes from. Nothing in Furnace calls the global `random`."""

from __future__ import annotations

import random
from collections.abc import Iterable

from furnace.dice.values import MAX_SIDES, DiceValueError, shown
from furnace.errors import FurnaceError

MAX_SCRIPT = 100_000   # faces in one script: far more than any rule test scripts


def seeded(seed: int | str | None) -> random.Random:
    """A reproducible source for tests and replays (`None` seeds from the system)."""
    if seed is not None and not isinstance(seed, int | str | bytes):
        raise DiceValueError(f"a seed is a whole number, a text or None, not {type(seed).__name__}")
    return random.Random(seed)


def system() -> random.Random:
    """The source a server uses: the operating system's cryptographic generator."""
    import secrets  # not on the roll path of a seeded roll

    return secrets.SystemRandom()


class ScriptExhausted(FurnaceError):
    """A scripted source was asked for more dice than it was given."""


class ScriptedFaceError(DiceValueError, ValueError):
    """A scripted face that the die asked for cannot show (a `DiceError`, and a `ValueError` as it was)."""


class ScriptedDice:
    """Returns the given faces in order, so a rule test can say exactly what the dice showed.

    `ScriptedDice([17, 3])` makes the next d20 show 17 and the next die 3. A face larger than the die
    raises, which catches a test that scripted the wrong die.
    """

    def __init__(self, faces: Iterable[int]) -> None:
        if isinstance(faces, str | bytes) or not isinstance(faces, Iterable):
            raise DiceValueError(f"scripted dice take a list of faces, not {type(faces).__name__}")
        self.faces: list[int] = []
        for face in faces:
            if type(face) is not int or not 1 <= face <= MAX_SIDES:
                raise DiceValueError(f"a scripted face is a whole number from 1 to {MAX_SIDES:,}, not {shown(face)}")
            if len(self.faces) >= MAX_SCRIPT:
                raise DiceValueError(f"a script holds at most {MAX_SCRIPT:,} faces")
            self.faces.append(face)
        self.used: list[tuple[int, int]] = []

    @classmethod
    def replay(cls, faces: tuple[int, ...]) -> ScriptedDice:
        """The faces a roll recorded (already checked), to explain that roll."""
        script = cls.__new__(cls)
        script.faces = list(faces)
        script.used = []
        return script

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        low, high = (0, start) if stop is None else (start, stop)
        if not self.faces:
            raise ScriptExhausted(f"scripted dice ran out (asked for a d{high - low})")
        face = self.faces.pop(0)
        if not 1 <= face <= high - low:
            raise ScriptedFaceError(f"scripted face {face} cannot come up on a d{high - low}")
        self.used.append((face, high - low))
        return low + face - 1

    def random(self) -> float:  # for code paths that shuffle or choose
        return 0.0

    @property
    def remaining(self) -> int:
        return len(self.faces)

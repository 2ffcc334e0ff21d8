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
    """The source a server uses: the operating system's cryptographic generator (`secrets.SystemRandom` is this
    class; importing `secrets` would cost every roll its hmac and hashlib imports)."""
    return random.SystemRandom()


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
    def replay(cls, faces: tuple[int, ...]) -> Replay:
        """The faces a roll recorded (already checked), to explain that roll."""
        return Replay(faces)

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


class Replay:
    """The faces a roll recorded, handed back in order to explain it: a group takes its faces as one slice.

    Like `ScriptedDice`, it refuses a face its die cannot show and running short; it trusts the faces to be whole
    numbers (they come from a roll).
    """

    __slots__ = ("at", "faces")

    def __init__(self, faces: tuple[int, ...]) -> None:
        self.faces = faces
        self.at = 0

    def take(self, sides: int, count: int) -> list[int]:
        at, end = self.at, self.at + count
        if end > len(self.faces):
            raise ScriptExhausted(f"scripted dice ran out (asked for a d{sides})")
        faces = list(self.faces[at:end])
        if faces and (min(faces) < 1 or max(faces) > sides):
            wrong = next(f for f in faces if not 1 <= f <= sides)
            raise ScriptedFaceError(f"scripted face {wrong} cannot come up on a d{sides}")
        self.at = end
        return faces

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        low, high = (0, start) if stop is None else (start, stop)
        return low + self.take(high - low, 1)[0] - 1

    @property
    def remaining(self) -> int:
        return len(self.faces) - self.at


# -- faces rolled at the table -----------------------------------------------------------------------------------
MAX_ENTERED = 1_000        # faces one command takes from the table: a long rest of a large party, with room
_ORDINAL = {1: "st", 2: "nd", 3: "rd"}


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th … 11th, 12th, 13th, 21st."""
    return f"{n}{'th' if 10 <= n % 100 <= 20 else _ORDINAL.get(n % 10, 'th')}"


class EnteredFaceError(DiceValueError):
    """Faces entered from the table that do not fit what the command rolled: a face the die cannot show,
    too few faces, or faces left over."""


class EnteredFaces:
    """The faces the players rolled at the table (`--faces 14,3`), handed to a command's dice in order.

    Each face is checked against the die the command asks for: a 7 entered where the command rolls a d6 is
    refused naming the die and the face's position. Running short is refused at the first die that has no
    face, naming it; `finish()` refuses faces left over, saying how many the command needed. A command that
    takes entered faces logs its rolls with `entered: true`.
    """

    def __init__(self, faces: Iterable[int]) -> None:
        if isinstance(faces, str | bytes) or not isinstance(faces, Iterable):
            raise EnteredFaceError(f"entered faces are a list of whole numbers, not {type(faces).__name__}")
        self.faces: list[int] = []
        for face in faces:
            position = ordinal(len(self.faces) + 1)
            if type(face) is not int or not 1 <= face <= MAX_SIDES:
                raise EnteredFaceError(f"the {position} face entered, {shown(face)}, is not a whole number from 1 "
                                       f"to {MAX_SIDES:,}")
            if len(self.faces) >= MAX_ENTERED:
                raise EnteredFaceError(f"at most {MAX_ENTERED:,} faces can be entered for one command")
            self.faces.append(face)
        self.used: list[tuple[int, int]] = []      # (face, sides) in the order the command rolled them

    @classmethod
    def parse(cls, text: str) -> EnteredFaces:
        """Faces as typed: `14,3`, `14 3` or `14, 3`."""
        if not isinstance(text, str):
            raise EnteredFaceError(f"entered faces are text such as '14,3', not {type(text).__name__}")
        words = text.replace(",", " ").split()
        if not words:
            raise EnteredFaceError("no faces entered: give the faces rolled, in order, such as --faces 14,3")
        if len(words) > MAX_ENTERED:
            raise EnteredFaceError(f"at most {MAX_ENTERED:,} faces can be entered for one command")
        faces = []
        for n, word in enumerate(words, 1):
            if not word.isascii() or not word.isdigit() or len(word) > 6:
                raise EnteredFaceError(f"the {ordinal(n)} face entered, {shown(word)}, is not a whole number")
            faces.append(int(word))
        return cls(faces)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        low, high = (0, start) if stop is None else (start, stop)
        sides = high - low
        position = len(self.used) + 1
        if position > len(self.faces):
            rolled = f" ({self.dice()})" if self.used else ""
            raise EnteredFaceError(f"the command needs more than the {len(self.faces)} face(s) entered{rolled}: its "
                                   f"{ordinal(position)} die is a d{sides}; roll it and enter every face again")
        face = self.faces[position - 1]
        if not 1 <= face <= sides:
            raise EnteredFaceError(f"the {ordinal(position)} face entered, {face}, cannot come up on the d{sides} "
                                   f"the command rolls there (1 to {sides})")
        self.used.append((face, sides))
        return low + face - 1

    def rewind(self) -> None:
        """Start again from the first face (a command run again after a clash with another writer)."""
        self.used = []

    def random(self) -> float:
        raise EnteredFaceError("this command draws at random without rolling a die; it cannot take entered faces")

    def dice(self) -> str:
        """The dice rolled so far and the faces they took: 'd20 14, d6 3'."""
        return ", ".join(f"d{sides} {face}" for face, sides in self.used)

    @property
    def remaining(self) -> int:
        return len(self.faces) - len(self.used)

    def finish(self) -> None:
        """Refuse faces left over: the command rolled fewer dice than were entered."""
        if self.remaining:
            left = ", ".join(str(f) for f in self.faces[len(self.used):])
            rolled = f" ({self.dice()})" if self.used else ""
            raise EnteredFaceError(f"the command needed {len(self.used)} face(s){rolled} but {len(self.faces)} were "
                                   f"entered: {left} left over; nothing was changed")

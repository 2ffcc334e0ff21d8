"""Real dice at the table: `--faces 14,3` on any command that rolls.

    @faces_option
    @seed_option
    def check(..., seed: int | None, faces: str | None) -> None:
        rng = rng_from(seed, faces)
        result = run_check(rng, ...)
        finish(rng)                  # refuses faces left over (the command rolled fewer dice)

`rng_from` gives an `EnteredFaces` source when faces were entered (each face checked against the die the
command asks for), else the seeded or the system source. A command that logs to the campaign checks the faces
inside its transaction instead (`furnace.campaign.session.with_faces`), so refused faces change nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from furnace import dice
from furnace.dice.source import EnteredFaces
from furnace.errors import FurnaceError

F = TypeVar("F", bound=Callable[..., Any])


def faces_option(fn: F) -> F:
    """`--faces F1,F2,…` (the parameter `faces`: text or None)."""
    return click.option("--faces", "faces", default=None, metavar="F1,F2,…",
                        help="The faces rolled at the table, in the order the command rolls its dice (e.g. --faces "
                             "14,3); each is checked against its die, and too few or too many are refused.")(fn)


def rng_from(seed: int | None, faces: str | None) -> dice.DiceSource:
    """The command's dice: the faces entered, else the seed, else the system's randomness."""
    if faces is not None:
        if seed is not None:
            raise FurnaceError("--faces and --seed: give one (the faces entered are the dice)")
        return EnteredFaces.parse(faces)
    return dice.seeded(seed) if seed is not None else dice.system()


def entered(rng: object) -> bool:
    """Whether the dice are faces entered at the table."""
    return isinstance(rng, EnteredFaces)


def finish(rng: object) -> None:
    """After a command that does not log: refuse entered faces it did not use."""
    if isinstance(rng, EnteredFaces):
        rng.finish()

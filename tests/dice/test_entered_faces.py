"""`EnteredFaces`: the faces rolled at the table, handed to a command's dice in order and checked die by die;
and the CLI's `rng_from` / `finish` (`furnace.cli.dice_options`)."""

from __future__ import annotations

import random

import pytest

from furnace import dice
from furnace.cli.dice_options import entered, finish, rng_from
from furnace.dice.source import EnteredFaceError, EnteredFaces, ordinal
from furnace.errors import DiceError, FurnaceError


def test_faces_are_handed_out_in_order_and_explained() -> None:
    faces = EnteredFaces([14, 3])
    result = dice.roll("d20+d6+2", faces, label="ATK")
    assert (result.total, result.faces) == (19, (14, 3))
    assert result.explain() == "ATK: d20+d6+2 → [14] + [3] + 2 = 19"
    assert faces.used == [(14, 20), (3, 6)] and faces.remaining == 0 and faces.dice() == "d20 14, d6 3"
    faces.finish()


def test_keep_drop_reroll_and_advantage_take_one_face_a_die() -> None:
    assert dice.roll("4d6kh3", EnteredFaces([6, 5, 3, 1])).total == 14
    assert dice.roll("d20adv", EnteredFaces([4, 17])).total == 17
    rerolled = EnteredFaces([1, 4, 5])
    assert dice.roll("2d6ro1", rerolled).total == 9 and rerolled.remaining == 0
    assert dice.roll("d%", EnteredFaces([100])).total == 100


def test_a_face_the_die_cannot_show_names_the_die_and_the_position() -> None:
    faces = EnteredFaces([14, 7])
    with pytest.raises(EnteredFaceError, match=r"the 2nd face entered, 7, cannot come up on the d6 the command "
                                               r"rolls there \(1 to 6\)"):
        dice.roll("d20+d6", faces)


def test_running_short_names_the_next_die() -> None:
    with pytest.raises(EnteredFaceError, match=r"needs more than the 1 face\(s\) entered \(d20 14\): its 2nd die "
                                               r"is a d8"):
        dice.roll("d20+d8", EnteredFaces([14]))


def test_faces_left_over_are_refused_with_the_count_needed() -> None:
    faces = EnteredFaces([14, 3, 2, 6])
    dice.roll("d20+d6", faces)
    with pytest.raises(EnteredFaceError, match=r"the command needed 2 face\(s\) \(d20 14, d6 3\) but 4 were "
                                               r"entered: 2, 6 left over"):
        faces.finish()


def test_rewind_starts_again_from_the_first_face() -> None:
    faces = EnteredFaces([14])
    dice.roll("d20", faces)
    faces.rewind()
    assert dice.roll("d20", faces).total == 14 and faces.remaining == 0


@pytest.mark.parametrize(("text", "message"), [
    ("", "no faces entered"), (" , ", "no faces entered"), ("14,x", "the 2nd face entered, 'x', is not a whole number"),
    ("1.5", "the 1st face entered, '1.5', is not a whole number"), ("-3", "'-3', is not a whole number"),
    ("0", "the 1st face entered, 0, is not a whole number from 1 to 10,000"), ("٣", "is not a whole number"),
    ("99999999999", "is not a whole number"), (",".join(["1"] * 1001), "at most 1,000 faces"),
])
def test_bad_faces_are_refused_as_typed(text: str, message: str) -> None:
    with pytest.raises(EnteredFaceError, match=message):
        EnteredFaces.parse(text)


def test_parse_takes_commas_or_spaces() -> None:
    assert EnteredFaces.parse("14, 3 2").faces == [14, 3, 2]


@pytest.mark.parametrize("faces", ["14,3", [1.5], [True], [None], 7])
def test_a_list_of_whole_numbers_only(faces: object) -> None:
    with pytest.raises(EnteredFaceError):
        EnteredFaces(faces)  # type: ignore[arg-type]


def test_errors_are_dice_errors_and_a_draw_without_a_die_is_refused() -> None:
    assert issubclass(EnteredFaceError, DiceError) and issubclass(EnteredFaceError, FurnaceError)
    with pytest.raises(EnteredFaceError, match="without rolling a die"):
        EnteredFaces([1]).random()


def test_ordinals() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th"]


def test_rng_from_and_finish() -> None:
    rng = rng_from(None, "3,4")
    assert entered(rng) and isinstance(rng, EnteredFaces)
    dice.roll("2d6", rng)
    finish(rng)
    assert isinstance(rng_from(5, None), random.Random) and not entered(rng_from(5, None))
    finish(rng_from(5, None))                       # nothing to check for seeded dice
    with pytest.raises(FurnaceError, match="--faces and --seed"):
        rng_from(5, "3")
    left = rng_from(None, "3,4,5")
    dice.roll("2d6", left)
    with pytest.raises(EnteredFaceError, match="5 left over"):
        finish(left)

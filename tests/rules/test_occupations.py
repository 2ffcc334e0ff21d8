"""F-CHAR-02: Furnace's own 0-level occupation table (X-TAB-01), rolled on a d100 in the funnel (F-CHAR-01)."""

from __future__ import annotations

import pytest

from furnace.dice import ScriptedDice
from furnace.rules.tables import Row, TableSet

tables = TableSet.packaged()
occupations = tables.get("X-TAB-01")

SKILLS = {
    "Acrobatics", "Animal Handling", "Arcana", "Athletics", "Deception", "History", "Insight", "Intimidation",
    "Investigation", "Medicine", "Nature", "Perception", "Performance", "Persuasion", "Religion",
    "Sleight of Hand", "Stealth", "Survival",
}
ITEM_KINDS = {"weapon", "tool", "gear", "animal", "trade goods"}
DAMAGE = {"1d4", "1d6", "1d8"}  # F-TAB-22 simple weapons; 1d4 the optional 'tiny' tag of F-TAB-24


def row_of(name: str) -> Row:
    matches = [r for r in occupations.rows if r.data["occupation"].lower() == name.lower()]
    assert len(matches) == 1, f"{name}: {len(matches)} rows"
    return matches[0]


def test_F_CHAR_02_table_loads_by_id_and_name() -> None:
    """F-CHAR-02: the occupation table is packaged, rolled on a d100 and serves F-CHAR-02."""
    assert tables.get("occupations") is occupations
    assert occupations.kind == "range"
    assert occupations.roll == "d100"
    assert "F-CHAR-02" in occupations.rules


def test_F_CHAR_02_every_d100_total_hits_exactly_one_row() -> None:
    """F-CHAR-02: each total 1-100 falls in exactly one row; the rows have no open ends."""
    assert occupations.rows[0].min == 1
    assert occupations.rows[-1].max == 100
    for total in range(1, 101):
        hits = [r for r in occupations.rows if r.min is not None and r.max is not None and r.min <= total <= r.max]
        assert len(hits) == 1, f"{total}: {len(hits)} rows"
        assert occupations.lookup(total) is hits[0]


def test_F_CHAR_02_at_least_fifty_distinct_occupations() -> None:
    """F-CHAR-02: at least 50 occupations, none listed twice."""
    names = [r.data["occupation"].lower() for r in occupations.rows]
    assert len(set(names)) == len(names)
    assert len(names) >= 50


@pytest.mark.parametrize("row", occupations.rows, ids=lambda r: r.data["occupation"])
def test_F_CHAR_02_every_row_has_a_proficiency_and_an_item(row: Row) -> None:
    """F-CHAR-02: one skill (of the 18), one tool, or a choice of skills; plus a trade item."""
    prof = row.data["proficiency"]
    if prof["kind"] == "skill" and "choices" in prof:
        assert len(prof["choices"]) >= 2
        assert set(prof["choices"]) <= SKILLS
    elif prof["kind"] == "skill":
        assert prof["name"] in SKILLS
    else:
        assert prof["kind"] == "tool"
        assert isinstance(prof["name"], str) and prof["name"]
    assert isinstance(row.data["item"], str) and row.data["item"]
    assert row.data["item_kind"] in ITEM_KINDS
    if "item_damage" in row.data:
        assert row.data["item_damage"] in DAMAGE
    assert row.text.startswith(f"{row.data['occupation']}: ")
    assert [e.kind for e in row.effect_list()] == ["nothing"]


def test_F_CHAR_02_document_examples() -> None:
    """F-CHAR-02: Ditch digger -> Athletics, Blacksmith -> Blacksmith's tools, Beggar -> Performance or Deception."""
    assert row_of("Ditch digger").data["proficiency"] == {"kind": "skill", "name": "Athletics"}
    assert row_of("Blacksmith").data["proficiency"] == {"kind": "tool", "name": "Blacksmith's tools"}
    beggar = row_of("Beggar").data["proficiency"]
    assert beggar["kind"] == "skill"
    assert set(beggar["choices"]) == {"Performance", "Deception"}


@pytest.mark.parametrize("face", [1, 2, 37, 50, 73, 99, 100])
def test_F_CHAR_02_scripted_roll_lands_on_the_covering_row(face: int) -> None:
    """F-CHAR-02: a d100 showing `face` picks the row whose range holds it."""
    rolled = tables.roll("occupations", ScriptedDice([face]))
    assert rolled.roll.total == face
    assert rolled.row.min is not None and rolled.row.max is not None
    assert rolled.row.min <= face <= rolled.row.max


def test_F_CHAR_02_every_face_rolls_its_row() -> None:
    """F-CHAR-02: rolling each face 1-100 with scripted dice gives the row covering it."""
    for row in occupations.rows:
        assert row.min is not None and row.max is not None
        for face in range(row.min, row.max + 1):
            assert tables.roll("occupations", ScriptedDice([face])).row is row

"""Furnace's own magic tables: divine disapproval (X-TAB-02, F-CLR-04, D-10) and the spell-name words
(X-TAB-03, X-TAB-04, F-SPELL-01, F-SPELL-12)."""

from __future__ import annotations

import pytest

from furnace import dice
from furnace.dice import ScriptedDice
from furnace.rules.effects import Condition, RefereePrompt
from furnace.rules.tables import Row, TableSet

tables = TableSet.packaged()
disapproval = tables.get("disapproval")
elements = tables.get("spell-name-elements")
forms = tables.get("spell-name-forms")

NAME_KEYS = [f"{tens}{units}" for tens in range(1, 7) for units in range(1, 7)]
DIE_HINTS = {"d4", "d6", "d8"}
BASE_EFFECTS = {"damage", "area", "condition", "summon", "protection", "movement"}


def covering(total: int) -> list[Row]:
    return [r for r in disapproval.rows
            if (r.min is None or r.min <= total) and (r.max is None or total <= r.max)]


def severe(row: Row) -> bool:
    return any(isinstance(e, RefereePrompt) or (isinstance(e, Condition) and e.name == "CANT_CAST")
               for e in row.effects)


def test_F_CLR_04_disapproval_table_loads() -> None:
    """F-CLR-04 (D-10): the disapproval table is Furnace's own X-TAB-02, rolled on 1d4 + the range."""
    assert disapproval.id == "X-TAB-02"
    assert tables.get("X-TAB-02") is disapproval
    assert disapproval.kind == "range"
    assert disapproval.roll == "1d4+DISAPPROVAL"
    assert disapproval.variables == ["DISAPPROVAL"]
    assert "F-CLR-04" in disapproval.rules
    assert disapproval.rows[0].min == 2
    assert disapproval.rows[-1].max is None
    assert 12 <= len(disapproval.rows) <= 16


@pytest.mark.parametrize("rng", range(1, 21))
def test_F_CLR_04_every_total_for_every_range_hits_one_row(rng: int) -> None:
    """F-CLR-04: for a disapproval range of 1..20, each total of 1d4 + range falls in exactly one row."""
    lo, hi = dice.parse("1d4+DISAPPROVAL").bounds({"DISAPPROVAL": rng})
    assert (lo, hi) == (rng + 1, rng + 4)
    for total in range(lo, hi + 1):
        hits = covering(total)
        assert len(hits) == 1, f"range {rng}, total {total}: {len(hits)} rows"
        assert disapproval.lookup(total) is hits[0]


def test_F_CLR_04_every_row_has_effects_and_text() -> None:
    """F-CLR-04: every disapproval row has our own wording and structured effects."""
    for row in disapproval.rows:
        assert row.text.strip()
        assert row.effects, row.span


def test_F_CLR_04_rows_escalate() -> None:
    """F-CLR-04: mild at the bottom (no lost prayers for long), severe at the top (CANT_CAST for good)."""
    bottom, top = disapproval.rows[0], disapproval.rows[-1]
    assert [e.kind for e in bottom.effects] == ["nothing"]
    assert severe(top)
    top_cant_cast = [e for e in top.effects if isinstance(e, Condition) and e.name == "CANT_CAST"]
    assert top_cant_cast and top_cant_cast[0].duration is not None
    assert top_cant_cast[0].duration.unit == "permanent"
    assert any(isinstance(e, RefereePrompt) for e in top.effects)
    # the lower half never takes prayers away for longer than a turn
    for row in disapproval.rows[: len(disapproval.rows) // 2]:
        for e in row.effects:
            if isinstance(e, Condition) and e.name == "CANT_CAST":
                assert e.duration is not None and e.duration.unit in {"next_turn", "round"}, row.span
    # the top rows all need the referee or stop prayer
    assert all(severe(row) for row in disapproval.rows[-4:])


def test_F_CLR_04_roll_with_a_range_of_5() -> None:
    """F-CLR-04: a d4 showing 3 with DISAPPROVAL 5 totals 8 and lands on the row covering 8."""
    result = tables.roll("disapproval", ScriptedDice([3]), variables={"DISAPPROVAL": 5})
    assert result.roll.total == 8
    assert result.row is covering(8)[0]
    assert result.table.id == "X-TAB-02"


@pytest.mark.parametrize(("table_id", "name"), [("X-TAB-03", "spell-name-elements"),
                                                ("X-TAB-04", "spell-name-forms")])
def test_F_SPELL_01_name_tables_load_with_36_keys(table_id: str, name: str) -> None:
    """F-SPELL-01, F-SPELL-12: each spell-name table is keyed 11..66 (d6 then d6), 36 distinct keys."""
    table = tables.get(name)
    assert table.id == table_id
    assert table.kind == "keyed"
    assert table.key_name == "roll"
    assert {"F-SPELL-01", "F-SPELL-12"} <= set(table.rules)
    assert table.keys() == NAME_KEYS
    assert len(set(table.keys())) == 36
    for row in table.rows:
        assert row.text == row.data["word"]
        assert row.data["spell_die_hint"] in DIE_HINTS
        assert [e.kind for e in row.effects] == ["nothing"]


def test_F_SPELL_01_72_distinct_words() -> None:
    """F-SPELL-01: the two tables hold 72 different single words."""
    words = [r.data["word"] for r in elements.rows] + [r.data["word"] for r in forms.rows]
    assert len(words) == 72
    assert len({w.lower() for w in words}) == 72
    assert all(w.isalpha() and w[0].isupper() for w in words)


def test_F_SPELL_01_row_data_columns() -> None:
    """F-SPELL-01: first words carry a damage type or null; second words a base-effect hint."""
    for row in elements.rows:
        assert "damage_type" in row.data
        assert row.data["damage_type"] is None or isinstance(row.data["damage_type"], str)
    for row in forms.rows:
        assert row.data["base_effect"] in BASE_EFFECTS


def test_F_SPELL_12_ember_swarm_can_come_up() -> None:
    """F-SPELL-12: 'Ember' is a first word and 'Swarm' a second, so the seed's Ember Swarm (F-TAB-16) can be rolled."""
    first = [r for r in elements.rows if r.data["word"] == "Ember"]
    second = [r for r in forms.rows if r.data["word"] == "Swarm"]
    assert len(first) == 1 and len(second) == 1
    assert elements.lookup(str(first[0].key)).data["damage_type"] == "fire"
    assert forms.lookup(str(second[0].key)).text == "Swarm"

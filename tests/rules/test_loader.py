"""The table loader: every packaged table loads and covers its range; bad files are refused well."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from furnace import dice
from furnace.errors import DataFileError, UnknownNameError
from furnace.rules.tables import TableSet

RULES_TABLE_IDS = (
    [f"F-TAB-{n:02d}" for n in range(1, 43) if n not in (5, 37)]
    + ["F-TAB-05a", "F-TAB-05b", "F-TAB-37a", "F-TAB-37b"]
    + [f"H-TAB-{n:02d}" for n in range(1, 8)]
    + [f"M-TAB-{n:02d}" for n in range(1, 8)]
)


@pytest.fixture(scope="module")
def tables() -> TableSet:
    return TableSet.packaged()


def test_all_58_tables_load(tables: TableSet) -> None:
    """F-BASE-09: every table of RULES.md (58, with the a/b versions kept apart) is packaged data.

    Furnace's own tables (the occupation table the document defers to DCC for) have X- ids."""
    assert len(RULES_TABLE_IDS) == 58
    ids = {t.id for t in tables}
    assert set(RULES_TABLE_IDS) <= ids
    assert all(i.startswith("X-TAB-") for i in ids - set(RULES_TABLE_IDS))


@pytest.mark.parametrize("table_id", RULES_TABLE_IDS)
def test_rows_cover_their_die_without_gaps(tables: TableSet, table_id: str) -> None:
    """Each range table's rows cover every total its die can give, exactly once."""
    table = tables.get(table_id)
    if table.kind != "range":
        assert len({str(r.key).lower() for r in table.rows}) == len(table.rows)
        return
    spans: list[tuple[int, int]] = []
    if table.die_table:
        for row in tables.get(table.die_table).rows:
            assert row.die is not None
            spans.append(dice.parse(row.die).bounds())
    elif (span := table.span()) is not None and None not in span:
        spans.append((int(span[0]), int(span[1])))  # type: ignore[arg-type]
    for lo, hi in spans:
        for total in range(lo, hi + 1):
            hits = [r for r in table.rows if (r.min is None or r.min <= total) and (r.max is None or total <= r.max)]
            assert len(hits) == 1, f"{table_id}: total {total} hits {len(hits)} rows"


@pytest.mark.parametrize("table_id", RULES_TABLE_IDS)
def test_every_row_says_what_it_does(tables: TableSet, table_id: str) -> None:
    """Rows carry our own wording; mechanical tables (rolled ones) list effects on every row."""
    table = tables.get(table_id)
    for row in table.rows:
        assert row.text.strip()
    if table.kind == "range" and (table.die_table or table.id in {"F-TAB-18", "F-TAB-19", "F-TAB-20",
                                                                   "F-TAB-37a", "F-TAB-37b", "F-TAB-38"}):
        assert all(row.effects for row in table.rows), f"{table_id} has a row with no effects"


def test_lookup_by_name_id_and_alias(tables: TableSet) -> None:
    assert tables.get("crit-fighter").id == "F-TAB-31"
    assert tables.get("f-tab-31").name == "crit-fighter"
    assert tables.get("crit-0-level").id == "F-TAB-34"
    with pytest.raises(UnknownNameError, match="crit"):
        tables.get("crit-bard")


def _write(tmp_path: Path, data: object, name: str = "t.yaml") -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def _table(**changes: object) -> dict[str, object]:
    base: dict[str, object] = {
        "id": "F-TAB-36", "name": "fumble", "title": "My fumbles", "source": "house", "kind": "range",
        "die_table": "F-TAB-35", "die_key": "armor", "covers": [1, 12],
        "rows": [{"min": 1, "max": 6, "text": "Nothing.", "effects": [{"kind": "nothing"}]},
                 {"min": 7, "max": 12, "text": "Drop it.", "effects": [{"kind": "weapon", "action": "drop"}]}],
    }
    base.update(changes)
    return base


def test_referee_table_overrides_by_id(tmp_path: Path, tables: TableSet) -> None:
    """A referee's file with the same id replaces the table; the packaged set is unchanged."""
    mine = tables.load_files([_write(tmp_path, _table())])
    assert mine.get("fumble").title == "My fumbles"
    assert mine.source_of("F-TAB-36").endswith("t.yaml")
    assert tables.get("fumble").title != "My fumbles"
    rolled = mine.roll("fumble", dice.ScriptedDice([12]), key="heavy")
    assert rolled.row.text == "Drop it."


@pytest.mark.parametrize(("rows", "row", "reason"), [
    ([{"min": 1, "max": 6, "text": "a"}, {"min": 8, "max": 12, "text": "b"}], 2, "gap between 6 and 8"),
    ([{"min": 1, "max": 7, "text": "a"}, {"min": 7, "max": 12, "text": "b"}], 2, "overlaps"),
    ([{"min": 2, "max": 12, "text": "a"}], 1, "can give 1"),
    ([{"min": 1, "max": 12, "text": "a", "effects": [{"kind": "damage", "dice": "2d"}]}], 1, "sides"),
    ([{"min": 1, "max": 12, "text": "a", "effects": [{"kind": "condition", "name": "SLEEPY"}]}], 1,
     "unknown condition"),
    ([{"min": 1, "max": 12, "text": "a", "effects": [{"kind": "explode"}]}], 1, "unknown effect kind"),
])
def test_malformed_file_is_refused_with_path_row_and_reason(tmp_path: Path, tables: TableSet,
                                                            rows: list[dict[str, object]], row: int,
                                                            reason: str) -> None:
    path = _write(tmp_path, _table(rows=rows))
    with pytest.raises(DataFileError, match=reason) as info:
        tables.load_files([path])
    assert info.value.path == str(path)
    assert info.value.row == row
    assert tables.get("fumble").title != "My fumbles"  # the tables in force stay as they were


def test_a_bad_file_among_good_ones_changes_nothing(tmp_path: Path, tables: TableSet) -> None:
    good = _write(tmp_path, _table(), "good.yaml")
    bad = _write(tmp_path, _table(id="F-TAB-18", name="mishap", rows=[]), "bad.yaml")
    with pytest.raises(DataFileError, match="at least one row"):
        tables.load_files([good, bad])


def test_invalid_yaml_names_the_line(tmp_path: Path, tables: TableSet) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text("id: F-TAB-36\nrows: [\n  - {min: 1\n", encoding="utf-8")
    with pytest.raises(DataFileError, match="not valid YAML") as info:
        tables.load_files([path])
    assert info.value.row is not None


def test_bad_id_and_duplicate_names_are_refused(tmp_path: Path, tables: TableSet) -> None:
    with pytest.raises(DataFileError, match="table id"):
        tables.load_files([_write(tmp_path, _table(id="fumbles"))])
    clash = _table(id="house:fumbles", name="crit-fighter")
    with pytest.raises(DataFileError, match="crit-fighter"):
        tables.load_files([_write(tmp_path, clash)])

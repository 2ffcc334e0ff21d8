"""The golden fights told from facts keep every number the old sentences had.

`tests/golden/sentences/` holds the referee's logs of the example fights as the engine wrote them before events
became facts (with `--explain`); `tests/golden/logs/` holds them as `furnace.render.story` tells them now. The
two are read event by event (a line at the left margin and the dice lines under it), and every number of each
old event — its sentence and its dice — must appear in the new telling of the same event. The differences
that are words only (a rule id now under `--explain` only, "AC 14" where the old line said "14") pass; a lost
number fails.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

HERE = Path(__file__).parent
OLD = HERE / "sentences"
NEW = HERE / "logs"
NUMBER = re.compile(r"(?<![\w-])-?\d+(?![\w-])")
RULE_ID = re.compile(r"\b(?:[FHMX]-[A-Z]+-\d+[a-z]?|AMB-\d+|CF-\d+|REF-\d+|EXT-\d+|D-\d+)\b")


def events(text: str) -> list[str]:
    """The log's events: each line at the left margin with the dice lines under it."""
    out: list[str] = []
    for line in text.splitlines():
        if not line.strip() or line.startswith("== Round"):
            continue
        if line.startswith("    ") and out:
            out[-1] += "\n" + line
        else:
            out.append(line)
    return out


def numbers(text: str) -> list[str]:
    return NUMBER.findall(RULE_ID.sub("", text))


@pytest.mark.parametrize("name", sorted(p.name for p in OLD.glob("*.txt")))
def test_every_number_of_each_old_sentence_is_told(name: str) -> None:
    old, new = events((OLD / name).read_text(encoding="utf-8")), events((NEW / name).read_text(encoding="utf-8"))
    assert len(old) == len(new), f"{name}: {len(old)} events then, {len(new)} now"
    lost = []
    for before, after in zip(old, new, strict=True):
        told = numbers(after)
        missing = [n for n in numbers(before) if n not in told]
        if missing:
            lost.append(f"{before!r}\n  → {after!r}\n  lost {missing}")
    assert not lost, "\n".join(lost[:10])

"""Every kind of fact the engine, the chapters and the campaign declare has a teller that speaks plain English
to every viewer — the referee (with and without --explain), the table and a player — from example data, with
no token left in it: no `NAME:sub_name`, no `_turn(s)`, no bare True/False/None, no variable left in a dice
expression, no "1 turns", no "(s)". No module below the interfaces formats an event's sentence, and the
console and the renderers rewrite no event text with a regular expression."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import furnace
from furnace.events import FACTS, Event, Part
from furnace.render import story
from furnace.render.story.view import Sight, View

SRC = Path(furnace.__file__).parent
TOKENS = re.compile(r"\b[A-Z]+:[a-z_]+|_turns?\b|\(s\)|\b(True|False|None)\b|\b1 (turns|rounds|days|hours|weeks|"
                    r"uses|spells|points|breaks|notches|Rages)\b|[A-Za-z]_[a-z]|\{[a-z_]+\}|\bd20\+[A-Z]\b(?! \()")
VIEWS = (View(), View(explain=True), View("table"), View("player", "Ann"),
         View("player", "Ann", Sight(revealed=frozenset({"t0", "t1"}))))


def _load_every_module() -> None:
    for info in pkgutil.walk_packages([str(SRC)], "furnace."):
        if not info.name.startswith(("furnace.web", "furnace.cli", "furnace.campaign.migrations")):
            importlib.import_module(info.name)


_load_every_module()
KINDS = sorted(FACTS)


def example(kind: str, actor_kind: str, target_kind: str) -> Event:
    spec = FACTS[kind]
    targets = tuple(f"t{i}" for i in range(len(spec.roles) - 1))
    cast = {"a": Part("Ann-2", actor_kind, "Ann" if actor_kind == "pc" else "")}
    cast |= {t: Part(f"Foe {i}", target_kind, "Bo" if target_kind == "pc" else "") for i, t in enumerate(targets)}
    return Event(kind, "a", targets, (), dict(spec.example), ("F-BASE-02",), cast)


def test_every_declared_kind_has_a_teller() -> None:
    assert len(KINDS) > 100
    missing = [kind for kind in KINDS if kind not in story.tellers()]
    assert not missing, f"facts with no teller: {missing}"


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_is_told_in_words_to_every_viewer(kind: str) -> None:
    for actor, target in (("pc", "monster"), ("monster", "pc"), ("pc", "pc")):
        e = example(kind, actor, target)
        for view in VIEWS:
            told = story.tell(e, view)
            if told is None:
                continue
            text = "\n".join(told.render(view.explain))
            assert not TOKENS.search(text.replace("F-BASE-02", "")), (kind, view.role, text)
            assert told.subject in ("", "all", "the party") or actor != "pc" or "Ann-2" in text, (kind, text)


def test_the_referee_is_told_every_kind() -> None:
    """Nothing the engine records is lost on the referee: every kind tells her something (facts meant for the
    table alone do not exist)."""
    silent = [kind for kind in KINDS if story.tell(example(kind, "pc", "monster"), View()) is None]
    assert not silent, silent


def test_no_module_below_the_interfaces_writes_an_events_sentence() -> None:
    """Events are facts: nothing records a sentence (`Event.said` was the bridge from the old log)."""
    written = [str(p.relative_to(SRC)) for p in SRC.rglob("*.py") if p.name != "events.py"
               and ("Event.said(" in p.read_text(encoding="utf-8") or ".log(" in _calls(p))]
    assert not written, written


def _calls(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    return "\n".join(line for line in text.splitlines() if re.search(r"\b(step|fire|self)\.log\(", line))


def test_no_regular_expression_rewrites_event_text_at_the_edge() -> None:
    for folder in ("web", "render/story"):
        for path in (SRC / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            assert "re.sub(" not in text and ".sub(" not in text, path

"""Spells known on every sheet format (F-MU-05, F-MU-06, F-CLR-03, F-ARCH-04) and the roster as text.

`furnace.render.sheets.spell_lines` gives what a caster knows against her caps; the Markdown, HTML, terminal
and JSON sheets all carry it. `furnace.render.roster` prints the campaign's roster with status and causes of
death.
"""

from __future__ import annotations

import json

import pytest

from furnace.campaign.state import Death
from furnace.render.roster import roster_json, roster_table
from furnace.render.sheets import character_html, character_json, character_markdown, spell_lines
from furnace.render.text import character_sheet
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import example, member

RULES = load_ruleset()


@pytest.mark.parametrize(("stem", "lines"), [
    ("maelis", [("Spells known (2 of 3)", "Fireball, Ember Swarm"), ("Cantrips (0 of 2)", "—")]),  # MU 3, INT −1
    ("ilse", [("Prayers known (2 of 4)", "Chill Touch, Animate Dead")]),                            # Cleric 3
    ("brakka", []),                                                                                  # Fighter
    ("hob", []),                                                                                     # 0-level
])
def test_F_MU_05_F_CLR_03_spell_lines_against_the_caps(stem: str, lines: list[tuple[str, str]]) -> None:
    assert spell_lines(example(stem), RULES) == lines


def test_F_ARCH_04_a_trickster_shows_her_cantrip() -> None:
    wren = example("wren").model_copy(update={"archetype_features": ["magic-weapon", "trickster"],
                                              "cantrips": ["Whisper"]})
    assert spell_lines(wren, RULES) == [("Cantrips (1 of 1)", "Whisper")]


def test_F_MU_05_spells_on_every_format(capsys: pytest.CaptureFixture[str]) -> None:
    maelis = example("maelis").model_copy(update={"cantrips": ["Torchlight", "Mending"]})
    note = "mael1 · player Ann · alive"
    md = character_markdown(maelis, RULES, note)
    assert "- **Spells known (2 of 3):** Fireball, Ember Swarm\n- **Cantrips (2 of 2):** Torchlight, Mending" in md
    assert f"*{note}*" in md
    html = character_html(maelis, RULES, note)
    assert "<dt>Spells known (2 of 3)</dt><dd>Fireball, Ember Swarm</dd>" in html
    assert "<dt>Cantrips (2 of 2)</dt><dd>Torchlight, Mending</dd>" in html and note in html
    data = json.loads(character_json(maelis))
    assert (data["spells"], data["cantrips"]) == (["Fireball", "Ember Swarm"], ["Torchlight", "Mending"])
    character_sheet(maelis, RULES, note)
    text = capsys.readouterr().out
    assert "spells known (2 of 3)" in text and "Fireball, Ember Swarm" in text and note in text
    assert "cantrips (2 of 2)" in text and "Torchlight, Mending" in text
    assert "Spells known" not in character_markdown(example("brakka"), RULES)       # a Fighter knows none


def test_the_roster_as_text_and_json() -> None:
    hob, corra = example("hob"), example("corra")
    dead = corra.model_copy(update={"dead": "HP -9, at or below -4", "hp": -9})
    members = [member(hob, "hob1", player="Ann"),
               member(dead, "corr1", player="Bo", status="dead", death=Death(cause="HP -9, at or below -4", at=600))]
    text = roster_table(members, "keep: the roster")
    lines = text.splitlines()
    assert lines[0] == "keep: the roster" and lines[1].split() == ["id", "name", "player", "status", "level", "HP",
                                                                   "notes"]
    assert lines[2].split()[:4] == ["hob1", "Hob", "Ann", "alive"] and hob.occupation is not None
    assert lines[2].endswith(hob.occupation.name)
    assert lines[3].startswith("corr1") and lines[3].endswith("died: HP -9, at or below -4")
    assert lines[-1] == "2 character(s): 1 alive, 1 dead"
    assert roster_table([], "keep") == "keep\nno characters match"
    data = roster_json(members)
    assert [(m["id"], m["status"], m["hp"], m["level"]) for m in data] == [("hob1", "alive", hob.hp, 0),
                                                                            ("corr1", "dead", -9, 0)]
    assert data[1]["death"] == {"cause": "HP -9, at or below -4", "at": 600, "round": None, "encounter": None,
                                "facts": [], "words": "HP -9, at or below -4"}

"""Character sheets as text (`furnace.render.sheets`): Markdown, printable HTML, JSON, and the CLI options.

RULES.md F-CHAR-01 (the funnel: four 0-level characters per player, one funnel sheet page per four),
F-ABIL-02 (each score shown with its modifier), F-CHAR-02 (occupation with proficiency and item),
F-ADV-01 (PROF +0 at level 0). The browser checks of the same HTML are in test_browser.py.
"""

from __future__ import annotations

import json
import random
import re
from html import escape
from pathlib import Path

import pytest

from furnace.characters.character import Character, Occupation
from furnace.characters.funnel import run_funnel
from furnace.cli.app import main
from furnace.render.sheets import character_html, character_json, character_markdown, funnel_html
from furnace.rules.effects import ABILITIES
from furnace.rules.ruleset import load_ruleset
from tests.helpers.factories import rolled_fighter

RULES = load_ruleset()


def cards(html: str) -> list[str]:
    return re.findall(r'<section class="card[^"]*" data-name="[^"]*">.*?</section>', html, re.S)


# -- Markdown -------------------------------------------------------------------------------------------
def test_F_ABIL_02_markdown_sheet_shows_scores_with_modifiers_and_derived_values() -> None:
    """F-ABIL-02: a row per ability with score and modifier; HP, Hit Dice, PROF, AC, load from the tables."""
    c = rolled_fighter(3)
    md = character_markdown(c, RULES)
    assert md.startswith("# Brannoc\n")
    assert "level 3 Human Fighter (Barbarian)" in md and "player: Ada" in md
    for a in ABILITIES:
        mod = f"{c.mod(a):+d}".replace("-", "−")
        assert f"| {a} | {c.scores[a]} | {mod} |" in md
    assert f"**HP:** {c.hp}/{c.hp_max}" in md
    assert f"**Hit Dice:** {c.hit_dice} × {c.hit_die(RULES)}" in md
    assert f"**PROF:** +{c.prof(RULES)}" in md
    assert f"**AC:** {c.ac(RULES)}" in md and f" of {c.load}\n" in md   # the load used of 10 + STR
    assert "**Saves:** " + ", ".join(c.saves) in md
    assert c.occupation is not None and c.occupation.name in md and c.occupation.proficiency in md
    assert "## HP by level" in md
    history = md.split("## HP by level")[1]
    assert [line.split(" | ")[0] for line in history.splitlines() if line.startswith("| ")][1:] == [
        f"| {g.level}" for g in c.hp_history]                      # the header, then a row per level
    assert "**Archetype features:**" in md and "**Tools:**" in md and "**Expertise:**" in md


def test_F_CHAR_01_markdown_of_a_zero_level_peasant() -> None:
    """F-CHAR-01 / F-ADV-01: a 0-level character has PROF +0, one d4 Hit Die and no HP history table."""
    c = run_funnel(random.Random(2), 1, 1, RULES).characters[0]
    md = character_markdown(c, RULES)
    assert f"0-level {c.race}" in md
    assert "**PROF:** +0" in md and "**Hit Dice:** 1 × d4" in md
    assert "## HP by level" not in md


def test_markdown_table_cells_escape_pipes() -> None:
    c = rolled_fighter(2).model_copy(update={"hp_history": [h.model_copy(update={"reason": "a|b"})
                                                             for h in rolled_fighter(2).hp_history]})
    assert "a\\|b" in character_markdown(c, RULES)


def test_character_json_round_trips() -> None:
    c = rolled_fighter(2)
    assert Character.from_json(character_json(c)) == c


# -- HTML -----------------------------------------------------------------------------------------------
def test_F_CHAR_01_funnel_html_four_cards_per_page() -> None:
    """F-CHAR-01: 2 players × 4 characters → 2 pages of a 2×2 grid, each card a 0-level character."""
    party = run_funnel(random.Random(1), 2, 4, RULES)
    html = funnel_html(party, RULES, title="Night of the funnel")
    assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
    assert html.count('<div class="page">') == 2
    pages = html.split('<div class="page">')[1:]
    assert [len(cards(p)) for p in pages] == [4, 4]
    assert "<title>Night of the funnel</title>" in html
    assert "page 1 of 2" in html and "page 2 of 2" in html
    for c in party.characters:
        assert f'data-name="{c.name}"' in html
        assert c.occupation is not None
        card = next(k for k in cards(html) if f'data-name="{c.name}"' in k)
        for text in (c.race, c.player or "", c.occupation.name, c.occupation.proficiency, c.occupation.item):
            assert escape(text) in card, (c.name, text)
        assert f'<div class="lbl">HP</div><div class="val">{c.hp}/{c.hp_max}</div>' in card
        assert f'<div class="lbl">AC</div><div class="val">{c.ac(RULES)}</div>' in card
        assert '<div class="lbl">PROF</div><div class="val">+0</div>' in card
        assert 'class="notes"' in card


def test_F_ABIL_02_funnel_cards_show_every_score_with_its_modifier() -> None:
    """F-ABIL-02: each of the six scores with the modifier the table gives it."""
    party = run_funnel(random.Random(3), 1, 4, RULES)
    html = funnel_html(party.characters, RULES)
    for c, card in zip(party.characters, cards(html), strict=True):
        for a in ABILITIES:
            mod = f"{c.mod(a):+d}".replace("-", "−")
            assert f'<div class="ab">{a}</div><div class="val">{c.scores[a]}</div><div class="mod">{mod}</div>' in card


def test_funnel_html_is_self_contained_and_print_sized() -> None:
    """No scripts or external assets; @page auto with 10 mm margins; pages 190 × 255 mm with page breaks."""
    html = funnel_html(run_funnel(random.Random(1), 1, 4, RULES), RULES)
    assert "<script" not in html and "http" not in html and "<link" not in html and "url(" not in html
    assert "@page { size: auto; margin: 10mm; }" in html
    assert "width: 190mm; height: 255mm" in html
    assert "break-after: page" in html and "page-break-after: always" in html


def test_F_CHAR_01_funnel_html_partial_last_page() -> None:
    """F-CHAR-01: 3 players × 3 characters = 9 → pages of 4, 4 and 1."""
    html = funnel_html(run_funnel(random.Random(1), 3, 3, RULES), RULES)
    assert [len(cards(p)) for p in html.split('<div class="page">')[1:]] == [4, 4, 1]


def test_html_escapes_all_text() -> None:
    occ = Occupation(name="<b>Rat</b> catcher", proficiency="Nature & Stealth", item='"sack"')
    c = Character(name='<script>alert("x")</script>', player="A&B", level=0, scores=dict.fromkeys(ABILITIES, 10),
                  hp_max=2, hp=2, hit_dice=1, occupation=occ, items=['"sack"'])
    for html in (funnel_html([c], RULES, title="<T>"), character_html(c, RULES)):
        assert "<script>" not in html and "<b>Rat" not in html and "<T>" not in html
        assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html
        assert "A&amp;B" in html
        assert "Nature &amp; Stealth" in html and "&quot;sack&quot;" in html


def test_character_html_single_sheet() -> None:
    c = rolled_fighter(4)
    html = character_html(c, RULES)
    assert html.count('<div class="page">') == 1 and len(cards(html)) == 1
    assert f"level 4 {c.race} Fighter (Barbarian)" in html
    assert f"{c.hit_dice} × {c.hit_die(RULES)}" in html
    assert f'<div class="lbl">PROF</div><div class="val">+{c.prof(RULES)}</div>' in html
    assert "<th>Level</th>" in html and html.count("<tr><td>") == len(c.hp_history)


# -- CLI ------------------------------------------------------------------------------------------------
@pytest.mark.rule("F-CHAR-01")
def test_F_CHAR_01_cli_funnel_html(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "funnel.html"
    assert main(["funnel", "--players", "2", "--seed", "1", "--html", str(out)]) == 0
    assert "Funnel party: 8" in capsys.readouterr().out          # the terminal table is still printed
    assert out.read_text(encoding="utf-8").count('<section class="card"') == 8
    assert main(["--force", "funnel", "--players", "1", "--seed", "1", "--html", str(out), "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["characters"]) == 4
    assert out.read_text(encoding="utf-8").count('<section class="card"') == 4


def test_cli_character_show_markdown_and_html(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    c = rolled_fighter(2)
    src, out = tmp_path / "hero.json", tmp_path / "hero.html"
    src.write_text(c.to_json(), encoding="utf-8")
    assert main(["character", "show", str(src), "--markdown"]) == 0
    assert capsys.readouterr().out == character_markdown(c, RULES)
    assert main(["character", "show", str(src), "--html", str(out)]) == 0
    assert "Brannoc" in capsys.readouterr().out                  # the terminal sheet as before
    assert out.read_text(encoding="utf-8") == character_html(c, RULES)


def test_cli_html_to_an_unwritable_path_is_one_line_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["funnel", "--seed", "1", "--html", str(tmp_path / "no" / "such" / "dir.html")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: cannot write") and err.count("\n") == 1

"""The printable sheets in a real headless Chromium (Debian's /usr/bin/chromium, driven by Playwright).

RULES.md F-CHAR-01: a funnel of 2 players × 4 characters prints as exactly 2 pages of 4 cards, on A4 and
on Letter, with no card's content overflowing. Marked `browser`; Playwright's own browsers are never
downloaded. Without /usr/bin/chromium these tests skip, except in CI (CI=true), where they fail.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from furnace.characters.funnel import run_funnel
from furnace.render.sheets import character_html, funnel_html
from furnace.rules.ruleset import load_ruleset
from tests.helpers.chromium import chromium
from tests.helpers.factories import rolled_fighter

pytestmark = pytest.mark.browser

PDF_PAGE = re.compile(rb"/Type\s*/Page[^s]")
RULES = load_ruleset()


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    with chromium() as browser:
        yield browser.new_page()


def pdf_pages(pdf: bytes) -> int:
    return len(PDF_PAGE.findall(pdf))


def assert_cards_fit(page: Any) -> None:
    """No card's content overflows, and every card lies inside its page."""
    report = page.evaluate("""() => [...document.querySelectorAll('.page')].map(p => {
        const pb = p.getBoundingClientRect();
        return [...p.querySelectorAll('.card')].map(el => {
            const b = el.getBoundingClientRect();
            return {name: el.dataset.name, sh: el.scrollHeight, ch: el.clientHeight, sw: el.scrollWidth,
                    cw: el.clientWidth, inside: b.left >= pb.left - 0.5 && b.top >= pb.top - 0.5
                        && b.right <= pb.right + 0.5 && b.bottom <= pb.bottom + 0.5};
        });
    })""")
    for cards in report:
        for card in cards:
            assert card["sh"] <= card["ch"] + 1, f"{card['name']} overflows vertically: {card}"
            assert card["sw"] <= card["cw"] + 1, f"{card['name']} overflows horizontally: {card}"
            assert card["inside"], f"{card['name']} sticks out of its page: {card}"


@pytest.mark.share  # the default run's one printed sheet in Chromium
def test_F_CHAR_01_funnel_sheet_prints_two_pages_of_four(page: Any, tmp_path: Path) -> None:
    """F-CHAR-01: 2 players × 4 characters → 2 pages × 4 cards that fit, 2 PDF pages on A4 and on Letter."""
    party = run_funnel(random.Random(1), 2, 4, RULES)
    page.set_content(funnel_html(party, RULES))
    assert page.locator(".page").count() == 2
    for i in range(2):
        assert page.locator(".page").nth(i).locator(".card").count() == 4
    assert_cards_fit(page)
    for fmt in ("A4", "Letter"):
        pdf = page.pdf(format=fmt)
        assert pdf.startswith(b"%PDF") and len(pdf) > 1000
        assert pdf_pages(pdf) == 2, fmt
    shot = tmp_path / "funnel.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 1000


def test_F_CHAR_01_long_text_still_fits(page: Any) -> None:
    """Long names, occupations and items wrap inside the card instead of spilling over."""
    party = run_funnel(random.Random(9), 1, 4, RULES)
    long = [c.model_copy(update={
        "name": "Wilhelmina Ashcroft-Underbridge the Unlucky " + c.name, "player": "A player with a long name",
        "occupation": c.occupation and c.occupation.model_copy(update={
            "name": "Itinerant tinker and knife-grinder of the lower marches",
            "item": "a cart of pots, pans, whetstones, bellows, tongs and a very old donkey"}),
    }) for c in party.characters]
    page.set_content(funnel_html(long, RULES))
    assert_cards_fit(page)
    assert pdf_pages(page.pdf(format="Letter")) == 1


def test_character_sheet_prints_one_page(page: Any) -> None:
    c = rolled_fighter(10)
    page.set_content(character_html(c, RULES))
    assert page.locator(".page .card").count() == 1
    assert_cards_fit(page)
    for fmt in ("A4", "Letter"):
        assert pdf_pages(page.pdf(format=fmt)) == 1, fmt


# -- the simulation's plots (F-CMBT-05): drawn in Chromium, nothing outside the picture, bars true to the counts --
def _svg_layout(page: Any, svg: str) -> dict[str, Any]:
    page.set_content(f"<!doctype html><html><body style='margin:0'>{svg}</body></html>")
    layout: dict[str, Any] = page.evaluate("""() => {
        const svg = document.querySelector('svg');
        const box = svg.getBoundingClientRect();
        const inside = el => { const b = el.getBoundingClientRect();
            return b.left >= box.left - 0.5 && b.right <= box.right + 0.5 && b.top >= box.top - 0.5
                && b.bottom <= box.bottom + 0.5; };
        return {
            width: box.width, height: box.height,
            outside: [...svg.querySelectorAll('text, rect')].filter(el => !inside(el)).map(el => el.textContent),
            texts: [...svg.querySelectorAll('text')].map(t => t.textContent),
            bars: [...svg.querySelectorAll('rect > title')].map(t => [t.textContent,
                                                                     t.parentElement.getBBox().width]),
        };
    }""")
    return layout


def test_F_CMBT_05_the_simulation_plot_draws_inside_its_frame(page: Any) -> None:
    """The plot of `furnace simulate examples/funnel-vs-goblins.yaml --fights 300 --seed 1`, in Chromium: every
    label and bar lies inside the picture, each character has a bar, and each bar is as long as her share."""
    from furnace.play.simulate import FightFileSource, simulate
    from furnace.render.plots import simulation_svg

    fight = str(Path(__file__).resolve().parents[2] / "examples" / "funnel-vs-goblins.yaml")
    summary = simulate(FightFileSource(fight), 300, 1)
    svg = simulation_svg("300 fights of funnel-vs-goblins.yaml, seed 1", summary.outcomes_count(),
                         summary.rounds(), summary.p_dies())
    layout = _svg_layout(page, svg)
    assert layout["outside"] == [] and layout["width"] == 640
    deaths = {name: width for label, width in layout["bars"] for name in summary.party if label.startswith(name)}
    assert set(deaths) == set(summary.party)
    for name, p in summary.p_dies().items():           # on a 0–100 % scale: 100 % is 360 px
        assert abs(deaths[name] - round(p * 360)) <= 1
    wins = summary.outcomes_count()["party wins"]
    assert f"{wins:,} ({wins / 300:.1%})" in layout["texts"]


def test_F_CMBT_05_a_sweeps_heat_map_draws_inside_its_frame(page: Any) -> None:
    """A sweep's heat map with long labels and a full cell: nothing drawn outside, each cell's share printed."""
    from furnace.render.plots import heat_map_svg

    rows = ["option:enemy_morale=true", "option:enemy_morale=false"]
    cells = {(r, c): p for r in rows for c, p in zip(("10", "12", "14"), (0.0, 0.5, 1.0), strict=True)}
    layout = _svg_layout(page, heat_map_svg("P(TPK) by ROOM DC", rows, ["10", "12", "14"], cells))
    assert layout["outside"] == []
    assert [t for t in layout["texts"] if t.endswith("%")] == ["0.0%", "50.0%", "100.0%"] * 2

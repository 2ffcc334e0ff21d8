"""The referee's page on a 390×844 phone, in Chromium (issue 24): no horizontal scroll — nothing reaches past
the screen's right edge — and every touch target at least 44 px high, with the page's main actions played by
tapping them there: a campaign, a funnel, an invite and its QR code, a fight with its monsters' controls, the
monsters' turns, a hidden roll, undo. The player's page and the table display are held to the same at that size;
the player's own dice field shows only once the referee allows it, and what she types is what is rolled.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.live_server import Served

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
TARGET = 44            # px: the smallest touch target (WCAG 2.5.5, Apple's HIG)

# every element past the right edge, and every visible touch target smaller than TARGET (its selector and size)
MEASURE = """(target) => {
  const wide = document.documentElement.scrollWidth;
  const past = [...document.querySelectorAll("body *")].filter((e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.right > window.innerWidth + 1 && !e.closest("[hidden]");
  }).map((e) => e.tagName + (e.id ? "#" + e.id : "") + "." + e.className
    + " right=" + Math.round(e.getBoundingClientRect().right));
  const targets = "button, select, input:not([type=checkbox]):not([type=hidden]), label.check, a";
  const small = [...document.querySelectorAll(targets)].filter((e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && (r.height < target - 0.5 || r.width < target - 0.5);
  }).map((e) => e.tagName + (e.id ? "#" + e.id : "") + "[" + (e.name || e.textContent.trim().slice(0, 20)) + "] "
    + Math.round(e.getBoundingClientRect().width) + "x" + Math.round(e.getBoundingClientRect().height));
  return { wide, past: past.slice(0, 12), small: small.slice(0, 12) };
}"""


def _fits(page: Any, where: str) -> None:
    found = page.evaluate(MEASURE, TARGET)
    assert found["wide"] <= PHONE["width"], f"{where}: the page is {found['wide']} px wide: {found['past']}"
    assert not found["past"], f"{where}: past the right edge: {found['past']}"
    assert not found["small"], f"{where}: touch targets under {TARGET} px: {found['small']}"


def test_the_referees_page_is_played_on_a_phone(served: Served, browser: Any) -> None:
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = phone.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(served.link)
    _fits(page, "the campaigns page")
    page.fill("#new-campaign input[name=name]", "Keep")
    page.tap("#new-campaign button")
    page.wait_for_url(re.compile(r"/c/Keep/referee$"))
    page.wait_for_selector("body[data-live='1']")
    _fits(page, "an empty campaign")

    page.fill("#funnel input[name=players]", "Ann, Bo")
    page.fill("#funnel input[name=per_player]", "2")
    page.tap("#funnel button")
    page.wait_for_selector("#roster .member >> nth=3")
    page.fill("#invite input[name=player]", "Ann")
    page.tap("#invite button")
    page.wait_for_selector("#invite-out svg")
    qr = page.locator("#invite-out svg").bounding_box()
    assert qr is not None and qr["width"] >= 100 and qr["x"] + qr["width"] <= PHONE["width"]
    invite = page.get_attribute(".invite-url", "href")

    page.fill("#start-fight input[name=monsters]", "goblin x2, ogre")
    page.tap("#start-fight button")
    page.wait_for_selector("#encounter table.fight")
    page.wait_for_selector("#actions button")
    _fits(page, "a fight with its monsters' controls")
    page.tap("#next-turns")
    page.fill("#roll input[name=label]", "behind the screen")
    page.check("#roll input[name=hidden]")
    page.tap("#roll button")
    page.wait_for_selector("#log li.hidden:has-text('behind the screen')")
    page.wait_for_selector("#undo:has-text('roll')")
    page.tap("#undo")
    page.wait_for_selector("#redo:visible")
    _fits(page, "after a roll and an undo")

    ann = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    ann.on("pageerror", lambda e: errors.append(str(e)))
    ann.goto(invite)
    _fits(ann, "the join page")
    ann.tap("#join")
    ann.wait_for_url(re.compile(r"/c/Keep/player$"))
    ann.wait_for_selector("#mine .member >> nth=1")
    _fits(ann, "the player's page in a fight")
    assert not ann.is_visible("#faces-label")                 # her own dice only where the referee allows them
    page.check("#players-dice")
    ann.wait_for_selector("#faces-label", state="visible")
    ann.fill("#sheet input[name=faces]", "14")
    ann.tap("[data-roll=check]")
    ann.wait_for_selector("#log li.sheet_roll:has(.entered)")  # … and what she typed is what was rolled
    actions = page.locator("#actions button").all_inner_texts()
    assert len(actions) == len(set(actions)), actions           # each action once, however the refreshes overlap
    page.goto(served.base + "/c/Keep/table")
    page.wait_for_selector("#roster .member")
    _fits(page, "the table display")
    assert not errors, errors

"""The referee's hand on the console, in Chromium: undo and redo buttons that name the command they reverse, the
list of who is signed in with a button to end each session, sign-out, and an invite's QR code drawn at its size.

`furnace serve` runs as a subprocess (`tests/web/live_server.Served`); Ann joins by invite on a phone-sized page.
"""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from tests.web.live_server import Served

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def _campaign_with_funnel(page: Any, link: str) -> None:
    page.goto(link)
    page.fill("#new-campaign input[name=name]", "Keep")
    page.click("#new-campaign button")
    page.wait_for_url(re.compile(r"/c/Keep/referee$"))
    page.wait_for_selector("body[data-live='1']")
    page.fill("#funnel input[name=players]", "Ann, Bo")
    page.fill("#funnel input[name=per_player]", "2")
    page.click("#funnel button")
    page.wait_for_selector("#roster .member >> nth=3")


def test_undo_and_redo_name_the_command_and_put_it_back(served: Served, browser: Any) -> None:
    page = browser.new_context().new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    _campaign_with_funnel(page, served.link)
    page.wait_for_selector("#undo[data-command]:not([disabled])")
    assert re.fullmatch(r"Undo command \d+: funnel", page.inner_text("#undo")), page.inner_text("#undo")
    assert not page.is_visible("#redo")                     # nothing undone yet: no redo to offer
    names = page.locator("#roster .member strong").all_inner_texts()

    page.click("#undo")
    page.wait_for_selector("#roster .empty")                 # the funnel taken back, and said so
    page.wait_for_selector("#redo:visible")
    assert re.fullmatch(r"Redo command \d+: undo of funnel \(command \d+\)", page.inner_text("#redo"))
    page.click("#redo")
    page.wait_for_selector("#roster .member >> nth=3")
    assert page.locator("#roster .member strong").all_inner_texts() == names     # the same dice, the same people
    page.wait_for_selector("#redo", state="hidden")
    assert not errors, errors


def test_sessions_listed_and_ended_and_sign_out(served: Served, browser: Any) -> None:
    referee = browser.new_context().new_page()
    errors: list[str] = []
    referee.on("pageerror", lambda e: errors.append(str(e)))
    _campaign_with_funnel(referee, served.link)
    referee.fill("#invite input[name=player]", "Ann")
    referee.click("#invite button")
    invite = referee.get_attribute(".invite-url", "href")
    qr = referee.locator("#invite-out svg").bounding_box()
    assert qr is not None and qr["width"] >= 100 and qr["height"] >= 100, qr          # drawn, not 0×0
    assert invite and invite.startswith(served.base + "/join/")                       # the printed address's

    ann = browser.new_context(viewport=PHONE, is_mobile=True).new_page()
    ann.on("pageerror", lambda e: errors.append(str(e)))
    ann.goto(invite)
    ann.click("#join")
    ann.wait_for_url(re.compile(r"/c/Keep/player$"))
    ann.wait_for_selector("body[data-live='1']")

    referee.reload()
    referee.wait_for_selector("#sessions li .yours")
    rows = referee.locator("#sessions li")
    assert rows.count() == 2
    ann_row = referee.locator("#sessions li:has-text('player Ann')")
    assert ann_row.count() == 1
    ann_row.locator("button").click()
    referee.wait_for_selector("#sessions li:has-text('player Ann')", state="detached")
    ann.wait_for_selector("#status:has-text('signed out')")     # her live stream ends with her session

    referee.click("#signout")
    referee.wait_for_url(served.base + "/")
    answer = referee.request.get(served.base + "/api/campaigns")
    assert answer.status == 401                                  # the session ended on the server, not only here
    assert httpx.get(served.link, follow_redirects=False).status_code >= 400       # the link worked once
    assert not errors, errors

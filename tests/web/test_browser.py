"""The console in a real headless Chromium (Debian's /usr/bin/chromium through Playwright; no browser download).

`furnace serve` runs as a subprocess on a free port with a temp database. The referee signs in with the printed
link, makes a campaign, rolls a funnel and starts a fight; Ann joins by invite on a phone-sized screen in a
second browser context, rolls a CHECK, and both pages show it live; a hidden roll's label never reaches Ann's
page nor any answer her browser received. Without /usr/bin/chromium these skip, except in CI (CI=true).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.live_server import free_port, wait_for

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
SECRET = "hush-label-9413"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`furnace serve` on a free port: its printed sign-in link."""
    db = tmp_path_factory.mktemp("serve") / "console.db"
    port = free_port()
    command = [sys.executable, "-c", "import sys; from furnace.cli import main; sys.exit(main())"]
    proc = subprocess.Popen([*command, "--db", str(db), "serve", "--port", str(port)], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        link = ""
        deadline = time.monotonic() + 120         # a wait, generous for a busy machine
        while not link and time.monotonic() < deadline:
            line = proc.stdout.readline() if proc.stdout else ""
            found = re.search(r"http://\S+/signin\?token=\S+", line)
            link = found.group(0) if found else ""
        assert link, "furnace serve printed no sign-in link"
        wait_for(f"http://127.0.0.1:{port}/")
        yield link
    finally:
        proc.terminate()
        proc.wait(60)


@pytest.mark.share  # the default run's one table console in Chromium
def test_referee_and_player_at_one_table(server: str, browser: Any) -> None:
    referee = browser.new_context().new_page()
    errors: list[str] = []
    referee.on("pageerror", lambda e: errors.append(str(e)))
    referee.goto(server)
    referee.fill("#new-campaign input[name=name]", "Keep")
    referee.click("#new-campaign button")
    referee.wait_for_url(re.compile(r"/c/Keep/referee$"))
    referee.wait_for_selector("body[data-live='1']")
    referee.fill("#funnel input[name=players]", "Ann, Bo")
    referee.fill("#funnel input[name=per_player]", "2")
    referee.click("#funnel button")
    referee.wait_for_selector("#roster .member >> nth=3")
    referee.fill("#invite input[name=player]", "Ann")
    referee.click("#invite button")
    invite = referee.get_attribute(".invite-url", "href")
    assert invite and referee.locator("#invite-out svg").count() == 1
    referee.fill("#start-fight input[name=monsters]", "goblin x2")
    referee.click("#start-fight button")
    referee.wait_for_selector("#encounter table")

    phone = browser.new_context(viewport=PHONE, is_mobile=True)
    ann = phone.new_page()
    ann.on("pageerror", lambda e: errors.append(str(e)))
    received: list[str] = []
    ann.on("response", lambda r: received.append(_body(r)))
    ann.goto(invite)
    ann.click("#join")
    ann.wait_for_url(re.compile(r"/c/Keep/player$"))
    ann.wait_for_selector("body[data-live='1']")
    ann.wait_for_selector("#mine .member >> nth=1")
    assert "Goblin" not in ann.inner_text("main")          # concealed until the referee reveals them
    ann.click("[data-roll=check]")
    ann.wait_for_selector("#log li.sheet_roll")
    referee.wait_for_selector("#log li.sheet_roll")          # live on the referee's page too

    referee.check("#roll input[name=hidden]")
    referee.fill("#roll input[name=label]", SECRET)
    referee.click("#roll button")
    referee.wait_for_selector(f"#log li.hidden:has-text('{SECRET}')")
    referee.uncheck("#roll input[name=hidden]")
    referee.fill("#roll input[name=label]", "marker-after")
    referee.click("#roll button")
    ann.wait_for_selector("#log li:has-text('marker-after')")
    assert SECRET not in ann.content()
    assert not [r for r in received if SECRET in r]

    box = ann.locator("main").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 1, box
    assert not errors, errors


def _body(response: Any) -> str:
    if "text/event-stream" in (response.headers.get("content-type") or ""):
        return ""      # the stream never ends; its secrecy is tested over HTTP (test_secrecy.py)
    try:
        return str(response.text())
    except Exception:   # a redirect or a body already gone
        return ""

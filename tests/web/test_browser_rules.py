"""The referee's rules panel in a real headless Chromium (Debian's /usr/bin/chromium through Playwright): she sets
an option with the form, the panel lists it as set with where its value comes from, and she takes it back with
its button."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.live_server import Served
from tests.web.test_browser_table import _referee_at_keep

pytestmark = pytest.mark.browser


def test_the_referee_sets_an_option_and_takes_it_back(browser: Any, served: Served) -> None:
    referee = _referee_at_keep(browser, served, "Ann")
    errors: list[str] = []
    referee.on("pageerror", lambda e: errors.append(str(e)))
    referee.wait_for_selector("#rule-options tbody tr >> nth=10", state="attached")
    referee.click("#rules-panel summary")                      # every option in force, folded until asked
    assert referee.inner_text("#rules-profile") == "profile furnace"
    referee.fill("#rule-set input[name=option]", "hazards_light")
    referee.fill("#rule-set input[name=value]", "true")
    referee.click("#rule-set button")
    referee.wait_for_selector("#rule-overrides li:has-text('set:hazards_light = true')")
    row = referee.locator("#rule-options tr:has-text('hazards_light')")
    assert row.inner_text().split("\t") == ["hazards_light", "true", "campaign override set"]
    referee.click("#rule-overrides li:has-text('set:hazards_light') button")
    referee.wait_for_selector("#rule-overrides li", state="detached")
    referee.wait_for_selector("#rule-options tr:has-text('hazards_light'):has-text('default')")
    assert not errors, errors

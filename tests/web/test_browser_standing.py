"""The referee keeps the standing answers between fights from her page, in Chromium: a policy for Ann, a kind of
choice not asked and the seconds a question waits, set with the form and read back from the API (`furnace
standing`'s). `furnace serve` runs as a subprocess (`tests/web/live_server.Served`)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.live_server import Served
from tests.web.test_browser_table import _api, _referee_at_keep

pytestmark = pytest.mark.browser
K = "/api/campaigns/Keep"


def test_the_referee_sets_the_standing_answers_on_her_page(browser: Any, served: Served) -> None:
    referee = _referee_at_keep(browser, served, "Ann, Bo")
    errors: list[str] = []
    referee.on("pageerror", lambda e: errors.append(str(e)))
    referee.wait_for_selector("#standing-players select[data-player='Ann']")
    referee.select_option("#standing-players select[data-player='Ann']", "dying")
    referee.check("#standing-kinds input[data-kind='sunder']")
    referee.fill("#standing input[name=seconds]", "45")
    referee.click("#standing button[type=submit]")
    referee.wait_for_selector("#log li.standing_lasting")
    held = _api(referee, "GET", K + "/standing")
    assert (held["policies"], held["quiet"], held["seconds"]) == ({"Ann": "dying"}, ["sunder"], 45)
    assert not errors, errors

"""Debian's Chromium for the browser tests (never a downloaded browser): a loud skip without it, a failure in CI."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
WAIT_MS = 120_000   # Playwright's waits (30 s by default) are waits, not bounds: generous, for a busy machine


def need_chromium() -> None:
    if Path(CHROMIUM).exists():
        return
    message = (f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium; .ci/run does) "
               "to run the browser tests")
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(message)
    pytest.skip(message)


@contextmanager
def chromium() -> Iterator[Any]:
    """A headless Chromium through Playwright, closed at the end."""
    need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, timeout=WAIT_MS)
        try:
            yield Patient(browser)
        finally:
            browser.close()


class Patient:
    """The browser, whose contexts and pages wait up to WAIT_MS for a selector, a navigation or an answer."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser

    def new_context(self, **kwargs: Any) -> Any:
        context = self.browser.new_context(**kwargs)
        context.set_default_timeout(WAIT_MS)
        context.set_default_navigation_timeout(WAIT_MS)
        return context

    def new_page(self, **kwargs: Any) -> Any:
        page = self.browser.new_page(**kwargs)
        page.set_default_timeout(WAIT_MS)
        page.set_default_navigation_timeout(WAIT_MS)
        return page

    def __getattr__(self, name: str) -> Any:
        return getattr(self.browser, name)

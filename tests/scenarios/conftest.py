"""Every scenario's printed output is swept for tokens people must never read (`tests.helpers.story.TOKENS`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.helpers.story import tokens_in
from tests.scenarios.session import PRINTED


@pytest.fixture(autouse=True)
def _words_not_tokens() -> Iterator[None]:
    PRINTED.clear()
    yield
    found = [(args, token) for args, out in PRINTED for token in tokens_in(out)]
    PRINTED.clear()
    assert not found, f"tokens in what the CLI printed: {found[:10]}"

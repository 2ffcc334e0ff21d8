"""The funnel's party piped: written as rich draws it (`furnace.render.text.plain_table`), without importing rich."""

from __future__ import annotations

import pytest

from tests.cli.conftest import Run


@pytest.mark.parametrize("args", [
    ["--seed", "1"],
    ["--seed", "2", "--players", "1", "--per-player", "1"],
    ["--seed", "3", "--player", "Ann", "--player", "Bo: the second"],
    ["--seed", "4", "--player", "x[bold]y"],                        # markup: rich draws it
    ["--seed", "5", "--player", "Zoë", "--player", "B" * 60],      # a wide letter, and a table wider than the page
])
def test_the_party_is_drawn_as_rich_draws_it(furnace: Run, monkeypatch: pytest.MonkeyPatch, args: list[str]) -> None:
    code, plain, _ = furnace("funnel", *args)
    assert code == 0
    monkeypatch.setenv("TTY_COMPATIBLE", "0")        # (rich's own word for piped output: rich draws the table)
    code, drawn, _ = furnace("funnel", *args)
    assert code == 0
    assert plain == drawn
    assert plain.splitlines()[1].startswith("┏━")

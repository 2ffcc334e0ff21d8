"""The console's JSON API fuzzed from its own OpenAPI document (schemathesis), signed in as the referee, a player
and an observer, each with a CSRF token: no answer is a 5xx. A fixed small budget (a few examples per operation
and role) keeps it in the default run; the share of 2xx answers is printed at the end of the run.

Left out of the fuzz: the live stream (it never ends; tests/web/test_live.py), signing out and revoking sessions
(they would end the fuzzer's own session: tests/web/test_roles.py), and the simulation (hundreds of fights a call:
tests/web/test_panels.py)."""

from __future__ import annotations

import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

schemathesis = pytest.importorskip("schemathesis")

from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.config import SchemathesisConfig  # noqa: E402

from furnace import dice  # noqa: E402
from furnace.campaign import access  # noqa: E402
from furnace.campaign.roster import Funnel  # noqa: E402
from furnace.web import WebSettings, create_app  # noqa: E402
from furnace.web.auth import CSRF_COOKIE, SESSION_COOKIE  # noqa: E402
from tests.web.conftest import UNLIMITED, seeded_dice  # noqa: E402

EXAMPLES = 4             # per operation and role: the budget of the default run
ROLES = ("referee", "player", "observer")
CSRF = "fuzz-csrf-token"

# only the generated (fuzzed) phase: the coverage phase alone makes thousands of calls
CONFIG = SchemathesisConfig.from_dict({"phases": {"coverage": {"enabled": False}, "examples": {"enabled": False},
                                                  "stateful": {"enabled": False}}})


def _openapi() -> dict[str, Any]:
    """The console's OpenAPI document (from an app on a throwaway database)."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(WebSettings(db=str(Path(folder) / "schema.db"), demo=False))
        document: dict[str, Any] = app.openapi()
        app.state.store.close()
        return document


schema = schemathesis.openapi.from_dict(_openapi(), config=CONFIG).exclude(
    path_regex=r"(/live|/signout|/revoke|/simulate)$")
tally: Counter[tuple[str, str]] = Counter()     # (role, 2xx/4xx/5xx)


@pytest.fixture(scope="module")
def console(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """One app on a temp database: the campaign `keep` with a funnel, a fight, and a session for each role."""
    db = Path(tmp_path_factory.mktemp("fuzz")) / "fuzz.db"
    app = create_app(WebSettings(db=str(db), rng=seeded_dice(), demo=False, **UNLIMITED))
    store = app.state.store
    store.create("keep")
    store.apply("keep", "funnel", Funnel(["Ann", "Bo"], 2, dice.seeded(1)))
    from furnace.campaign.encounters import begin

    store.apply("keep", "encounter start", begin(["all"], dice.seeded(2), monsters="goblin x2"))
    tokens = {role: access.new_session(store, role, None if role == "referee" else "keep",
                                       "Ann" if role == "player" else "")[0] for role in ROLES}
    yield {"app": app, "tokens": tokens}
    by_role = ", ".join(f"{role} {tally_share('2xx', role):.0%}" for role in ROLES)
    print(f"\nschemathesis: {sum(tally.values())} calls, {tally_share('2xx'):.0%} answered 2xx ({by_role}), "
          f"{count('4xx')} refused or invalid (4xx), {count('5xx')} 5xx")


def count(kind: str) -> int:
    return sum(n for (_, got), n in tally.items() if got == kind)


def tally_share(kind: str, role: str | None = None) -> float:
    chosen = {k: n for k, n in tally.items() if role is None or k[0] == role}
    return sum(n for (_, got), n in chosen.items() if got == kind) / max(1, sum(chosen.values()))


@schema.parametrize()  # type: ignore[untyped-decorator]
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
def test_no_answer_is_a_server_error(case: Any, console: dict[str, Any]) -> None:
    # the fuzz reaches the commands, not only "no such campaign": the campaign, Ann's first peasant, a table
    for name, value in (("campaign", "keep"), ("who", "ann1"), ("name", "fumble")):
        if name in (case.path_parameters or {}):
            case.path_parameters[name] = value
    for role in ROLES:
        answer = case.call(app=console["app"], headers={"X-CSRF-Token": CSRF},
                           cookies={SESSION_COOKIE: console["tokens"][role], CSRF_COOKIE: CSRF})
        tally[role, f"{answer.status_code // 100}xx"] += 1
        assert answer.status_code < 500, f"{role}: {case.method} {case.formatted_path} → {answer.status_code} " \
                                         f"{answer.text[:300]}"

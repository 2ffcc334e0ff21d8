"""Every odd number, integer and string of issue 24 in every field of every route, as each role: never a 5xx.

A walk over the console's own OpenAPI document, deterministic (the generated fuzz is tests/web/test_fuzz.py):
for each operation a plausible request is made (a campaign with a funnel and a fight, Ann's first peasant, each
field's minimum, default or first choice), then each of its fields, path and query parameters in turn is given
each odd value — JSON NaN and ±Infinity, 1e400, integers past 64 bits, a fraction where a whole number goes, a lone
surrogate, a NUL, ten thousand characters, an unknown name — and sent as the referee, a player and an observer.
Left out: the live stream (it never ends: tests/web/test_hardening_gate.py sends it odd Last-Event-IDs and
tests/web/test_hardening_limits.py its limits) and signing out (it has no field).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from itertools import count
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from furnace import dice
from furnace.campaign import access
from furnace.campaign.encounters import begin
from furnace.campaign.roster import Funnel
from furnace.web import WebSettings, create_app
from furnace.web.auth import CSRF_COOKIE, SESSION_COOKIE
from tests.helpers.long_tests import full_suite
from tests.web.conftest import UNLIMITED, seeded_dice

ROLES = ("referee", "player", "observer")
CSRF = "odd-csrf-token"
BIG = "__BIG__"          # stands for the raw JSON 1e400 (Python's json writes no such number)

ODD_JSON: list[Any] = [float("nan"), float("inf"), float("-inf"), BIG, 2**64, 10**25, -(10**25), 2.5, -0.0,
                       "\ud800", "a\udfffb", "\x00", "x" * 10_000, "Troll", "<script>alert(1)</script>", None, [],
                       {}, True]
ODD_TEXT = ["NaN", "Infinity", "-Infinity", "1e400", "9" * 25, "-" + "9" * 25, "2.5", "-1", "%ED%A0%80", "%00",
            "x" * 3000, "..%2F..%2Fetc", "Troll", "%F0%9F%94%A5"]

# plausible values by a field's name: the request reaches the command, not only its first refusal
PLAUSIBLE = {"campaign": "keep", "who": "ann1", "expression": "1d6", "monsters": "goblin", "spell": "Magic Missile",
             "name": "fumble", "kind": "check", "token": "0123456789abcdef", "source": "torch", "role": "player",
             "label": "odd", "unit": "turn", "disease": "Red Ache", "action": "attack", "target": "m1"}


def _openapi(app: Any) -> dict[str, Any]:
    document: dict[str, Any] = app.openapi()
    return document


def _resolve(doc: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    if ref:
        found: dict[str, Any] = doc["components"]["schemas"][ref.rsplit("/", 1)[-1]]
        return found
    return schema


def _plausible(name: str, schema: dict[str, Any]) -> Any:
    options = schema.get("anyOf", [schema])
    first = next((o for o in options if o.get("type") != "null"), options[0])
    if "enum" in first:
        return first["enum"][0]
    kind = first.get("type")
    if kind in ("integer", "number"):
        low = first.get("minimum", first.get("exclusiveMinimum", 0) + 1)
        return int(low) if kind == "integer" else float(low)
    if kind == "boolean":
        return False
    if kind == "array":
        return []
    if "default" in schema and schema["default"] is not None:
        return schema["default"]
    return PLAUSIBLE.get(name, "ann1")


def _operations(doc: dict[str, Any]) -> Iterator[tuple[str, str, list[dict[str, Any]], dict[str, Any]]]:
    for path, ops in doc["paths"].items():
        if path.endswith(("/live", "/signout")):
            continue
        for method, op in ops.items():
            body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
            yield method.upper(), path, op.get("parameters", []), _resolve(doc, body) if body else {}


def _raw(body: dict[str, Any]) -> bytes:
    return json.dumps(body).replace(f'"{BIG}"', "1e400").encode("utf-8", "surrogatepass")


@pytest.fixture(scope="module")
def console(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    db = Path(tmp_path_factory.mktemp("odd")) / "odd.db"
    app = create_app(WebSettings(db=str(db), rng=seeded_dice(), demo=False, **UNLIMITED))
    store = app.state.store
    store.create("keep")
    store.apply("keep", "funnel", Funnel(["Ann", "Bo"], 2, dice.seeded(1)))
    store.apply("keep", "encounter start", begin(["all"], dice.seeded(2), monsters="goblin x2"))
    tokens = {role: access.new_session(store, role, None if role == "referee" else "keep",
                                       "Ann" if role == "player" else "")[0] for role in ROLES}
    yield {"app": app, "tokens": tokens, "doc": _openapi(app)}
    store.close()


def _share(odds: list[Any], turn: Iterator[int]) -> list[Any]:
    """Every odd value for each field in the whole run; in the default run one each, in turn, so that every field
    gets one and every value reaches fields (a deterministic ~1/14 of the walk: tests/helpers/long_tests.py)."""
    return list(odds) if full_suite() else [odds[next(turn) % len(odds)]]


def _cases(doc: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, str], dict[str, str], bytes | None, str]]:
    """(method, path, path values, query values, raw body, what is odd) for every field and odd value."""
    turn = count()
    for method, path, parameters, body_schema in _operations(doc):
        params = {p["name"]: (p["in"], str(_plausible(p["name"], p["schema"]))) for p in parameters}
        fields = {k: _plausible(k, v) for k, v in body_schema.get("properties", {}).items()}

        def split(values: dict[str, tuple[str, str]]) -> tuple[dict[str, str], dict[str, str]]:
            return ({k: v for k, (where, v) in values.items() if where == "path"},
                    {k: v for k, (where, v) in values.items() if where == "query"})

        base_path, base_query = split(params)
        for name, (where, _) in params.items():
            for odd in _share(ODD_TEXT, turn):
                changed_path, changed_query = split(params | {name: (where, odd)})
                yield method, path, changed_path, changed_query, _raw(fields) if body_schema else None, \
                    f"{where} {name}={odd[:20]}"
        for name in fields:
            for odd in _share(ODD_JSON, turn):
                yield method, path, base_path, base_query, _raw(fields | {name: odd}), f"body {name}={odd!r:.20}"


def _url(path: str, values: dict[str, str], query: dict[str, str]) -> str:
    for key, value in values.items():
        path = path.replace("{" + key + "}", value)      # already URL text: %ED%A0%80 is sent as such
    return path + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def test_every_odd_input_is_a_4xx_never_a_5xx(console: dict[str, Any]) -> None:
    tally: Counter[str] = Counter()
    failures: list[str] = []
    clients = {}
    for role in ROLES:
        client = TestClient(console["app"], raise_server_exceptions=False)
        client.cookies.set(SESSION_COOKIE, console["tokens"][role])
        client.cookies.set(CSRF_COOKIE, CSRF)
        client.headers["X-CSRF-Token"] = CSRF
        clients[role] = client
    for method, path, values, query, body, odd in _cases(console["doc"]):
        for role, client in clients.items():
            headers = {"Content-Type": "application/json"} if body is not None else {}
            answer = client.request(method, _url(path, values, query), content=body, headers=headers)
            tally[f"{answer.status_code // 100}xx"] += 1
            if answer.status_code >= 500:
                failures.append(f"{role}: {method} {path} {odd} → {answer.status_code} {answer.text[:160]}")
    print(f"\nodd inputs: {sum(tally.values())} requests, {dict(tally)}")
    assert not failures, "\n".join(failures[:40]) + f"\n({len(failures)} in all)"
    assert tally["4xx"] > 0.9 * sum(tally.values())

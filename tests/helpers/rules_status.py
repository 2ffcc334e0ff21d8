"""docs/rules-status.md, made from the rule marks of the tests that passed (tests/helpers/rule_marks.py).

Every rule id of RULES.md (the committed index, src/furnace/data/rules-index.yaml) gets one status:
- **shown**: a passing test marked `@pytest.mark.rule(id)` drove a public path (a CLI command, a console
  route or a campaign command) and checked the rule's numbers;
- **referee prompt**: RULES.md marks it REFEREE, and the engine hands the matter to the referee where its
  code cites the id (`referee_prompt`, a prompt effect);
- **outside book**: RULES.md marks it EXTERNAL: its content is in a book that is not among the sources;
  the page names the plug-in slot a referee fills;
- **guidance**: RULES.md marks it GUIDANCE: design advice with no mechanic;
- **not shown**: none of these yet.
*Where* names the modules whose code or data cite the id (a line that names it), which is where to look.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
INDEX = ROOT / "src/furnace/data/rules-index.yaml"
PAGE = ROOT / "docs/rules-status.md"
README = ROOT / "README.md"
ID = re.compile(r"\b([FHMX]-[A-Z]+-\d+[a-z]?)\b")
PROMPT = re.compile(r"referee_prompt|RefereePrompt|prompt", re.I)
STATUSES = ("shown", "referee prompt", "outside book", "guidance", "not shown")
SUMMARY = re.compile(r"\*\*(\d+) ids: (\d+) shown, (\d+) referee prompt, (\d+) outside book, (\d+) guidance, "
                     r"(\d+) not shown\.\*\*")


@cache
def rules() -> tuple[dict[str, Any], ...]:
    return tuple(yaml.safe_load(INDEX.read_text(encoding="utf-8"))["rules"])


@cache
def known_ids() -> frozenset[str]:
    return frozenset(str(r["id"]) for r in rules())


def read_rules_md(path: Path) -> list[dict[str, object]]:
    """The ids, titles and status tags of RULES.md's rule and table headings (for `--index`)."""
    found: list[dict[str, object]] = []
    current: dict[str, object] | None = None
    for line in path.read_text(encoding="utf-8").splitlines():
        head = re.match(r"^#{3,4} ([FHM]-[A-Z]+-\d+[a-z]?) · (.+)$", line)
        if head:
            current = {"id": head.group(1), "title": head.group(2).strip(), "tags": []}
            found.append(current)
        elif current is not None and line.startswith("- Status:"):
            current["tags"] = re.findall(r"\b(CORE|OPTIONAL|EXTERNAL|REFEREE|GUIDANCE|GARBLED|DERIVED)\b",
                                         line.split("(")[0])
    return found


@cache
def citations() -> dict[str, dict[str, frozenset[str]]]:
    """For each id: the modules of src/furnace whose lines cite it, as a prompt or otherwise."""
    found: dict[str, dict[str, set[str]]] = {}
    for path in sorted((ROOT / "src/furnace").rglob("*")):
        if path.suffix not in (".py", ".yaml") or path.name in ("options.yaml", "rules-index.yaml"):
            continue
        where = str(path.relative_to(ROOT / "src"))
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            kind = "prompt" if PROMPT.search(line) else "code"
            for rid in ID.findall(line):
                found.setdefault(rid, {}).setdefault(kind, set()).add(where)
    return {rid: {k: frozenset(v) for k, v in kinds.items()} for rid, kinds in found.items()}


def plug_in_slots() -> dict[str, str]:
    """The slot a referee fills for each EXTERNAL id the engine names as a plug-in point."""
    from furnace.houserules.middle_sea.external import EXTERNAL_RULES

    return {rid: f"`register_plugin({rid!r}, fn)` ({rule.needs})" for rid, rule in EXTERNAL_RULES.items()}


def shown_by(results: Iterable[Mapping[str, Any]]) -> dict[str, list[str]]:
    """Each id and the passing marked tests that drove a public path to show it."""
    shown: dict[str, list[str]] = {}
    for result in results:
        if result.get("outcome") == "passed" and result.get("paths"):
            for rid in result["ids"]:
                shown.setdefault(rid, []).append(result["test"])
    return shown


def status(rule: Mapping[str, Any], tests: list[str]) -> str:
    tags = rule.get("tags") or []
    if tests:
        return "shown"
    if "REFEREE" in tags and citations().get(str(rule["id"]), {}).get("prompt"):
        return "referee prompt"
    if "EXTERNAL" in tags:
        return "outside book"
    if "GUIDANCE" in tags:
        return "guidance"
    return "not shown"


def counts(results: Iterable[Mapping[str, Any]]) -> Counter[str]:
    shown = shown_by(results)
    return Counter(status(rule, shown.get(str(rule["id"]), [])) for rule in rules())


def summary(tally: Counter[str]) -> str:
    return f"**{sum(tally.values())} ids: " + ", ".join(f"{tally[s]} {s}" for s in STATUSES) + ".**"


def _where(rid: str, st: str) -> str:
    if st == "outside book" and rid in plug_in_slots():
        return "plug-in slot: " + plug_in_slots()[rid]
    cited = citations().get(rid, {})
    where = sorted(cited.get("code", frozenset()) | cited.get("prompt", frozenset()))
    return ", ".join(f"`{w}`" for w in where[:3]) + (" …" if len(where) > 3 else "")


def _tests(tests: list[str]) -> str:
    if not tests:
        return ""
    first = tests[0].split("::")[0]
    return f"{len(tests)} (`{first}`{' …' if len(tests) > 1 else ''})"


def page(results: Iterable[Mapping[str, Any]]) -> str:
    results = list(results)
    shown = shown_by(results)
    rows, tally = [], Counter[str]()
    for rule in rules():
        rid = str(rule["id"])
        st = status(rule, shown.get(rid, []))
        tally[st] += 1
        rows.append(f"| {rid} | {str(rule['title']).replace('|', '/')} | {st} | {_tests(shown.get(rid, []))} | "
                    f"{_where(rid, st)} |")
    return "\n".join([
        "# Rules status", "",
        "Generated by `scripts/gen_rules_status.py` from the rule marks of the tests that passed",
        "(`@pytest.mark.rule`, checked by `tests/helpers/rule_marks.py`); a run of the whole suite fails when this",
        "page is not what its results make. Every rule and table id of RULES.md and what shows it:",
        "**shown** (a passing test marked with the id drove a public path — a `furnace` command, a console",
        "route or a campaign command — and checked the rule's numbers), **referee prompt** (RULES.md marks it",
        "REFEREE and the engine hands the matter to the referee), **outside book** (RULES.md marks it EXTERNAL:",
        "its content is in a book that is not among the sources; the plug-in slot a referee fills is named),",
        "**guidance** (design advice with no mechanic) or **not shown** (no test shows it on a user's path yet).",
        "*Tests* counts the marked tests and names the first one's file; *where* names the modules citing the id.",
        "", summary(tally), "",
        "| id | rule | status | tests | where |", "|---|---|---|---|---|", *rows, ""])


def stale(results: Iterable[Mapping[str, Any]]) -> str:
    """Why docs/rules-status.md or the README's counts are not what these results make, or ''."""
    results = list(results)
    made = page(results)
    if not PAGE.exists() or PAGE.read_text(encoding="utf-8") != made:
        return "it is not what the rule marks of this run make; run: python scripts/gen_rules_status.py"
    if summary(counts(results)) not in README.read_text(encoding="utf-8"):
        return f"README.md does not carry the page's counts ({summary(counts(results))})"
    return ""

"""docs/rules-status.md is made from the rule marks of the tests that passed (REF-01: the docs stay true).

A run of the whole suite checks the page itself (tests/helpers/rule_marks.py, at the end of the session); here:
the page lists every id of RULES.md once, with one status each, and the README carries its counts."""

from __future__ import annotations

import re

from tests.helpers import rules_status


def test_the_page_lists_every_rule_id_once_with_one_status() -> None:
    text = rules_status.PAGE.read_text(encoding="utf-8")
    rows = re.findall(r"^\| ([FHM]-[A-Z]+-\d+[a-z]?) \| .*? \| (shown|referee prompt|outside book|guidance|"
                      r"not shown) \|", text, re.M)
    assert sorted(rid for rid, _ in rows) == sorted(rules_status.known_ids())
    found = rules_status.SUMMARY.search(text)
    assert found is not None
    total, *tally = (int(n) for n in found.groups())
    assert total == len(rows) == 276
    assert tally == [sum(st == s for _, st in rows) for s in rules_status.STATUSES]


def test_the_readme_carries_the_pages_counts() -> None:
    found = rules_status.SUMMARY.search(rules_status.PAGE.read_text(encoding="utf-8"))
    assert found is not None
    assert found.group(0) in rules_status.README.read_text(encoding="utf-8")

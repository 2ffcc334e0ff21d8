"""Write docs/rules-status.md from the rule marks of the tests that pass, and the README's counts with it.

    python scripts/gen_rules_status.py                 # run the marked tests (pytest -m rule), then write
    python scripts/gen_rules_status.py --report F.json # use a run's report (pytest --rule-report F.json)
    python scripts/gen_rules_status.py --index         # first re-read ../shared/RULES.md into the index

The statuses come from pytest's own collection and outcomes, never from searching the tests' text: the
project's plugin (tests/helpers/rule_marks.py) records each marked test's ids, outcome and the public paths
it entered, and tests/helpers/rules_status.py turns them into the page. The index
(src/furnace/data/rules-index.yaml: id, title, status tags) is made from RULES.md once and committed, so
the page can be checked in CI without RULES.md.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.helpers import rules_status  # noqa: E402  (the repository's root is on the path only now)


def run_marked_tests(report: Path) -> None:
    """Only the marked tests, with PostgreSQL where scripts/with-postgres can start one."""
    pytest = [sys.executable, "-m", "pytest", "-q", "-m", "rule", "-p", "no:cacheprovider",
              "--rule-report", str(report)]
    command = [str(ROOT / "scripts/with-postgres"), *pytest] if os.name == "posix" else pytest
    done = subprocess.run(command, cwd=ROOT, check=False)
    if done.returncode not in (0, 1):
        sys.exit(f"gen_rules_status: pytest could not run the marked tests (exit {done.returncode})")


def write_readme_counts(line: str) -> None:
    text = rules_status.README.read_text(encoding="utf-8")
    new, n = rules_status.SUMMARY.subn(line, text)
    if n == 0:
        print("README.md has no line of counts to update; add one:", line, file=sys.stderr)
    rules_status.README.write_text(new, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--report", type=Path, help="a report written by pytest --rule-report")
    parser.add_argument("--index", action="store_true", help="re-read ../shared/RULES.md into the index first")
    args = parser.parse_args()
    if args.index:
        found = rules_status.read_rules_md(ROOT.parent / "shared/RULES.md")
        rules_status.INDEX.write_text(
            "# Made from RULES.md by scripts/gen_rules_status.py --index: id, title, status tags.\n"
            + yaml.safe_dump({"rules": found}, sort_keys=False, allow_unicode=True, width=200), encoding="utf-8")
        rules_status.rules.cache_clear()
    report = args.report
    if report is None:
        report = Path(tempfile.mkdtemp(prefix="furnace-rules-")) / "report.json"
        run_marked_tests(report)
    results = json.loads(report.read_text(encoding="utf-8"))["tests"]
    rules_status.PAGE.write_text(rules_status.page(results), encoding="utf-8")
    line = rules_status.summary(rules_status.counts(results))
    write_readme_counts(line)
    print(re.sub(r"\*", "", line))


if __name__ == "__main__":
    main()

"""RULES.md ids in the rules' own texts, and the texts without them.

The rules data (a table's notes, a result's explanation of how a CHECK or a SPELLCHECK came out) cite the
RULES.md ids behind them in their prose, for whoever checks the rules against the books. A referee at the table
reads them without the ids; `--explain` shows them whole. Events are facts and carry their ids apart
(`Event.rules`): nothing here is applied to an event.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

RULE_ID = r"(?:[FHMX]-[A-Z]{2,6}-\d{1,3}[a-z]?|AMB-\d{1,3}[a-z]?|CF-\d{1,3}|REF-\d{1,3}|EXT-\d{1,3}|D-\d{1,2})"
_IDS_ONLY = re.compile(rf"\s*\(\s*{RULE_ID}(?:\s*(?:,|/|;|and|&)?\s*{RULE_ID}|/\d{{1,3}}[a-z]?)*\s*\)")
_ID_IN_PARENS = re.compile(rf"(?:[,;]\s*{RULE_ID}(?:/\d{{1,3}})?(?=[,;)])|(?<=\(){RULE_ID}(?:/\d{{1,3}})?[,;]?\s+)")
_LEADING_ID = re.compile(rf"^(\s*){RULE_ID}(?:/\d{{1,3}})?(?:\s*/\s*{RULE_ID})*:\s+", re.M)   # "AMB-03 / CF-14: …"


def without_rule_ids(text: str, keep: Iterable[str] = ()) -> str:
    """The text without rule ids: a parenthesis of ids goes, an id beside words in one loses the id. The names in
    `keep` stay even when they look like an id (the funnel names player D's peasants D-1, D-2 …)."""
    kept = {f"\x00{i}\x00": name for i, name in enumerate(n for n in set(keep) if re.fullmatch(RULE_ID, n))}
    for mark, name in kept.items():
        text = re.sub(rf"(?<![\w-]){re.escape(name)}(?![\w-])", mark, text)
    text = _IDS_ONLY.sub("", text)
    text = _ID_IN_PARENS.sub("", text)
    text = _LEADING_ID.sub(r"\1", text)
    for mark, name in kept.items():
        text = text.replace(mark, name)
    return text

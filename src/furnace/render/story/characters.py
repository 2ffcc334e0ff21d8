"""The tellers of characters facts."""

from __future__ import annotations

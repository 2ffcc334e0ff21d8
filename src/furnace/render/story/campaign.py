"""The tellers of campaign facts."""

from __future__ import annotations

"""The tellers of hazards facts."""

from __future__ import annotations

"""The tellers of middle_sea facts."""

from __future__ import annotations

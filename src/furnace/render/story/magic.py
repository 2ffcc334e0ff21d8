"""The tellers of magic facts."""

from __future__ import annotations

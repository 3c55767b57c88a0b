"""Hadara (Hans im Glück, 2019): decisions and formats; see rules.py.

Placeholder docstring; completed below.
"""

from __future__ import annotations

from gamelog.games.hadara.rules import RULES, Hadara

__all__ = ["RULES", "Hadara"]

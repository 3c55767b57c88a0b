"""Placeholder."""

from typing import Any

SCHEMAS: dict[str, Any] = {}

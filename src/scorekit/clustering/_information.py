"""Placeholder; see clustering/__init__.py."""

from __future__ import annotations

__all__: list[str] = []

"""Infiltration tests: make ``spyhouse`` importable from the src layout if not installed."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

if importlib.util.find_spec("spyhouse") is None:  # pragma: no cover - depends on the venv
    sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "src"))

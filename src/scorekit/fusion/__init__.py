"""Run fusion: ranx's methods and normalisations on scorekit's columnar runs."""

from __future__ import annotations

from ._fuse import fuse, fusion_methods
from ._optimize import FusionOptimization, optimize_fusion

__all__ = ["FusionOptimization", "fuse", "fusion_methods", "optimize_fusion"]

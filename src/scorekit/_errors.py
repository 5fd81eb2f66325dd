"""The error and warning classes of scorekit.

Every problem with what a user passed in raises a subclass of
:class:`ScorekitError` (itself a :class:`ValueError`), whose message names the
argument and the problem. A metric that is undefined on valid input warns with
:class:`UndefinedMetricWarning` and returns ``nan`` (scikit-learn's behaviour).
"""

from __future__ import annotations

__all__ = [
    "DomainError",
    "DuplicateDocumentError",
    "EmptyInputError",
    "LabelError",
    "LengthMismatchError",
    "MissingDependencyError",
    "NegativeWeightError",
    "NonFiniteError",
    "OmittedRowsWarning",
    "ParameterError",
    "ParseError",
    "ProbabilityRangeError",
    "ScorekitError",
    "ShapeError",
    "StateError",
    "UndefinedMetricWarning",
    "UnknownMeasureError",
    "UnknownMetricError",
]


class ScorekitError(ValueError):
    """Base class of every input error scorekit raises."""


class LengthMismatchError(ScorekitError):
    """Two arguments that must have one entry per sample differ in length."""


class EmptyInputError(ScorekitError):
    """An argument that needs at least one sample has none."""


class NonFiniteError(ScorekitError):
    """Scores, values or weights contain NaN or infinity (``nan_policy="raise"``)."""


class LabelError(ScorekitError):
    """Labels do not fit the metric: unknown classes, ``pos_label`` missing or absent."""


class ProbabilityRangeError(ScorekitError):
    """Values that must be probabilities lie outside [0, 1] (or rows do not sum to 1)."""


class NegativeWeightError(ScorekitError):
    """``sample_weight`` (or another weight) has a negative entry."""


class DomainError(ScorekitError):
    """Data outside a metric's domain (``y_pred <= 0`` for a deviance, ``y <= -1`` for MSLE)."""


class ShapeError(ScorekitError):
    """An argument has the wrong number of dimensions or columns."""


class ParameterError(ScorekitError):
    """An option has a value the function does not know (``average="mean"``, ``k=0``)."""


class StateError(ParameterError):
    """An accumulator state given to ``from_dict`` is malformed; the message names the field."""


class ParseError(ScorekitError):
    """A file line could not be read; the message gives the file, the line and what was expected."""


class DuplicateDocumentError(ScorekitError):
    """A ranking run or qrels lists one document twice for one query."""


class UnknownMeasureError(ScorekitError):
    """A measure name is not known; the message lists suggestions and the known names."""


class UnknownMetricError(ParameterError):
    """A metric name is not in the catalog; the message suggests the closest names."""


class MissingDependencyError(ScorekitError, ImportError):
    """An optional dependency is needed; the message names the extra to install."""


class UndefinedMetricWarning(UserWarning):
    """A metric is undefined on this (valid) input; the value returned is ``nan`` or ``zero_division``."""


class OmittedRowsWarning(UserWarning):
    """``nan_policy="omit"`` dropped rows; the message says how many."""

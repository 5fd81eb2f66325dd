"""Self-contained HTML reports: metric tables with bootstrap intervals, inline SVG plots.

Build :class:`Section` objects with the builders (``classification_section``,
``regression_section``, ``clustering_section``, ``ranking_section``,
``gauc_section``) and write them with :class:`Report`. The classification
figures (curves with bootstrap bands, calibration, heat maps ...) are written
as SVG directly; the scatter, histogram, bar and per-query figures of the
other sections need the ``plot`` extra (matplotlib). The page needs nothing
to be viewed.

>>> from scorekit.report import Metric, Report, Section
>>> page = Report("Demo", [Section("Scores <b>", "custom", (Metric("mae", 0.25),))]).to_html()
>>> "Scores &lt;b&gt;" in page and "0.2500" in page
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from ._data import Metric, Plot, Section, Table
from ._html import render_html
from ._ranking import evaluate_runs, gauc_section, ranking_section
from ._sections import classification_section, clustering_section, regression_section

__all__ = [
    "Metric",
    "Plot",
    "Report",
    "Section",
    "Table",
    "classification_section",
    "clustering_section",
    "evaluate_runs",
    "gauc_section",
    "ranking_section",
    "regression_section",
]


class Report:
    """An HTML report made of sections, written as one self-contained file.

    Parameters
    ----------
    title : str
        The page title (escaped like every other string).
    sections : iterable of Section
        The evaluations to show, in order.
    subtitle : str, default=""
        A line under the title (the input files, for instance).
    meta : sequence of (str, str), default=()
        Facts shown in the header: the command line, the time, scorekit's version.
    """

    def __init__(
        self,
        title: str = "scorekit report",
        sections: Iterable[Section] = (),
        subtitle: str = "",
        meta: Sequence[tuple[str, str]] = (),
    ):
        self.title = title
        self.subtitle = subtitle
        self.meta = list(meta)
        self.sections: list[Section] = list(sections)

    def add(self, section: Section) -> Report:
        """Append a section; returns the report."""
        self.sections.append(section)
        return self

    def to_html(self) -> str:
        """The page as a string."""
        return render_html(self.sections, title=self.title, subtitle=self.subtitle, meta=self.meta)

    def write(self, path: str | Path) -> Path:
        """Write the page (UTF-8) and return its path."""
        out = Path(path)
        out.write_text(self.to_html(), encoding="utf-8")
        return out

"""A transient progress spinner on stderr that appears only when work takes more than a second.

Short runs print nothing; long ones show what is being done (``reading
data.csv``, ``scoring``, ``drawing the report``) and the elapsed time, and the
line disappears when the work is done. It never writes to stdout, is silent
with ``--quiet`` and draws nothing when stderr is not a terminal (rich's
rule for transient displays). ``SCOREKIT_PROGRESS_DELAY`` (seconds) changes
the one-second delay; the tests use it.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any

from .._optional import require

__all__ = ["ChunkBar", "Progress"]

_DEFAULT_DELAY = 1.0


def _delay() -> float:
    try:
        return max(0.0, float(os.environ.get("SCOREKIT_PROGRESS_DELAY", _DEFAULT_DELAY)))
    except ValueError:
        return _DEFAULT_DELAY


class Progress:
    """Context manager: ``with Progress(quiet) as p: p.step("reading x"); ...``."""

    def __init__(self, quiet: bool = False, delay: float | None = None):
        self.quiet = quiet
        self.delay = _delay() if delay is None else delay
        self._message = "working"
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None
        self._live: Any = None
        self._start_time = 0.0
        self._closed = False

    def __enter__(self) -> Progress:
        self._start_time = time.monotonic()
        if not self.quiet:
            for module in ("rich.console", "rich.live", "rich.spinner", "rich.text"):
                require(module, "cli")  # imported here, not in the timer's thread
            self._timer = threading.Timer(self.delay, self._show)
            self._timer.daemon = True
            self._timer.start()
        return self

    def _renderable(self) -> Any:
        text = require("rich.text", "cli").Text
        elapsed = time.monotonic() - self._start_time
        return text(f"{self._message} … {elapsed:4.1f} s", style="dim")

    def _show(self) -> None:
        with self._lock:
            if self._closed:
                return
            console = require("rich.console", "cli").Console(stderr=True)
            spinner = require("rich.spinner", "cli").Spinner
            live = require("rich.live", "cli").Live
            self._spinner = spinner("dots", text=self._renderable())
            self._live = live(
                self._spinner,
                console=console,
                transient=True,
                refresh_per_second=8,
                redirect_stdout=False,
                redirect_stderr=True,
                get_renderable=self._current,
            )
            self._live.start()

    def _current(self) -> Any:
        self._spinner.update(text=self._renderable())
        return self._spinner

    def step(self, message: str) -> None:
        """Say what is being done now."""
        self._message = message

    def bar(self, label: str) -> Callable[[int, int], None] | None:
        """A ``progress(done, total)`` callback drawing a bar with the count and the time left.

        The bar replaces the spinner from its first call until ``done == total``
        (rich shows one live display at a time); ``None`` when quiet.
        """
        return None if self.quiet else _SpinnerBar(self, label)

    def _pause(self) -> None:
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            if self._live is not None:
                self._live.stop()
                self._live = None

    def _resume(self) -> None:
        with self._lock:
            if not self._closed and self._live is None and self._timer is None:
                self._timer = threading.Timer(self.delay, self._show)
                self._timer.daemon = True
                self._timer.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        with self._lock:
            self._closed = True
            if self._timer is not None:
                self._timer.cancel()
            if self._live is not None:
                self._live.stop()
                self._live = None


class ChunkBar:
    """A rich progress bar on stderr for :func:`scorekit.stream.consume`'s ``progress`` hook.

    ``with ChunkBar("BinaryCurve") as bar: consume(acc, chunks, progress=bar)``
    draws the count of chunks, the elapsed time and the time left; nothing
    when ``quiet``.
    """

    def __init__(
        self, label: str, quiet: bool = False, *, unit: str = "chunks", transient: bool = False
    ) -> None:
        self.label, self.quiet, self.unit, self.transient = label, quiet, unit, transient
        self._display: Any = None
        self._task: Any = None

    def __enter__(self) -> ChunkBar:
        if not self.quiet:
            bar = require("rich.progress", "cli")
            console = require("rich.console", "cli").Console(stderr=True)
            columns = (
                bar.TextColumn("{task.description}"),
                bar.BarColumn(),
                bar.MofNCompleteColumn(),
                bar.TimeElapsedColumn(),
                bar.TimeRemainingColumn(),
            )
            self._display = bar.Progress(*columns, console=console, transient=self.transient)
            self._display.start()
            self._task = self._display.add_task(f"{self.label}: {self.unit}", total=None)
        return self

    def __call__(self, done: int, total: int | None) -> None:
        if self._display is not None:
            self._display.update(self._task, completed=done, total=total)

    def __exit__(self, *exc: object) -> None:
        if self._display is not None:
            self._display.stop()
            self._display = None


class _SpinnerBar:
    """``Progress.bar``: a transient :class:`ChunkBar` of resamples that pauses the spinner."""

    def __init__(self, owner: Progress, label: str) -> None:
        self.owner, self.label = owner, label
        self._bar: ChunkBar | None = None

    def __call__(self, done: int, total: int) -> None:
        if self._bar is None:
            self.owner._pause()
            self._bar = ChunkBar(self.label, unit="resamples", transient=True).__enter__()
        self._bar(done, total)
        if done >= total:
            self._bar.__exit__()
            self._bar = None
            self.owner._resume()

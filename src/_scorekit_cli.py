"""The ``scorekit`` console script, outside the package so that start-up is covered too.

Importing ``scorekit`` (NumPy, SciPy) takes about a second; a Ctrl-C in that
second would otherwise end in a traceback, because the package's own error
handling is not loaded yet. Here it is one line on stderr and exit code 130.

Once the command has finished (or reported the interrupt), Ctrl-C is ignored:
while Python shuts down it resets its SIGINT handler to the system default,
and a Ctrl-C in that instant would kill the finished process by the signal
(exit -2, nothing printed) instead of letting it exit with its code.
"""

from __future__ import annotations

import contextlib
import signal
import sys


def main() -> int:
    """Import the command line, then run it (Ctrl-C at any point: exit 130, one line)."""
    try:
        from scorekit.cli.__main__ import main as run

        code = run()
    except KeyboardInterrupt:
        sys.stderr.write("scorekit: error: interrupted\n")
        code = 130
    # kept through interpreter shutdown; a Ctrl-C arriving just now: the command has ended
    with contextlib.suppress(KeyboardInterrupt):
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    return code

"""The ``scorekit`` console script, outside the package so that start-up is covered too.

Importing ``scorekit`` (NumPy, SciPy) takes about a second; a Ctrl-C in that
second would otherwise end in a traceback, because the package's own error
handling is not loaded yet. Here it is one line on stderr and exit code 130.
"""

from __future__ import annotations

import sys


def main() -> int:
    """Import the command line, then run it (Ctrl-C at any point: exit 130, one line)."""
    try:
        from scorekit.cli.__main__ import main as run
    except KeyboardInterrupt:
        sys.stderr.write("scorekit: error: interrupted\n")
        return 130
    return run()

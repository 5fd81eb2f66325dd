"""Entry point of the ``scorekit`` command."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code (130, one line, on Ctrl-C, even while starting)."""
    try:
        from ._commands import run

        return int(run(sys.argv[1:] if argv is None else argv))
    except KeyboardInterrupt:
        sys.stderr.write("scorekit: error: interrupted\n")
        return 130


if __name__ == "__main__":
    raise SystemExit(main())

"""The ``scorekit`` command line (needs the ``cli`` extra for tables and progress)."""

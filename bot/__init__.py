"""The pokerbot application: commands, service, scheduler, store, rendering, and the platform adapters.

Never compiled: importing `engine` first loads a compiled build's shared library (`engine/__init__.py` says why)
before any compiled module of the bot needs it.
"""

import engine  # noqa: F401

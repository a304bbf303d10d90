"""The rules of pokerbot's games: pure, synchronous, no I/O, no clock, no randomness of its own.

The one exception is this file's, and it is packaging, not a rule: never compiled, it looks for the opt-in compiled
build (`bot.compiled`) as the package is imported and loads the build's shared library, which every compiled module
imports by its name alone and which mypyc leaves at the checkout's top, where a Python started elsewhere (the
`pokerbot` command, a script, a test's subprocess) does not look for modules. No game's code reads a file.
"""

import importlib.machinery
import importlib.util
import sys
from pathlib import Path

TOP = Path(__file__).resolve().parents[1]
"""The checkout's top: where a compiled build leaves its shared library and its stamp."""
STAMP = "compiled.json"
"""A compiled build's stamp at the top: each compiled module's path and the SHA-256 of its source as compiled
(`bot.compiled` writes and reads it)."""


def compiled_libraries(top: Path) -> list[Path]:
    """The shared libraries of a compiled build at `top` (`<hash>__mypyc` and the interpreter's extension suffix)."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return sorted(path for path in top.glob("*__mypyc.*") if path.name.endswith(suffixes))


def load_compiled_libraries(top: Path) -> None:
    """Import the shared libraries of the build at `top` under their names, as if `top` were on the path; nothing
    without a build's stamp there (the plain bot pays one look for a file)."""
    if not (top / STAMP).exists():
        return
    for path in compiled_libraries(top):
        name = path.name.split(".", 1)[0]
        spec = importlib.util.spec_from_file_location(name, path)
        if name in sys.modules or spec is None or spec.loader is None:
            continue
        library = importlib.util.module_from_spec(spec)
        sys.modules[name] = library
        spec.loader.exec_module(library)


load_compiled_libraries(TOP)

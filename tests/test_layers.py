"""The project's imports point inward (adapters → service → games → engine), read from the source with `ast`.

Each module of `bot/` and `engine/` belongs to a layer; an import may only reach its own layer or a lower one.
Adapters talk to the service alone (never to the store or a game), rendering reads events and views (never a
controller's context), and no two modules of `bot/` import each other, even through a chain.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # highest first; a module belongs to the first layer one of whose prefixes names it or a package above it
    ("entry", ("bot.__main__", "bot.odds_cli")),
    ("adapters", ("bot.discord", "bot.telegram", "bot.terminal", "bot.web")),
    ("service", ("bot.service", "bot.history")),
    ("games", ("bot.games",)),
    ("application", ("bot",)),  # render, store, scheduler, commands, output, i18n…: below the games
    ("engine", ("engine",)),
)
RANK = {name: rank for rank, (name, _) in enumerate(reversed(LAYERS))}

FORBIDDEN: tuple[tuple[str, str, str], ...] = (
    # (importer prefix, imported prefix, why)
    ("bot.discord", "bot.store", "adapters keep their message ids through the service, never the store"),
    ("bot.telegram", "bot.store", "adapters keep their message ids through the service, never the store"),
    ("bot.terminal", "bot.store", "adapters keep their message ids through the service, never the store"),
    ("bot.discord", "bot.games", "adapters talk to the service, not to a game"),
    ("bot.telegram", "bot.games", "adapters talk to the service, not to a game"),
    ("bot.terminal", "bot.games", "adapters talk to the service, not to a game"),
    ("bot.web", "bot.store", "the clock pages read through the service, never the store"),
    ("bot.web", "bot.games", "the clock pages read through the service, not a game"),
)
"""What a layer may not use although it lies below (rendering, below the games, needs no rule of its own: it
reads events and views, never a controller's context)."""


@dataclass(frozen=True)
class Import:
    """One import of a project module by another, and where it is."""

    importer: str
    imported: str
    line: int

    def __str__(self) -> str:
        return f"{self.importer}:{self.line} imports {self.imported}"


def modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of `bot/` and `engine/` by its dotted name (a package by its own name)."""
    found = {}
    for path in sorted([*root.glob("bot/**/*.py"), *root.glob("engine/**/*.py")]):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> list[Import]:
    """The project modules that module `name` imports anywhere: at the top, inside a function, or under `if
    TYPE_CHECKING:` (a type names what it depends on too). `from bot.games import practice` names the module
    `bot.games.practice`; `from bot.games import Controller` names the package."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        for target in dict.fromkeys(targets):
            if target.split(".")[0] in ("bot", "engine"):
                found.append(Import(name, target, node.lineno))
    return found


def all_imports(root: Path = ROOT) -> list[Import]:
    """Every import of every project module."""
    known = modules(root)
    return [item for name, path in known.items() for item in imports(name, path, known)]


def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def layer(module: str) -> str:
    """The layer a module belongs to (see `LAYERS`)."""
    for name, prefixes in LAYERS:
        if any(_within(module, prefix) for prefix in prefixes):
            return name
    raise AssertionError(f"{module} is in no layer")


def outward(found: list[Import]) -> list[str]:
    """Imports that reach a higher layer, or something their layer must not use."""
    wrong = []
    for item in found:
        if RANK[layer(item.imported)] > RANK[layer(item.importer)]:
            wrong.append(f"{item} ({layer(item.importer)} → {layer(item.imported)})")
        for importer, imported, why in FORBIDDEN:
            if _within(item.importer, importer) and _within(item.imported, imported):
                wrong.append(f"{item}: {why}")
    return wrong


def cycles(found: list[Import]) -> list[list[str]]:
    """Groups of `bot` modules that import each other, directly or through a chain."""
    graph: dict[str, set[str]] = {}
    for item in found:
        if item.importer != item.imported and _within(item.importer, "bot") and _within(item.imported, "bot"):
            graph.setdefault(item.importer, set()).add(item.imported)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:  # Tarjan's strongly connected components
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def test_imports_point_inward() -> None:
    found = all_imports()
    assert len({item.importer for item in found}) > 50  # the walk saw the project
    assert outward(found) == []


def test_no_bot_modules_import_each_other() -> None:
    assert cycles(all_imports()) == []


def test_the_checks_catch_what_they_forbid(tmp_path: Path) -> None:
    """Each rule fails on a small project that breaks it (so a passing run means the rules were applied)."""
    files = {
        "engine/__init__.py": "",
        "engine/cards.py": "from bot.render import cards_text\n",
        "bot/__init__.py": "",
        "bot/service.py": "",
        "bot/render/__init__.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                  "    from bot.games.context import Action\n",
        "bot/games/__init__.py": "",
        "bot/games/context.py": "",
        "bot/games/odds.py": "def f():\n    from bot.service import Service\n",
        "bot/games/holdem.py": "from bot.games import practice, tournament\n",
        "bot/games/practice.py": "def f():\n    from bot.games.holdem import HoldemController\n",
        "bot/games/tournament.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                   "    from bot.games.holdem import HoldemController\n",
        "bot/telegram/__init__.py": "",
        "bot/telegram/memory.py": "from bot.store import Store\n",
        "bot/store/__init__.py": "",
    }
    for name, source in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(source)
    found = all_imports(tmp_path)
    wrong = "\n".join(outward(found))
    assert "engine.cards:1 imports bot.render (engine → application)" in wrong
    assert "bot.games.odds:2 imports bot.service (games → service)" in wrong
    assert "bot.render:3 imports bot.games.context (application → games)" in wrong  # even for types only
    assert "bot.telegram.memory:1 imports bot.store: adapters keep" in wrong
    # practice's import inside a function and tournament's for types only close circles too
    assert cycles(found) == [["bot.games.holdem", "bot.games.practice", "bot.games.tournament"]]

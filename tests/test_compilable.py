"""The compiled build's modules (issue 17: the list in `bot/compiled.py`) keep to what mypyc compiles as plain Python
runs it, read from the source with `ast`.

A function assigned in a class body (`sit = seats.sit`) binds as a method in plain Python; in a class mypyc
compiles it stays a plain attribute, so the call lacks its first argument (`sit() missing required argument
'chips'`). A method that delegates (`def sit(self, …): seats.sit(self, …)`) behaves the same in both.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path
from types import ModuleType
from typing import Any

from bot import compiled

ROOT = Path(__file__).resolve().parents[1]


def resolve(value: ast.expr, namespace: dict[str, Any]) -> Any:
    """What a name or a chain of attributes (`seats.sit`) is in the module's `namespace`; None for another
    expression, or a name the module does not define (one of the class body's own)."""
    if isinstance(value, ast.Name):
        return namespace.get(value.id)
    if isinstance(value, ast.Attribute):
        return getattr(resolve(value.value, namespace), value.attr, None)
    return None


def assigned_functions(source: str, namespace: dict[str, Any], where: str) -> list[str]:
    """Each statement of a class body in `source` that assigns a function defined elsewhere (a name or an
    attribute, such as `seats.sit`, that is a function in the module's `namespace`), as `where:line
    Class.name = value`. A class (`name: Callable[[str], str] = str`) or any other value is no method and passes."""
    found = []
    for node in ast.walk(ast.parse(source, where)):
        if not isinstance(node, ast.ClassDef):
            continue
        for statement in node.body:
            if isinstance(statement, ast.Assign):
                targets, value = statement.targets, statement.value
            elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
                targets, value = [statement.target], statement.value
            else:
                continue
            resolved = resolve(value, namespace)
            if inspect.isfunction(resolved) or inspect.isbuiltin(resolved):  # compiled functions are built-ins
                names = ", ".join(ast.unparse(target) for target in targets)
                found.append(f"{where}:{statement.lineno} {node.name}.{names} = {ast.unparse(value)}")
    return found


def test_no_compiled_class_assigns_a_function_as_a_method() -> None:
    found = []
    for relative in compiled.modules(ROOT):
        path = Path(relative)
        dotted = ".".join(path.with_suffix("").parts).removesuffix(".__init__")
        module = importlib.import_module(dotted)
        found += assigned_functions((ROOT / path).read_text(), vars(module), relative)
    assert found == []


def test_a_function_assigned_in_a_class_body_is_found_and_other_values_are_not() -> None:
    source = """
class Table:
    sit = helpers.sit
    stand_up = stand_up
    name = str
    limit = LIMIT
    seat_again = seat
    unknown = helpers.missing
    count: int = 0

    def seat(self) -> None:
        pass
"""
    helpers = ModuleType("helpers")
    helpers.sit = lambda table: None  # type: ignore[attr-defined]
    namespace = {"helpers": helpers, "stand_up": len, "LIMIT": 10}
    assert assigned_functions(source, namespace, "table.py") == [
        "table.py:3 Table.sit = helpers.sit", "table.py:4 Table.stand_up = stand_up"]

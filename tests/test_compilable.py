"""The compiled build's modules (issue 17: the list in `bot/compiled.py`) keep to what mypyc compiles as plain Python
runs it, read from the source with `ast`.

A function assigned in a class body (`sit = seats.sit`) binds as a method in plain Python; in a class mypyc
compiles it stays a plain attribute, so the call lacks its first argument (`sit() missing required argument
'chips'`). A method that delegates (`def sit(self, …): seats.sit(self, …)`) behaves the same in both.

A dataclass whose `__init__` is written out (`bot/compiled.py` says why) takes the parameters the generated one would
and sets every field: a field added to the class and not to its `__init__` is found here, not at its first read. And
a dataclass deriving from one writes its own too: compiled, it would make its objects through its base's (the
generated one it was given is never called), which takes none of its fields.
"""

from __future__ import annotations

import ast
import dataclasses
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


def compiled_modules() -> list[tuple[str, ModuleType]]:
    """Each module the build compiles, by its path, imported."""
    found = []
    for relative in compiled.modules(ROOT):
        dotted = ".".join(Path(relative).with_suffix("").parts).removesuffix(".__init__")
        found.append((relative, importlib.import_module(dotted)))
    return found


def test_no_compiled_class_assigns_a_function_as_a_method() -> None:
    found = []
    for relative, module in compiled_modules():
        found += assigned_functions((ROOT / relative).read_text(), vars(module), relative)
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


def expected_parameters(cls: type) -> list[tuple[str, str, Any]]:
    """The parameters (name, kind, default) of the `__init__` `dataclass` would make for `cls`: its fields in order,
    the keyword-only ones last, a field made by a factory defaulting to None (the written-out `__init__` makes it)."""
    fields = [field for field in dataclasses.fields(cls) if field.init]
    ordered = [field for field in fields if not field.kw_only] + [field for field in fields if field.kw_only]
    made = [(field.name, "keyword" if field.kw_only else "positional",
             None if field.default_factory is not dataclasses.MISSING else field.default) for field in ordered]
    return [(name, kind, inspect.Parameter.empty if default is dataclasses.MISSING else default)
            for name, kind, default in made]


def written_parameters(init: ast.FunctionDef, namespace: dict[str, Any]) -> list[tuple[str, str, Any]]:
    """The parameters (name, kind, default) of a written-out `__init__`, its defaults evaluated in the module."""
    def value(default: ast.expr | None) -> Any:
        return inspect.Parameter.empty if default is None else eval(ast.unparse(default), namespace)

    arguments = init.args
    positional = arguments.args[1:]  # not self
    defaults = [None] * (len(positional) - len(arguments.defaults)) + list(arguments.defaults)
    found = [(argument.arg, "positional", value(default)) for argument, default in zip(positional, defaults,
                                                                                        strict=True)]
    found += [(argument.arg, "keyword", value(default))
              for argument, default in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True)]
    return found


def set_fields(init: ast.FunctionDef, cls: type) -> set[str]:
    """The fields a written-out `__init__` sets: `self.name = …`, `object.__setattr__(self, "name", …)`, and a
    base's through its own, `Base.__init__(self, name=…)` (a class made with slots has no zero-argument `super()`)."""
    bases = {base.__name__ for base in cls.__mro__[1:]}
    found = set()
    for node in ast.walk(init):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and ast.unparse(node.value) == "self":
            found.add(node.attr)
        elif isinstance(node, ast.Call) and ast.unparse(node.func) == "object.__setattr__":
            found.add(ast.literal_eval(node.args[1]))
        elif isinstance(node, ast.Call) and ast.unparse(node.func) in {f"{base}.__init__" for base in bases}:
            found.update(keyword.arg for keyword in node.keywords if keyword.arg)
    return found


def written_inits() -> list[tuple[str, type, ast.FunctionDef, dict[str, Any]]]:
    """Every dataclass of the compiled modules whose `__init__` is written in its class body, with the `__init__`'s
    source and the module's namespace."""
    found = []
    for relative, module in compiled_modules():
        for node in ast.walk(ast.parse((ROOT / relative).read_text(), relative)):
            if not isinstance(node, ast.ClassDef):
                continue
            cls = vars(module).get(node.name)
            inits = [item for item in node.body if isinstance(item, ast.FunctionDef) and item.name == "__init__"]
            if inits and dataclasses.is_dataclass(cls) and isinstance(cls, type):
                found.append((f"{relative}:{node.name}", cls, inits[0], vars(module)))
    return found


def test_each_written_out_dataclass_init_takes_and_sets_the_fields() -> None:
    checked = written_inits()
    wrong = []
    for where, cls, init, namespace in checked:
        if written_parameters(init, namespace) != expected_parameters(cls):
            wrong.append(f"{where}: takes {written_parameters(init, namespace)}, not {expected_parameters(cls)}")
        unset = {field.name for field in dataclasses.fields(cls)} - set_fields(init, cls)
        if unset:
            wrong.append(f"{where}: sets no {sorted(unset)}")
    assert wrong == []
    names = {where.rsplit(":", 1)[1] for where, *_ in checked}
    assert {"Action", "LegalActions", "Move", "PlayerRaised", "Reply", "Voice"} <= names


def test_no_dataclass_derives_from_a_written_out_init_without_its_own() -> None:
    written = {cls for _, cls, _, _ in written_inits()}
    found = [f"{relative}:{name} from {base.__name__}" for relative, module in compiled_modules()
             for name, cls in vars(module).items()
             if isinstance(cls, type) and cls.__module__ == module.__name__ and cls not in written
             and "__dataclass_fields__" in cls.__dict__  # decorated itself, so given a generated __init__
             for base in cls.__mro__[1:] if base in written]
    assert found == []


def test_a_written_out_init_missing_a_field_or_a_default_is_found() -> None:
    @dataclasses.dataclass(frozen=True, kw_only=True)
    class Base:
        visible_to: str | None = None

    @dataclasses.dataclass(frozen=True, kw_only=True)
    class Raised(Base):
        player: str
        to: int = 0
        lines: list[str] = dataclasses.field(default_factory=list)

    source = """
def __init__(self, *, visible_to: str | None = None, player: str, to: int = 1, lines: list[str] | None = None) -> None:
    Base.__init__(self, visible_to=visible_to)
    object.__setattr__(self, "player", player)
    object.__setattr__(self, "lines", [] if lines is None else lines)
"""
    init = ast.parse(source).body[0]
    assert isinstance(init, ast.FunctionDef)
    assert written_parameters(init, {}) == [("visible_to", "keyword", None), ("player", "keyword",
                                                                              inspect.Parameter.empty),
                                            ("to", "keyword", 1), ("lines", "keyword", None)]
    assert expected_parameters(Raised)[2] == ("to", "keyword", 0), "the default differs: found"
    assert {field.name for field in dataclasses.fields(Raised)} - set_fields(init, Raised) == {"to"}

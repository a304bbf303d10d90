"""No coroutine of a compiled module awaits inside an `except` or `finally` block, read from the source with `ast`.

Compiled with mypyc (issue 17's build), a coroutine has no frame of its own to keep the exception being handled in:
an await inside the handler of an error that came out of an await segfaults (a reference to the exception or its
future given up twice), and an await in a `finally` leaves the exception set as the thread's "being handled" for
good, the `__context__` of every later error in that thread (a failed `Store.open` then showed in the traceback of
each later test of the process). So such a block keeps the error in a variable, and the awaits come after it.
"""

from __future__ import annotations

import ast
from pathlib import Path

from bot import compiled

ROOT = Path(__file__).resolve().parents[1]
DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
"""Functions defined in a coroutine: their awaits are their own."""
AWAITS = (ast.Await, ast.AsyncWith, ast.AsyncFor)


def awaits_in_handlers(source: str) -> list[tuple[str, int, str]]:
    """Each await (or `async with`/`async for`) of a coroutine inside an `except` or `finally` block of that same
    coroutine: (the coroutine's name, the await's line, which block)."""
    found = []
    for function in ast.walk(ast.parse(source)):
        if not isinstance(function, ast.AsyncFunctionDef):
            continue
        for node in _own_nodes(function):
            if not isinstance(node, ast.Try | ast.TryStar):
                continue
            blocks = [("except", handler.body) for handler in node.handlers] + [("finally", node.finalbody)]
            for block, body in blocks:
                found += [(function.name, inner.lineno, block)
                          for statement in body if not isinstance(statement, DEFS)
                          for inner in _own_nodes(statement) if isinstance(inner, AWAITS)]
    return found


def _own_nodes(node: ast.AST) -> list[ast.AST]:
    """`node` and what lies in it, but not in a function defined there (its awaits are its own)."""
    nodes = [node]
    for child in ast.iter_child_nodes(node):
        if not isinstance(child, DEFS):
            nodes += _own_nodes(child)
    return nodes


def test_the_check_finds_an_await_in_a_handler_and_in_a_finally_and_none_after_them() -> None:
    source = '''
async def opened(worker):
    try:
        await worker.start()
    except BaseException:
        await worker.close()
        raise
    try:
        return await worker.run()
    finally:
        if worker.busy:
            await worker.close()


async def kept(worker):
    try:
        await worker.start()
    except BaseException as error:
        failed = error

        async def later():
            await worker.close()
    else:
        return
    await worker.close()
    raise failed
'''
    assert awaits_in_handlers(source) == [("opened", 6, "except"), ("opened", 12, "finally")]


def test_no_compiled_coroutine_awaits_in_an_except_or_finally_block() -> None:
    modules = compiled.modules(ROOT)
    assert len(modules) > 100  # the list was read
    found = [f"{module}:{line} {name} ({block})" for module in modules
             for name, line, block in awaits_in_handlers((ROOT / module).read_text())]
    assert found == []

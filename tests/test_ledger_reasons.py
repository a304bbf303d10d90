"""Every chip move names a listed reason (`engine.reasons.Reason`, or a stake line or grant made from the lists),
never a bare text, read from the source with `ast`: a reason the ledger stores is one `/export` has a phrase for
(mypy holds the call sites to it through the reason's type; this says where a text slipped in)."""

from __future__ import annotations

import ast

from tests.test_layers import modules

REASON_AT = {"Move": 3, "move": 3, "_put_in": 2, "_issue": 2}
"""Where each call that makes a move takes its reason among its positional arguments: `Move(source, target,
amount, reason)`, `Action.move(source, target, amount, reason, …)`, the engines' `_put_in(seat, amount, reason)` and
`_issue(player, chips, reason)`; `Tx.move` takes the chat first (`_reason_of`)."""


def _reason_of(call: ast.Call) -> ast.expr | None:
    """The expression a call gives as a move's reason, if it is a call that makes a move."""
    for keyword in call.keywords:
        if keyword.arg == "reason":
            return keyword.value
    function = call.func
    name = function.id if isinstance(function, ast.Name) else function.attr if isinstance(
        function, ast.Attribute) else None
    index = REASON_AT.get(name or "")
    if name == "move" and isinstance(function, ast.Attribute) and ast.unparse(function.value).endswith("tx"):
        index = 4  # `tx.move(chat_id, source, target, amount, reason, …)`
    return call.args[index] if index is not None and len(call.args) > index else None


def bare_reasons() -> list[str]:
    """Each move of `bot/` and `engine/` whose reason is a text written at the call (a literal or an f-string)."""
    found = []
    for name, path in modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(_reason_of(node), ast.Constant | ast.JoinedStr):
                found.append(f"{name}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_move_writes_its_reason_as_a_bare_text() -> None:
    assert bare_reasons() == []

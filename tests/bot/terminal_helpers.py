"""What the terminal table's tests share: the table message of the first hand as the terminal prints it, and what
it printed for a line (`said`).

The `service` fixture shuffles with `random.Random(42)`, so the deal is known: at a new table, hand #1 deals the first
player to sit down 7♠ 2♠, the second 4♦ 8♦, and the flop J♥ 6♣ J♠ (with a third player, other cards)."""

import io
from pathlib import Path

from bot.terminal import TerminalAdapter

ROOT = Path(__file__).resolve().parents[2]
HAND_DEALT = (
    "[table] Hold'em — hand #1 · blinds 10/20 · home-limit\n"
    "        Board: — · Pot: 30\n"
    "        ▶ Ann · 390 Ⓓ bet 10\n"
    "          Bob · 380 bet 20\n"
    "\n"
    "        Hand #1: button Ann, blinds 10/20. Cards are dealt — press “My cards” to see yours.\n"
    "        Ann posts the small blind 10.\n"
    "        Bob posts the big blind 20.\n"
    "        ▶ Ann to act: 10 to call (⏱ 60\xa0s).\n"
    "        (1) 🂠 My cards  (2) Fold  (3) Call 10  (4) Raise to 40  (5) ⏩ Check/fold  (6) ⏩ Check"
    "  (7) ⏩ Call any\n")
"""The table message when Ann (the button) and Bob are dealt hand #1, whatever their cards."""
ANN_CALLED = (
    "[table] Hold'em — hand #1 · blinds 10/20 · home-limit\n"
    "        Board: — · Pot: 40\n"
    "          Ann · 380 Ⓓ bet 20\n"
    "        ▶ Bob · 380 bet 20\n"
    "\n"
    "        Hand #1: button Ann, blinds 10/20. Cards are dealt — press “My cards” to see yours.\n"
    "        Ann posts the small blind 10.\n"
    "        Bob posts the big blind 20.\n"
    "        Ann calls 10.\n"
    "        ▶ Bob to act (⏱ 60\xa0s).\n"
    "        (1) 🂠 My cards  (2) Check  (3) Raise to 40  (4) ⏩ Check/fold  (5) ⏩ Call any\n")
"""The table message again once Ann has called: her call is a line of the hand's story."""


def ann_folded(*told: str) -> str:
    """The table message once Ann, the button, folds hand #1 heads-up before the flop, after the lines `told` (a
    time-out's)."""
    return ("[table] Hold'em — hand #1 · blinds 10/20 · home-limit\n"
            "        Board: — · Pot: 0\n"
            "          Ann · 390 Ⓓ folded\n"
            "          Bob · 410\n"
            "\n"
            "        Hand #1: button Ann, blinds 10/20. Cards are dealt — press “My cards” to see yours.\n"
            "        Ann posts the small blind 10.\n"
            "        Bob posts the big blind 20.\n"
            + "".join(f"        {line}\n" for line in told) +
            "        Ann folds.\n"
            "        10 uncalled chips returned to Bob.\n"
            "        Bob wins the main pot (20).\n"
            "        The hand is over.\n"
            "        (1) Show my cards\n")


async def said(terminal: TerminalAdapter, out: io.StringIO, line: str) -> str:
    """What the terminal table printed for `line` (which it must take), `out` being where it prints."""
    start = len(out.getvalue())
    assert await terminal.say(line)
    return out.getvalue()[start:]

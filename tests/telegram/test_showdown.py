"""Show or muck and run it twice in a Telegram group: the buttons, and no mucked card in anything the group sees."""

from __future__ import annotations

import pytest

from bot.games import holdem as holdem_game
from engine.cards import Deck, parse_cards
from tests.telegram.conftest import ANN, BOB, CAT, WHOLE_HANDS, no_limit_table

MUCKED = ("4♥", "5♥", "Q♥", "Q♦")


def stack_deck(monkeypatch: pytest.MonkeyPatch, cards: str) -> None:
    """The next hands are dealt from this deck (hole cards from the button's left, burns included)."""
    monkeypatch.setattr(holdem_game, "new_deck", lambda rng: Deck.stacked(parse_cards(cards)))


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_beaten_hand_mucked_with_the_button_is_never_shown_to_the_group(make_bot, monkeypatch) -> None:
    bot = await make_bot("holdem", seed=3)
    await no_limit_table(bot, 500, (BOB, "/automuck off"))
    # Ann has the button; dealt Bob, Cat, Ann twice: Bob 4-5, Cat aces, Ann queens; then the board with its burns
    stack_deck(monkeypatch, "4h Ac Qh 5h Ad Qd 2d 2c 7s 9h 3d Js 6d 3s")
    await bot.command(ANN, "/deal")
    for user, line in ((ANN, "/call"), (BOB, "/call"), (CAT, "/check"), *[(u, "/check") for u in (BOB, CAT, ANN)] * 2,
                       (BOB, "/check"), (CAT, "/bet 20"), (ANN, "/call"), (BOB, "/call")):
        await bot.command(user, line)
    table = bot.table_message()
    assert "▶ Bob Brown: show or muck?" in table.text
    answer = await bot.press(BOB, table, "Muck")
    assert answer.get("show_alert") is not True
    seen = "\n".join(bot.group_texts())
    assert "cat: A♣ A♦" in seen and "ann mucks." in seen and "Bob Brown mucks." in seen
    assert not [card for card in MUCKED if card in seen]
    assert await bot.store.read(lambda tx: tx.check_ledger()) == []


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_hand_run_twice_when_both_press_twice(make_bot, monkeypatch) -> None:
    bot = await make_bot("holdem", seed=3)
    await no_limit_table(bot, 300, players=(ANN, BOB))
    # heads-up, Ann on the button: Bob kings, Ann aces; the first board for Ann, the second gives Bob a set
    stack_deck(monkeypatch, "Kc Ah Kd As 2c 7d 9h Jc 3c 8s 5c 4d 6c Ks Th 2h 2d Qh 3d 2s")
    await bot.command(ANN, "/deal")
    await bot.command(ANN, "/allin")
    await bot.command(BOB, "/call")
    table = bot.table_message()
    assert "Run it once or twice?" in table.text
    await bot.press(ANN, table, "Run it twice")
    await bot.press(BOB, bot.table_message(), "Run it twice")
    seen = "\n".join(bot.group_texts())
    assert "Second board — Flop: K♠ T♥ 2♥" in seen
    assert "First board — ann wins the main pot (300)" in seen
    assert "Second board — Bob Brown wins the main pot (300)" in seen
    assert await bot.store.read(lambda tx: tx.check_ledger()) == []

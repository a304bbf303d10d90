"""A tournament night as the group sees it through Telegram."""

from __future__ import annotations

from typing import Any

import pytest

from tests.bot.helpers import DEALT_ALL_IN, at
from tests.telegram.conftest import ANN, BOB, WHOLE_HANDS, Running, private_chat
from tests.telegram.test_games import home_night_started, play_out
from tests.telegram.test_showdown import stack_deck


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_tournament_closed_between_hands_leaves_no_deal_button(make_bot, api) -> None:
    """Closed between hands, the tournament's table message showed the seats and "the next deal comes in a moment,
    or press Deal" with its button, and went on showing them after the results: it says the tournament is over."""
    bot = await home_night_started(make_bot, (ANN, BOB))
    await play_out(bot, bot.table_message())
    await bot.command(BOB, "/table")  # between hands: the seats, with a Deal button
    table = bot.table_message()
    assert table.text == ("Texas Hold'em — seats:\n"
                          "  ann — 310\n"
                          "  Bob Brown — 290\n"
                          "Hand #1: ann wins 20.\n"
                          "Between hands: the next deal comes in a moment, or press Deal.")
    assert [button["text"] for button in table.buttons()] == ["Deal"]

    await bot.command(ANN, "/tournament close")
    assert bot.group()[-1].text == ("ann finishes with 310 chips, worth 51.67.\n\n"
                                    "Bob Brown finishes with 290 chips, worth 48.33.\n\n"
                                    "🏆 The tournament is over. Winner: ann!\n"
                                    "Places: 1. ann · 2. Bob Brown\n\n"
                                    "Settlement (money units):\n"
                                    "ann: paid 50, cashed out 51.67, net +1.67\n"
                                    "Bob Brown: paid 50, cashed out 48.33, net −1.67\n"
                                    "Payments:\n"
                                    "Bob Brown → ann: 1.67")
    shown = api.messages[table.chat_id, table.message_id]
    assert shown.text == "The tournament is over: /tournament close shows its places and who pays whom."
    assert [sent.buttons() for sent in bot.group() if sent.buttons()] == []


BOB_WON = ("Showdown — ann: A♥ 7♦ (a pair of twos, ace kicker); Bob Brown: A♠ 2♣ (three of a kind, twos, ace "
           "kicker)\nBob Brown wins the main pot (120) with three of a kind, twos, ace kicker.")
"""The result of hand #2 dealt from `DEALT_ALL_IN`, Bob on the button."""
ANN_WON = ("Showdown — Bob Brown: A♥ 7♦ (a pair of twos, ace kicker); ann: A♠ 2♣ (three of a kind, twos, ace "
           "kicker)\nann wins the main pot (240) with three of a kind, twos, ace kicker.")
"""The result of a hand dealt from `DEALT_ALL_IN`, ann on the button."""
ANN_LAST = ("Bob Brown is eliminated in 2nd place.\n\nann finishes with 600 chips, worth 100.\n\n🏆 The tournament is "
            "over. Winner: ann!\nPlaces: 1. ann · 2. Bob Brown\n\nSettlement (money units):\nann: paid 50, cashed "
            "out 100, net +50\nBob Brown: paid 50, cashed out 0, net −50\nPayments:\nBob Brown → ann: 50")
"""What the group reads after the picture of the hand that knocks Bob out: the tournament's end."""


async def two_started(make_bot: Any, monkeypatch: pytest.MonkeyPatch, schedule: str,
                      private: tuple[dict[str, Any], ...] = (ANN, BOB)) -> tuple[Running, int]:
    """ann and Bob, each of `private` with a private chat with the bot open (their cards go there), in a tournament
    on a one-level `schedule`, created at 18:00 and started by ann, every hand dealt from `DEALT_ALL_IN`; and how many
    messages the group had before the start."""
    bot: Running = await make_bot("holdem", seed=5)
    bot.clock.current = at(18, 0)
    for user in private:
        await bot.command(user, "/start", private_chat(user))
    await bot.command(ANN, f"/tournament create {schedule}")
    for user in (ANN, BOB):
        await bot.command(user, "/join")
    stack_deck(monkeypatch, DEALT_ALL_IN)
    since = len(bot.group())
    await bot.command(ANN, "/tournament start")
    return bot, since


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_hands_dealt_all_in_show_their_table_before_their_result_and_no_table_after_the_end(
        make_bot, monkeypatch) -> None:
    """At blinds 120/240 Bob folds his big blind to ann's all-in raise and keeps 60 chips. Each next hand is over the
    moment it is dealt (Bob all-in on his blind, ann covering it: nobody is left to act, the board runs out): Bob
    doubles up with three twos, then ann's three twos knock him out. The group reads each hand's table, then its
    result with its picture, captioned with the hand's lines only; the tournament's end and its settlement follow
    the last hand's picture, and no hand's table after them."""
    bot, since = await two_started(make_bot, monkeypatch, "240/480")
    await bot.command(ANN, "/raise")
    await bot.command(BOB, "/fold")
    await bot.fire_timers_at(at(18, 1))  # hand #2: dealt and over
    await bot.fire_timers_at(at(18, 2))  # hand #3: dealt and over, the last
    assert read(bot, since) == [
        "⏱ Level 1: limits 240/480 (blinds 120/240), the last level: it plays until the tournament ends.",
        "Hold'em — hand #1 · blinds 120/240 · home-limit",
        "Hold'em — hand #2 · blinds 120/240 · home-limit",
        f"[picture] {BOB_WON}\n\nHand #2 · showdown",
        "Hold'em — hand #3 · blinds 120/240 · home-limit",
        f"[picture] {ANN_WON}\n\nHand #3 · showdown",
        ANN_LAST,
    ]
    assert await bot.store.read(lambda tx: tx.check_ledger()) == []


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_first_hand_dealt_all_in_reads_the_level_before_its_table_and_its_result_after_it(
        make_bot, monkeypatch) -> None:
    """At blinds 500/1,000 both 300-chip stacks are all in on the blinds of the first hand, which /tournament start
    deals: the clock's level, said before the deal, comes first; then the hand's table, its result with its picture,
    and the end."""
    bot, since = await two_started(make_bot, monkeypatch, "1000/2000")
    assert read(bot, since) == [
        "⏱ Level 1: limits 1,000/2,000 (blinds 500/1,000), the last level: it plays until the tournament ends.",
        "Hold'em — hand #1 · blinds 500/1,000 · home-limit",
        f"[picture] {ANN_WON.replace('(240)', '(600)')}\n\nHand #1 · showdown",
        ANN_LAST,
    ]
    assert await bot.store.read(lambda tx: tx.check_ledger()) == []


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_the_pointer_to_a_private_chat_for_a_hands_cards_comes_before_the_tournaments_end(
        make_bot, monkeypatch) -> None:
    """Bob never opened a private chat with the bot: the first hand, dealt all-in by /tournament start and the last,
    tells him his cards where he cannot read them. The group reads the pointer to that chat with the hand, after its
    picture, and then the tournament's end and its settlement. The hand is over: the pointer names no “My cards”
    button, which its table message no longer has."""
    bot, since = await two_started(make_bot, monkeypatch, "1000/2000", private=(ANN,))
    assert read(bot, since) == [
        "⏱ Level 1: limits 1,000/2,000 (blinds 500/1,000), the last level: it plays until the tournament ends.",
        "Hold'em — hand #1 · blinds 500/1,000 · home-limit",
        f"[picture] {ANN_WON.replace('(240)', '(600)')}\n\nHand #1 · showdown",
        "Bob Brown, I can only answer you privately: open a private chat with me "
        f"(https://t.me/pokerbot?start=cards_m100500) and send /start.\n\n{ANN_LAST}",
    ]
    assert await bot.store.read(lambda tx: tx.check_ledger()) == []


def read(bot: Running, since: int) -> list[str]:
    """The group's messages after the first `since`: of a hand's table message its first line, a picture as
    "[picture]" and its caption, any other text whole."""
    return [sent.text.split("\n")[0] if sent.text.startswith("Hold'em — ") else
            f"[picture] {sent.text}" if sent.photo is not None else sent.text for sent in bot.group()[since:]]

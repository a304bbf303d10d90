"""Table options through Telegram (RULES.md §1a): pre-action buttons answered in the callback alone, a player away
and back, keeping his seat, the straddle, and the time bank."""

from __future__ import annotations

import pytest

from tests.telegram.conftest import ANN, BOB, CAT, WHOLE_HANDS, no_limit_table, private_chat
from tests.telegram.fake_api import GROUP
from tests.telegram.test_games import TO_ACT, USERS

SENDS = ("sendMessage", "editMessageText", "sendPhoto", "sendDocument")


async def fold_to_the_end(bot) -> None:
    """Whoever the table message says must act folds, until the hand is over."""
    for _ in range(5):
        found = TO_ACT.search(bot.table_message().text)
        if found is None:
            return
        await bot.command(USERS[found.group(1)], "/fold")
    raise AssertionError("the hand did not end")


def sends(bot) -> int:
    """Every message sent or edited, anywhere (the budget a pre-action must not spend). Counted after
    `flush(retired=True)`: the edit retiring the message before the hand's (`Outbox.retire`, the least urgent) may
    otherwise be sent during the press, under load (CI's run of 2026-12-08)."""
    return sum(1 for request in bot.api.requests if request.method in SENDS)


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_pre_action_is_answered_in_the_callback_alone_and_played_on_his_turn(make_bot, api) -> None:
    bot = await make_bot("holdem", seed=11)
    await bot.command(CAT, "/start", private_chat(CAT))  # he could be told privately: he still is not
    await bot.seat_three_and_deal()
    table = bot.table_message()
    assert "▶ ann to act" in table.text
    await bot.adapter.flush(retired=True)  # see `sends`
    before = sends(bot)
    answer = await bot.press(CAT, table, "⏩ Check/fold")
    assert answer["text"] == "You will check or fold."
    again = await bot.press(CAT, table, "⏩ Check/fold")  # a double click: refused, nothing changes
    assert again["text"] == "You will check or fold."
    assert sends(bot) == before, "a pre-action sent or edited a message"
    await bot.press(ANN, bot.api.messages[GROUP["id"], table.message_id], "call")
    await bot.press(BOB, bot.api.messages[GROUP["id"], table.message_id], "call")
    current = bot.api.messages[GROUP["id"], table.message_id]
    assert "\ncat checks." in current.text and "Flop: " in current.text  # played the moment his turn came
    assert await bot.store.read(lambda tx: tx.check_ledger()) == []


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_call_n_is_cancelled_by_a_raise_its_stale_button_refused_and_it_plays_on_his_turn(make_bot, api) -> None:
    bot = await make_bot("holdem", seed=11)
    await bot.seat_three_and_deal()
    await bot.press(ANN, bot.table_message(), "raise")  # to 40: bob (small blind) and cat (big blind) face it
    raised = bot.table_message()
    call_40 = raised.button("⏩ Call 20")["callback_data"]  # the bet of 40; cat would put in 20. Kept: a client
    # that did not refresh still shows it
    await bot.adapter.flush(retired=True)  # see `sends`
    before = sends(bot)
    answer = await bot.press_data(CAT, raised, call_40)
    assert answer["text"] == "You will call 20 (cancelled if someone raises)."
    assert sends(bot) == before, "a pre-action sent or edited a message"
    await bot.press(BOB, raised, "raise")  # to 60: cat's "call 40" is cancelled, he decides himself
    current = bot.api.messages[GROUP["id"], raised.message_id]
    assert "▶ cat to act" in current.text and "cat calls" not in current.text
    assert (await bot.press_data(CAT, current, call_40))["text"] == "It is your turn: act now."  # no call of 60
    stale = await bot.press_data(ANN, current, call_40)
    assert stale["text"] == "The bet is now 60, not 40: choose again."
    assert "▶ cat to act" in bot.api.messages[GROUP["id"], raised.message_id].text
    assert (await bot.press(ANN, current, "⏩ Call 20"))["text"] == "You will call 20 (cancelled if someone raises)."
    await bot.press(CAT, current, "call")
    current = bot.api.messages[GROUP["id"], raised.message_id]
    assert "cat calls 40." in current.text and "\nann calls 20." in current.text and "Flop: " in current.text
    assert await bot.store.read(lambda tx: tx.check_ledger()) == []


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_call_any_by_the_button_calls_an_all_in_made_after_it(make_bot, api) -> None:
    bot = await make_bot("holdem", seed=11)
    await no_limit_table(bot, 200, (ANN, "/set run_it_twice off"))
    await bot.command(ANN, "/deal")
    table = bot.table_message()
    assert "▶ ann to act" in table.text  # Bob Brown small blind, cat big blind
    await bot.adapter.flush(retired=True)  # see `sends`
    before = sends(bot)
    assert (await bot.press(CAT, table, "⏩ Call any"))["text"] == "You will call any bet."  # while the bet is 20
    assert sends(bot) == before, "a pre-action sent or edited a message"
    await bot.command(ANN, "/allin")
    await bot.command(BOB, "/fold")
    assert any("ann raises to 200, all-in." in text for text in bot.group_texts())
    text = bot.api.messages[GROUP["id"], table.message_id].text
    assert "Bob Brown folds.\ncat calls 180, all-in." in text  # the moment his turn came: the raise left it standing
    assert "The hand is over." in text
    assert await bot.store.read(lambda tx: tx.check_ledger()) == []


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_away_keeps_the_seat_and_back_posts_the_big_blind(make_bot, api) -> None:
    bot = await make_bot("holdem", seed=3)
    await bot.command(CAT, "/start", private_chat(CAT))
    await bot.seat_three_and_deal()
    await bot.command(CAT, "/away")
    assert any("cat is away and sits out from the next hand" in text for text in bot.group_texts())
    await bot.command(ANN, "/call")
    await bot.command(BOB, "/call")
    await bot.fire_timers(5)  # his turn (the big blind's option) waits for him: no quick check or fold for the away
    table = bot.table_message()
    assert "▶ cat to act" in table.text and "cat checks." not in table.text
    await bot.command(CAT, "/raise")  # he plays this hand out: away counts from the next one
    assert "\ncat raises to 40." in bot.api.messages[GROUP["id"], table.message_id].text
    await fold_to_the_end(bot)
    await bot.command(ANN, "/deal")
    table = bot.table_message()
    assert "hand #2" in table.text and "cat ·" not in table.text  # dealt out, heads-up
    await fold_to_the_end(bot)
    await bot.command(CAT, "/back")
    assert api.chat(CAT["id"])[-1].text.startswith("Welcome back. Post the big blind now")
    table = bot.table_message()
    answer = await bot.press(CAT, table, "Post the big blind now")
    assert answer.get("text") in (None, "")
    assert any("cat is back and posts the big blind in the next hand." in text for text in bot.group_texts())
    await bot.command(ANN, "/deal")
    table = bot.table_message()
    assert "hand #3" in table.text and "cat posts the big blind 20." in table.text
    assert await bot.store.read(lambda tx: tx.check_ledger()) == []


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_the_player_left_of_the_big_blind_straddles_by_the_button_and_acts_last(make_bot, api) -> None:
    bot = await make_bot("holdem", seed=11)
    await no_limit_table(bot, 200, (ANN, "/set straddle on"))
    await bot.command(ANN, "/table")
    idle = bot.table_message()  # three-handed, ann deals first: Bob Brown small blind, cat big blind, ann left of it
    await bot.press(ANN, idle, "Straddle 40 (ann)")
    assert any("ann will straddle 40 in the next hand." in text for text in bot.group_texts())
    await bot.command(ANN, "/deal")
    table = bot.table_message()
    assert "ann straddles 40." in table.text
    # ann, first to act without a straddle, is passed over
    assert "▶ Bob Brown to act: 30 to call (⏱ 60\xa0s)." in table.text
    await bot.press(BOB, table, "call")
    table = bot.api.messages[GROUP["id"], table.message_id]
    assert "▶ cat to act: 20 to call (⏱ 60\xa0s)." in table.text
    await bot.press(CAT, table, "call")
    table = bot.api.messages[GROUP["id"], table.message_id]
    assert "▶ ann to act (⏱ 60\xa0s)." in table.text and "Flop: " not in table.text  # the straddler acts last
    await bot.press(ANN, table, "check")
    assert "Flop: " in bot.api.messages[GROUP["id"], table.message_id].text
    assert await bot.store.read(lambda tx: tx.check_ledger()) == []


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_turn_run_out_draws_on_the_time_bank_shown_in_the_chats_language_then_times_out(
        make_bot, api) -> None:
    bot = await make_bot("holdem", seed=11)
    await bot.command(ANN, "/lang ru")
    await bot.command(ANN, "/set time_bank 1500")
    await bot.seat_three_and_deal()
    table = bot.table_message()
    assert "▶ Ход: ann, для колла 20 (⏱ 60\xa0с)." in table.text and "⏳" not in table.text
    await bot.fire_timers(61)  # her turn's 60 s run out: her bank runs, and the table says so
    table = bot.api.messages[GROUP["id"], table.message_id]
    assert "⏳ ann тратит запас времени: 1\xa0500\xa0с." in table.text  # grouped as Russian writes it
    assert "▶ Ход: ann, для колла 20.\n⏳" in table.text  # the bank's seconds, not the turn's
    assert "время хода вышло" not in table.text
    await bot.fire_timers(1499)  # the bank still runs
    assert "время хода вышло" not in bot.api.messages[GROUP["id"], table.message_id].text
    await bot.fire_timers(2)  # the bank runs out too: the time-out folds her, facing the big blind, as before
    table = bot.api.messages[GROUP["id"], table.message_id]
    assert "ann: время хода вышло." in table.text and "ann: пас." in table.text
    assert "⏳" not in table.text and "▶ Ход: Bob Brown" in table.text
    assert await bot.store.read(lambda tx: tx.check_ledger()) == []

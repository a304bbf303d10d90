"""The Telegram adapter end to end: the real python-telegram-bot against the fake Bot API, on a scripted game."""

from __future__ import annotations

import asyncio
import logging
import re

import pytest

from bot.output import Place
from bot.telegram.render import MAX_CALLBACK_DATA, place_of
from tests.telegram.conftest import ANN, BOB, CAT, WHOLE_HANDS, private_chat
from tests.telegram.duel import Duel
from tests.telegram.fake_api import GROUP
from tests.telegram.russian_night import IVAN

CARD = re.compile(r"\b[2-9TJQKA][cdhs]\b")


async def seat_three_and_deal(bot) -> None:
    for user in (ANN, BOB, CAT):
        await bot.command(user, "/join")
    await bot.command(ANN, "/deal")


async def test_commands_are_published_with_descriptions(make_bot, api) -> None:
    await make_bot("duel")
    published = api.calls("setMyCommands")[0]["commands"]
    by_name = {command["command"]: command["description"] for command in published}
    assert by_name["raise"] == "raise to a total"
    assert {"join", "fold", "ante", "exchange", "tournament"} <= set(by_name)


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_round_through_commands_and_buttons_keeps_cards_out_of_the_group(make_bot, api) -> None:
    bot = await make_bot("duel")
    await bot.command(ANN, "/start", private_chat(ANN))  # Ann opened a private chat
    await seat_three_and_deal(bot)
    assert [sent.text for sent in bot.group()[:3]] == ["ann sits down.", "Bob Brown sits down.", "cat sits down."]

    table = bot.table_message()
    assert table.text.startswith("Round 1\nTo act: ann")
    assert "press “My cards”" in table.text  # the group is told how to see their cards
    for button in table.buttons():
        assert len(button["callback_data"].encode()) <= MAX_CALLBACK_DATA
        assert button["callback_data"].startswith("r1|")

    # Ann's cards went to her private chat; Bob and Cat get them from the button, alone
    ann_private = [sent.text for sent in api.chat(ANN["id"])]
    assert any(text.startswith("Your cards: ") for text in ann_private)
    answer = await bot.press(BOB, table, "my cards")
    assert answer["show_alert"] is True and CARD.search(answer["text"])

    await bot.press(ANN, table, "check")
    await bot.command(BOB, "/check")  # a typed command works the same as a button
    assert bot.table_message().message_id == table.message_id  # one message per round, edited in place
    assert api.messages[GROUP["id"], table.message_id].text.endswith("To act: cat\n\n" + table.text.split("\n\n")[1])
    await bot.press(CAT, bot.table_message(), "fold")

    final = api.messages[GROUP["id"], table.message_id]
    assert final.text == "Round 1\nann checks\nBob Brown checks\ncat folds\nOver."
    assert final.reply_markup is None  # no buttons once the round is over
    assert "Round 1 is over." in bot.group()[-1].text
    for text in bot.group_texts():
        assert not CARD.search(text), f"a card was shown in the group: {text!r}"


async def test_out_of_turn_and_unseated_presses_are_refused_privately(make_bot, api) -> None:
    bot = await make_bot("duel")
    await seat_three_and_deal(bot)
    table = bot.table_message()
    before = [(sent.text, sent.reply_markup) for sent in bot.group()]
    answer = await bot.press(BOB, table, "check")
    assert answer == {"callback_query_id": answer["callback_query_id"], "text": "It is not your turn.",
                      "show_alert": True}
    stranger = {"id": 104, "is_bot": False, "first_name": "Dan"}
    answer = await bot.press(stranger, table, "fold")
    assert answer["text"] == "You are not seated at this table."
    assert [(sent.text, sent.reply_markup) for sent in bot.group()] == before  # nothing changed in the group


async def test_a_refused_command_is_not_told_in_the_group(make_bot, api) -> None:
    bot = await make_bot("duel")
    await seat_three_and_deal(bot)
    await bot.command(CAT, "/start", private_chat(CAT))
    await bot.command(CAT, "/check")  # Cat has a private chat: the refusal goes there
    assert api.chat(CAT["id"])[-1].text == "It is not your turn."
    count = len(bot.group())
    await bot.command(BOB, "/check")  # Bob has none: only a hint in the group, without the reason
    assert len(bot.group()) == count + 1
    hint = bot.group()[-1].text
    assert hint.startswith("Bob Brown, I can only answer you privately") and "turn" not in hint


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_stale_button_is_answered_and_changes_nothing(make_bot, api) -> None:
    bot = await make_bot("duel")
    await seat_three_and_deal(bot)
    old = bot.table_message()
    for user in (ANN, BOB, CAT):
        await bot.command(user, "/fold")
    await bot.command(ANN, "/deal")
    new = bot.table_message()
    assert new.message_id != old.message_id  # a new round posts a new message
    shown = [(sent.text, sent.reply_markup) for sent in bot.group()]
    answer = await bot.press_data(ANN, old, "r1|check")
    assert answer["text"] == "This round is over." and answer["show_alert"] is True  # the duel plays rounds (r1)
    assert [(sent.text, sent.reply_markup) for sent in bot.group()] == shown


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_an_edit_that_would_change_nothing_is_not_sent(make_bot, api) -> None:
    bot = await make_bot("duel")
    await seat_three_and_deal(bot)
    edits = len(api.calls("editMessageText"))
    await bot.press(BOB, bot.table_message(), "my cards")  # the view returns the same table message
    await bot.command(ANN, "/cards")
    assert len(api.calls("editMessageText")) == edits


async def test_a_429_is_waited_out_and_the_message_still_arrives(make_bot, api) -> None:
    bot = await make_bot("duel")
    await bot.command(ANN, "/join")
    api.fail("sendMessage", 429, "Too Many Requests: retry after 1", retry_after=1)
    await bot.command(BOB, "/join")
    assert bot.group()[-1].text == "Bob Brown sits down."
    assert [params["text"] for params in api.calls("sendMessage")][-2:] == ["Bob Brown sits down."] * 2


async def test_a_restart_in_the_middle_of_a_round_keeps_the_buttons_working(make_bot, api) -> None:
    bot = await make_bot("duel")
    await seat_three_and_deal(bot)
    table = bot.table_message()
    await bot.press(ANN, table, "check")
    await bot.stop()

    again = await make_bot("duel")
    answer = await again.press(BOB, table, "check")  # the message posted before the restart
    assert "text" not in answer or not answer.get("show_alert")
    edited = api.messages[GROUP["id"], table.message_id]
    assert edited.text.startswith("Round 1\nann checks\nBob Brown checks\nTo act: cat")
    await again.press(CAT, edited, "check")
    assert api.messages[GROUP["id"], table.message_id].text.endswith("Over.")
    assert len([sent for sent in again.group() if sent.history[0].startswith("Round 1\n")]) == 1


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_restart_shows_a_table_in_play_again_when_its_queued_edits_were_lost(make_bot, api) -> None:
    bot = await make_bot("duel")
    await seat_three_and_deal(bot)
    table = bot.table_message()
    api.fail("editMessageText", 429, "Too Many Requests: retry after 30", retry_after=30)
    await bot.handled(await api.push(api.command_update(ANN, "/check")))
    while bot.adapter.outbox.rate_limited == 0:  # the group waits out a 429: the edits stay queued
        await asyncio.sleep(0.01)
    await bot.handled(await api.push(api.command_update(BOB, "/check")))
    assert bot.adapter.outbox.pending(GROUP["id"]) == 1
    await bot.adapter.outbox.close(0)  # the process dies (power cut, OOM kill): what was queued is lost
    await bot.stop()
    assert not api.messages[GROUP["id"], table.message_id].text.endswith("To act: cat")
    edits = len(api.calls("editMessageText"))

    again = await make_bot("duel")
    await again.adapter.flush()
    shown = api.messages[GROUP["id"], table.message_id]
    assert shown.text.startswith("Round 1\nann checks\nBob Brown checks\nTo act: cat"), "an older turn stays shown"
    assert len(api.calls("editMessageText")) == edits + 1  # one edit, no new message
    assert len([sent for sent in again.group() if sent.history[0].startswith("Round 1\n")]) == 1
    await again.press(CAT, shown, "check")  # its buttons act
    assert api.messages[GROUP["id"], table.message_id].text.endswith("Over.")


async def test_timer_announcements_are_posted_to_the_group(make_bot, api) -> None:
    bot = await make_bot("duel")
    await bot.command(ANN, "/clock")
    await bot.fire_timers(299)
    assert bot.group()[-1].text == "Clock started."
    await bot.fire_timers(1)
    assert bot.group()[-1].text == "Level 2 in 5 minutes: blinds 20/40."


async def test_a_bug_is_logged_with_its_traceback_and_the_player_gets_an_apology(make_bot, api, caplog) -> None:
    bot = await make_bot("duel")
    await bot.command(ANN, "/join")
    with caplog.at_level(logging.ERROR):
        await bot.command(ANN, "/pawn boom")
    assert any(record.exc_info and "a bug in the game" in str(record.exc_info[1]) for record in caplog.records)
    assert bot.group()[-1].text.startswith("Sorry, something went wrong")


async def test_a_command_for_another_bot_is_ignored_and_ours_is_accepted(make_bot, api) -> None:
    bot = await make_bot("duel")
    await bot.command(ANN, "/join@otherbot")
    assert bot.group() == []
    await bot.command(ANN, "/join@PokerBot")
    assert bot.group()[-1].text == "ann sits down."


async def test_a_forum_topic_is_its_own_table(make_bot, api) -> None:
    bot = await make_bot("duel")
    await bot.command(ANN, "/join", topic=7)
    await bot.command(ANN, "/join")
    topic_posts = [sent for sent in bot.group() if sent.topic == 7]
    assert [sent.text for sent in topic_posts] == ["ann sits down."]
    assert api.calls("sendMessage")[0]["message_thread_id"] == "7"


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_burst_of_actions_is_coalesced_into_fewer_edits(make_bot, api) -> None:
    bot = await make_bot("duel")
    for user in (ANN, BOB, CAT, {"id": 104, "is_bot": False, "first_name": "Dan", "username": "dan"}):
        await bot.command(user, "/join")
    await bot.command(ANN, "/deal")
    table = bot.table_message()
    edits = len(api.calls("editMessageText"))
    api.delays["editMessageText"] = 0.3  # Telegram (or the rate limiter) is slow: edits queue up behind one
    pushed = [await api.push(api.command_update(user, "/check")) for user in (ANN, BOB, CAT)]
    for update_id in pushed:
        await bot.handled(update_id)
    await bot.adapter.flush()
    sent_edits = api.calls("editMessageText")[edits:]
    assert len(sent_edits) < 3  # three actions, the middle state skipped
    assert api.messages[GROUP["id"], table.message_id].text.startswith(
        "Round 1\nann checks\nBob Brown checks\ncat checks\nTo act: dan")


async def test_a_long_private_answer_goes_to_the_private_chat(make_bot, api, monkeypatch) -> None:
    bot = await make_bot("duel")
    await seat_three_and_deal(bot)
    await bot.command(ANN, "/start", private_chat(ANN))
    long_view = "Your boxes:\n" + "\n".join(f"Box {n}: A♠ K♦ Q♣ J♥ 9♦ — ace high, and more words" for n in (1, 2, 3, 4))
    monkeypatch.setattr(Duel, "private_view", lambda self, act, user_id: long_view)
    answer = await bot.press(ANN, bot.table_message(), "my cards")
    assert len(answer["text"]) == 200 and answer["text"].endswith("…")
    assert api.chat(ANN["id"])[-1].text == long_view


async def test_a_long_private_answer_cut_in_its_alert_points_a_player_without_a_private_chat_there(
        make_bot, api, monkeypatch) -> None:
    """The alert shows only the first 200 characters; with no private chat to send the whole answer to, the player
    is pointed to one in the group (without a word of the answer), where the rest was dropped without a word."""
    bot = await make_bot("duel")
    await seat_three_and_deal(bot)
    long_view = "Your boxes:\n" + "\n".join(f"Box {n}: A♠ K♦ Q♣ J♥ 9♦ — ace high, and more words" for n in (1, 2, 3, 4))
    monkeypatch.setattr(Duel, "private_view", lambda self, act, user_id: long_view)
    count = len(bot.group())
    bot.clock.current += 300  # the deal's hint with the link, five minutes ago: a pointer may come again
    answer = await bot.press(ANN, bot.table_message(), "my cards")
    assert len(answer["text"]) == 200 and answer["text"].endswith("…")
    assert api.chat(ANN["id"]) == []
    assert len(bot.group()) == count + 1
    hint = bot.group()[-1].text
    assert hint == "@ann, I answer that only in private: https://t.me/pokerbot?start=cards_m100500"


async def test_group_administrators_may_organize(make_bot, api) -> None:
    api.admins[GROUP["id"]] = [BOB]
    bot = await make_bot("duel")
    await bot.command(ANN, "/join")  # the chat's first player organizes it
    await bot.command(CAT, "/join")
    await bot.command(CAT, "/grant @ann 5")
    assert bot.group()[-1].text.startswith("@cat, I can only answer you privately")
    await bot.command(BOB, "/grant @ann 5")
    assert bot.group()[-1].text == "ann receives 5 chips."
    assert len(api.calls("getChatAdministrators")) == 1  # read once, not per command


async def test_the_private_chat_hint_names_a_player_as_his_table_does(make_bot, api) -> None:
    """Two players of the group are called "ann": the table reads the later one "Ann (2)", and so does the hint that
    tells him to open a private chat (it read "Ann", the other player's name); the one whose name is his @username
    is still named by it (Telegram notifies him), and so is each of them by the link his `/start` in the group asks
    for."""
    other_ann = {"id": 107, "is_bot": False, "first_name": "Ann", "language_code": "en"}
    bot = await make_bot("duel")
    for user in (ANN, other_ann):
        await bot.command(user, "/join")
    assert bot.group()[-1].text == "Ann (2) sits down."
    await bot.command(ANN, "/deal")
    await bot.command(other_ann, "/check")  # out of turn, and he has no private chat with the bot
    assert bot.group()[-1].text.startswith("Ann (2), I can only answer you privately"), bot.group()[-1].text
    bot.clock.current += 300  # the hints with the link (his, and Ann's at her deal), five minutes ago
    await bot.command(other_ann, "/start")
    assert bot.group()[-1].text.startswith("Ann (2), our private chat opens here"), bot.group()[-1].text
    await bot.command(ANN, "/start")
    assert bot.group()[-1].text.startswith("@ann, our private chat opens here"), bot.group()[-1].text


@pytest.mark.parametrize(("user", "alone"), [
    (ANN, "Texas Hold'em — seats:\n  ann — 200\nNobody else can sit down in a private chat: /addbot seats a computer "
          "player against you, or /game russian (or caribbean, three-card, texas) deals you a game against the "
          "dealer."),
    (IVAN, "Техасский холдем — места:\n  ivan — 200\nВ личном чате больше никто не сядет за стол: /addbot посадит "
           "против вас компьютерного игрока, а /game russian (или caribbean, three-card, texas) сдаст вам игру "
           "против дилера."),
])
async def test_joining_alone_in_a_private_chat_says_what_he_can_play_there(make_bot, api, user, alone) -> None:
    """Nobody else can join a private chat: its table says what its one player may do instead of waiting for a
    second one; a group's table still waits for him."""
    bot = await make_bot("holdem")
    await bot.command(user, "/join 200", private_chat(user))
    await bot.command(BOB, "/join 200")
    await bot.adapter.flush()
    assert api.chat(user["id"])[-1].text == alone
    assert bot.group()[-1].text == ("Texas Hold'em — seats:\n  Bob Brown — 200\n"
                                    "Waiting for a second player: /join to sit down.")


async def test_a_private_chats_other_table_drawn_again_still_says_nobody_else_can_sit_down(make_bot, api) -> None:
    """A table of the private chat drawn again without a command of its own (the chat's `/lang` said at another of
    its tables, a private chat's topic) still knows nobody else can sit down there."""
    bot = await make_bot("holdem")
    await bot.command(ANN, "/join 200", private_chat(ANN), topic=7)
    await bot.command(ANN, "/lang ru", private_chat(ANN))
    assert [sent.text for sent in api.chat(ANN["id"])] == [
        "ann sits down with 200 chips.",
        "Техасский холдем — места:\n  ann — 200\nВ личном чате больше никто не сядет за стол: /addbot посадит против "
        "вас компьютерного игрока, а /game russian (или caribbean, three-card, texas) сдаст вам игру против дилера.",
        "Язык чата: русский (ru)."]


@pytest.mark.parametrize(("place", "private"), [
    (place_of(ANN["id"], None), True), (place_of(ANN["id"], 7), True),
    (Place(place_of(ANN["id"], None).chat_id, place_of(ANN["id"], None).table_id), True),  # as a timer builds it
    (place_of(GROUP["id"], None), False), (place_of(GROUP["id"], 7), False),
    (Place("dc:1234", "dc:5678"), False), (Place("term:local", "term:local:table"), False),
])
def test_a_place_is_private_in_a_telegram_chat_with_one_user_alone(place: Place, private: bool) -> None:
    """Read from the chat's id, whoever built the place: Telegram's private chat has its user's id (a group's is
    negative); a Discord server's id is positive too, and is no private chat."""
    assert place.private is private

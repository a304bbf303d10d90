"""A cash-game evening at one Telegram group table, five players, with the table options of RULES.md §1a switched on
in turn: the straddle, pre-actions, the time bank and a turn run out, the winner's show and the rabbit hunt, all-ins
with a side pot run twice, a player leaving mid-hand, a late joiner, a rebuy, show or muck, away and back.

Every deck is stacked, so each pot is worked out by hand below (no-limit, blinds 10/20, straddle 40); the fake server
applies Telegram's limits, so the evening also proves the bot keeps within them."""

from __future__ import annotations

from typing import Any

import pytest

from bot.games import holdem as holdem_game
from engine.cards import Deck, parse_cards
from tests.telegram.conftest import ANN, BOB, CAT, WHOLE_HANDS, Running, private_chat
from tests.telegram.fake_api import GROUP, Sent
from tests.telegram.test_games import group_texts_in_order

DAN = {"id": 104, "is_bot": False, "first_name": "Dan", "username": "dan", "language_code": "en"}
EVE = {"id": 105, "is_bot": False, "first_name": "Eve", "username": "eve", "language_code": "en"}
PLAYERS = (ANN, BOB, CAT, DAN, EVE)

# The decks, dealt one card at a time from the button's left, then a burn before each street (RULES.md §1).
HAND_1 = "Ah Kh 2c 3d 7s Ks 8d 9d Qs Jc Tc 2h 3h 4h 5h 6h"
"""Button ann: Bob A♥ 7♠, cat K♥ K♠, dan 2♣ 8♦, ann 3♦ 9♦; flop J♣ T♣ 2♥; unseen turn 4♥ and river 6♥."""
HAND_2 = "Kd Qs As 2s Kc Qh Ah 7c 4d Qc 7d 2h 5d 9s 6d 4c 8d 8h 3h 5h 9d Jh Td 2c"
"""Button Bob: cat K♦ K♣, dan Q♠ Q♥, ann A♠ A♥, Bob 2♠ 7♣; first board Q♣ 7♦ 2♥ 9♠ 4♣, second 8♥ 3♥ 5♥ J♥ 2♣."""
HAND_3 = "7d Kh Ac 3c 2c Ks Qh 4d 2s 9d 9h 5s 3s 8c 4s Jd"
"""Button dan: eve 7♦ 2♣, cat K♥ K♠, ann A♣ Q♥, dan 3♣ 4♦; board 9♦ 9♥ 5♠ 8♣ J♦."""
HAND_4 = "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah 2s"
"""Button eve (dan away): cat 2♥ 5♥, ann 3♥ 6♥, eve 4♥ 7♥; the board it would have dealt 9♥ T♥ J♥ K♥ 2♠."""
NEVER_SHOWN = ("3♦ 9♦", "A♥ 7♠", "2♠ 7♣", "A♣ Q♥", "7♦ 2♣", "3♣ 4♦", "2♥ 5♥", "3♥ 6♥", "4♥ 7♥")
"""Hole cards folded, mucked or never shown: no group message may hold them."""


def stack_decks(monkeypatch: pytest.MonkeyPatch, *orders: str) -> None:
    """The evening's hands are dealt from these decks, one a hand, in order."""
    decks = [Deck.stacked(parse_cards(order)) for order in orders]
    monkeypatch.setattr(holdem_game, "new_deck", lambda rng: decks.pop(0))


def now(bot: Running, sent: Sent) -> Sent:
    """A group message as the players see it now."""
    return bot.api.messages[GROUP["id"], sent.message_id]


def private(bot: Running, user: dict[str, Any]) -> list[str]:
    """Every message the bot sent to a user's private chat."""
    return [sent.text for sent in bot.api.chat(user["id"])]


def story(sent: Sent) -> str:
    """The table message's story: the lines under the seats."""
    return sent.text.split("\n\n", 1)[1]


async def actions(bot: Running, *said: tuple[dict[str, Any], str]) -> None:
    for user, text in said:
        await bot.command(user, text)


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_cash_evening_with_every_table_option(make_bot, api, monkeypatch) -> None:
    bot = await make_bot("holdem", seed=1)
    stack_decks(monkeypatch, HAND_1, HAND_2, HAND_3, HAND_4)
    for user in PLAYERS:
        await bot.command(user, "/start", private_chat(user))
    await actions(bot, (ANN, "/set structure no-limit"), (ANN, "/set straddle on"), (ANN, "/set time_bank 30"))
    await actions(bot, *((user, "/join 400") for user in (ANN, BOB, CAT, DAN)))

    # --- hand 1: dan straddles; pre-actions; Bob's turn runs out on the time bank; dan shows; cat hunts the rabbit
    await bot.press(DAN, bot.table_message(), "Straddle 40 (dan)")
    assert "dan will straddle 40 in the next hand." in bot.group_texts()
    await bot.command(ANN, "/deal")
    table = bot.table_message()
    assert story(table) == ("Hand #1: button ann, blinds 10/20. Cards are dealt — press “My cards” to see yours.\n"
                            "Bob Brown posts the small blind 10.\ncat posts the big blind 20.\ndan straddles 40.\n"
                            "▶ ann to act: 40 to call (⏱ 60\xa0s).")  # the straddler acts last: ann first
    for user, cards in ((ANN, "3♦ 9♦"), (BOB, "A♥ 7♠"), (CAT, "K♥ K♠"), (DAN, "2♣ 8♦")):
        assert private(bot, user)[-1] == f"Your cards: {cards}"
    assert private(bot, EVE)[-1].startswith("Hello eve!")  # not seated: no cards
    check = next(button for button in table.buttons() if button["text"] == "⏩ Check")  # dan may still check
    answer = await bot.press(BOB, table, "⏩ Call to 40")  # the small blind owes 30 of the 40
    assert answer["text"] == "You will call 30 (cancelled if someone raises)."
    assert (await bot.press(CAT, table, "⏩ Check/fold"))["text"] == "You will check or fold."
    await bot.press(ANN, table, "Call 40")
    assert story(now(bot, table)).endswith("ann calls 40.\nBob Brown calls 30.\ncat folds.\n▶ dan to act (⏱ 60\xa0s).")
    # Bob has called: a check chosen now could never play (the street ends unless someone bets, which cancels it),
    # nor could ann's: none is offered, and the button of an older copy of the message is refused
    assert [button["text"] for button in now(bot, table).buttons()] == [
        "Check", "Raise to 80", "½ pot: 110", "Pot: 180", "All-in 360", "⏩ Check/fold", "⏩ Call any", "🂠 My cards"]
    refused = await bot.press_data(BOB, now(bot, table), check["callback_data"])
    assert refused["text"] == ("You have acted on this street: your turn comes back only if someone bets, and a bet "
                               "cancels a check. Choose check/fold or call any.")
    await bot.press(DAN, now(bot, table), "Check")
    # pot: ann 40 + Bob 40 + dan 40 + cat's folded big blind 20 = 140
    assert now(bot, table).text.startswith("Hold'em — hand #1 · blinds 10/20 · no-limit\nBoard: J♣ T♣ 2♥ · Pot: 140")
    assert story(now(bot, table)).endswith("Flop: J♣ T♣ 2♥\n▶ Bob Brown to act (⏱ 60\xa0s).")
    await bot.fire_timers(61)  # his 60 s run out: his 30 s time bank runs, and the table says so
    assert now(bot, table).text.endswith("▶ Bob Brown to act.\n⏳ Bob Brown is using the time bank: 30\xa0s.")
    await bot.fire_timers(31)  # the bank runs out too: the time-out checks for him (nothing to call)
    assert "Bob Brown ran out of time.\nBob Brown checks.\n▶ dan to act" in now(bot, table).text
    await actions(bot, (DAN, "/bet 100"), (ANN, "/fold"), (BOB, "/fold"))
    # nobody called dan's 100: it comes back, and he wins the 140 uncontested (500 = 400 - 40 + 140)
    assert story(now(bot, table)).endswith("100 uncalled chips returned to dan.\ndan wins the main pot (140).\n"
                                           "The hand is over.")
    shown = await bot.press(DAN, now(bot, table), "Show my cards")
    assert shown.get("show_alert") is not True
    assert "dan shows 2♣ 8♦." in bot.group_texts()
    await bot.command(CAT, "/rabbit")  # the burns skipped: 3♥ before the turn, 5♥ before the river
    assert bot.group()[-1].text == ("🐇 cat hunts the rabbit of hand #1: with J♣ T♣ 2♥ on the board, the rest of it "
                                    "would have been 4♥ 6♥. Nothing changes.")
    assert now(bot, table).text.split("\n")[1:6] == ["  ann — 360", "  Bob Brown — 360", "  cat — 380", "  dan — 500",
                                                     "Hand #1: dan wins 140."]

    # --- hand 2: all-ins, a side pot run twice; Bob leaves mid-hand; eve sits down while it is played
    await bot.command(CAT, "/deal")  # button Bob: cat small blind, dan big blind, ann first
    table = bot.table_message()
    await bot.command(ANN, "/allin")  # 360
    await bot.command(BOB, "/leave")
    assert private(bot, BOB)[-1] == "You will leave the table when this hand ends (/join to stay)."
    await actions(bot, (BOB, "/fold"), (EVE, "/join 400"))
    assert "eve sits down with 400 chips." in bot.group_texts()
    assert "eve ·" not in now(bot, table).text and private(bot, EVE)[-1].startswith("Hello eve!")  # dealt nothing
    await bot.command(CAT, "/allin")  # 380: 20 more than ann's all-in
    assert story(now(bot, table)).endswith("cat raises to 380, all-in.\n▶ dan to act: 360 to call (⏱ 60\xa0s).")
    await bot.command(DAN, "/call")  # dan keeps 120: nobody is left to bet against him
    assert now(bot, table).text.endswith(
        "▶ Run it once or twice? Waiting for: ann, cat, dan (twice only if everyone agrees).")
    for user in (ANN, CAT, DAN):
        await bot.press(user, bot.table_message(), "Run it twice")
    # main pot 3 × 360 = 1080 (ann, cat, dan), side pot 1 2 × 20 = 40 (cat, dan); each split into halves of 540 and
    # 20, one a board. First board Q♣ 7♦ 2♥ 9♠ 4♣: dan's three queens take both halves. Second board 8♥ 3♥ 5♥ J♥ 2♣:
    # ann's ace-high flush beats dan's queen-high flush for the main half; of cat (kings) and dan, dan's flush
    # takes the side half. ann 540, dan 120 + 540 + 20 + 20 = 700, cat 0, Bob leaves with his 360.
    final = now(bot, table).text
    for line in ("Second board — Flop: 8♥ 3♥ 5♥",
                 "First board — dan wins the main pot (540) with three of a kind, queens, nine kicker.",
                 "First board — dan wins side pot 1 (20) with three of a kind, queens, nine kicker.",
                 "Second board — ann wins the main pot (540) with a flush, ace high; the top card decides: ann's ace "
                 "beats dan's queen.",
                 "Second board — dan wins side pot 1 (20) with a flush, queen high."):
        assert f"\n{line}\n" in final, line
    assert "Bob Brown leaves the table with 360 chips.\n\ncat is out of chips and stands up." in bot.group()[-1].text
    await bot.command(CAT, "/join 300")  # the rebuy: from his wallet, 1000 - 400 - 300
    assert "cat sits down with 300 chips." in bot.group_texts()
    assert now(bot, table).text.split("\n")[1:6] == ["  ann — 540", "  dan — 700", "  eve — 400", "  cat — 300",
                                                     "Hand #2: dan wins 580, ann wins 540."]

    # --- hand 3: cat bets the river and shows first; ann's beaten hand is mucked for her; dan goes away
    await bot.command(CAT, "/deal")  # button dan: eve small blind, cat big blind, ann first
    table = bot.table_message()
    await actions(bot, (ANN, "/call"), (DAN, "/call"), (EVE, "/call"), (CAT, "/check"),  # 4 × 20 = 80
                  (EVE, "/check"), (CAT, "/check"), (ANN, "/bet 40"), (DAN, "/fold"), (DAN, "/away"),
                  (EVE, "/call"), (CAT, "/call"),  # 80 + 3 × 40 = 200
                  (EVE, "/check"), (CAT, "/check"), (ANN, "/check"),
                  (EVE, "/check"), (CAT, "/bet 100"), (ANN, "/call"), (EVE, "/fold"))  # 200 + 2 × 100 = 400
    assert "dan is away and sits out from the next hand, keeping the seat: /back to return." in bot.group_texts()
    # cat's kings and nines beat ann's pair of nines: she is mucked unseen; cat 300 - 160 + 400 = 540
    assert story(now(bot, table)).endswith(
        "Showdown — cat: K♥ K♠ (two pair, kings and nines, jack kicker)\nann mucks.\n"
        "cat wins the main pot (400) with two pair, kings and nines, jack kicker.\nThe hand is over.")
    await bot.command(CAT, "/rabbit")
    assert private(bot, CAT)[-1] == "The last hand went to the river: there are no cards left to see."

    # --- hand 4: dan, away, is dealt out; back, he waits for the big blind; eve steals and ann hunts the rabbit
    await bot.command(CAT, "/deal")  # button eve: cat small blind, ann big blind, eve first
    table = bot.table_message()
    assert "dan ·" not in table.text and private(bot, DAN)[-1] == "Your cards: 3♣ 4♦"  # hand 3's: none since
    await bot.command(DAN, "/back")
    assert private(bot, DAN)[-1].startswith("Welcome back. Post the big blind now")
    await bot.press(DAN, now(bot, table), "Wait for the big blind")
    assert "dan is back and waits for the big blind." in bot.group_texts()
    await actions(bot, (EVE, "/raise 60"), (CAT, "/fold"), (ANN, "/fold"))
    # 40 of eve's 60 uncalled; the pot: cat 10 + ann 20 + eve 20 = 50 (eve 340 + 30 = 370)
    assert story(now(bot, table)).endswith("40 uncalled chips returned to eve.\neve wins the main pot (50).\n"
                                           "The hand is over.")
    await bot.command(ANN, "/rabbit")
    assert bot.group()[-1].text == ("🐇 ann hunts the rabbit of hand #4: the board would have been 9♥ T♥ J♥ K♥ 2♠. "
                                    "Nothing changes.")

    # --- the evening's close: stacks, wallets (1000 each to start), the ledger, and no private card in the group
    await bot.command(ANN, "/table")  # 1940 in all: the 4 × 400, less Bob's 360, plus cat's 300 and eve's 400
    # ann 380 - 20 (big blind), cat 540 - 10 (small blind), eve 340 + 30, dan 680 (folded before betting in hand 3)
    assert bot.table_message().text.split("\n")[1:6] == [
        "  ann — 360", "  dan — 680 (waiting for the big blind)", "  eve — 370", "  cat — 530", "Hand #4: eve wins 50."]
    for user in PLAYERS:
        await bot.command(user, "/balance")
    assert [private(bot, user)[-1] for user in PLAYERS] == [
        "Your wallet: 600 chips.", "Your wallet: 960 chips.", "Your wallet: 300 chips.", "Your wallet: 600 chips.",
        "Your wallet: 600 chips."]
    group = "\n".join(group_texts_in_order(bot))
    assert [cards for cards in NEVER_SHOWN if cards in group] == []
    sent = [request.params["text"] for request in api.requests
            if request.method == "sendMessage" and int(request.params["chat_id"]) == GROUP["id"]]
    assert len(sent) == len(set(sent)), "a message was sent to the group twice"
    assert await bot.store.read(lambda tx: tx.check_ledger()) == []

"""Whole hands and rounds through the parser and the service, with a real SQLite file: chips, privacy, refusals."""

import asyncio
import random

import pytest

from bot.clock import FakeClock
from bot.output import Actor, Place
from bot.render import Voice, cards_text
from bot.render.house import settled_text
from bot.render.picture_views import house_rows
from bot.service import Service
from bot.store import Store
from engine.house import GAMES
from engine.house.events import StakesSettled
from engine.house.russian import RussianRound
from tests.bot.conftest import ANN, BOB, CAT, DAN, PLACE, dump
from tests.bot.helpers import (
    corrupt_saved_hand,
    everything_public,
    ledger_ok,
    play_out,
    press_label,
    refused_without_change,
    stack_house_deck,
    started_service,
)

PLAYERS = {actor.user_id: actor for actor in (ANN, BOB, CAT)}


async def wallets(service: Service, chat: str = PLACE.chat_id) -> dict[str, int]:
    prefix = f"wallet:{chat}:"
    rows = await service.store.read(lambda tx: tx.balances(prefix))
    return {name.removeprefix(prefix): chips for name, chips in rows.items()}


async def seat_three(service: Service, place: Place = PLACE) -> None:
    for actor in (ANN, BOB, CAT):
        reply = await service.handle(place, actor, "/join 200")
        assert reply.error is None


async def test_a_whole_holdem_hand_keeps_every_chip_and_every_secret(service: Service) -> None:
    await seat_three(service)
    start = await service.handle(PLACE, ANN, "/deal")
    assert start.table is not None and start.table.key == "h1"
    hole = {user: messages[0].removeprefix("Your cards: ") for user, messages in start.private.items()}
    assert set(hole) == {"ann", "bob", "cat"}
    replies = await play_out(service, PLACE, PLAYERS, start)
    shown_publicly = "\n".join(everything_public(reply) for reply in replies)
    showdown = replies[-1].public[-1]
    assert "Showdown" in showdown
    for reply in replies[:-1]:  # before the showdown nobody's cards appear in the channel
        for cards in hole.values():
            assert cards not in everything_public(reply)
    assert "wins the main pot" in shown_publicly
    await ledger_ok(service)
    stacks = await service.store.read(lambda tx: tx.balances(f"stack:{PLACE.table_id}:"))
    assert sum(stacks.values()) == 600
    assert await service.store.read(lambda tx: tx.balance(f"pot:{PLACE.table_id}")) == 0


async def test_pawning_at_a_cash_table_is_refused_as_such_whoever_asks(service: Service) -> None:
    """`/pawn` is a tournament's rule (RULES.md §1): at a cash table the answer says so, in turn or out of it, before
    a hand or during one ("not your turn" sent a player to wait for a turn that would refuse him too)."""
    await seat_three(service)
    assert (await service.handle(PLACE, BOB, "/pawn a hat")).error == "Pawning is for tournaments only."
    start = await service.handle(PLACE, ANN, "/deal")
    assert start.table is not None and start.table.to_act is not None
    for actor in (ANN, BOB, CAT):
        assert (await service.handle(PLACE, actor, "/pawn a hat")).error == "Pawning is for tournaments only."


async def test_leaving_returns_the_stack_to_the_wallet(service: Service) -> None:
    await seat_three(service)
    assert (await wallets(service))["ann"] == 800
    reply = await service.handle(PLACE, ANN, "/leave")
    assert reply.public == ["Ann leaves the table with 200 chips."]
    assert (await wallets(service))["ann"] == 1000
    await ledger_ok(service)


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_whole_house_round(service: Service, game: str) -> None:
    await service.handle(PLACE, ANN, f"/game {game}")
    side = {"three-card": " pp 5", "caribbean": " bonus 10"}.get(game, "")
    for actor in (ANN, BOB, CAT):
        assert (await service.handle(PLACE, actor, f"/ante 10{side}")).error is None
    dealt = await service.press(PLACE, CAT, press_label(await service.handle(PLACE, ANN, "/table"), "deal"))
    assert dealt.error is None
    private_cards = [message for messages in dealt.private.values() for message in messages]
    assert private_cards, "each box's cards go privately to its owner"
    for message in private_cards:
        assert message.split(": ", 1)[1] not in everything_public(dealt)
    replies = await play_out(service, PLACE, PLAYERS, dealt)
    assert "Round over" in replies[-1].public[-1]
    await ledger_ok(service)
    after = await wallets(service)
    house = await service.store.read(lambda tx: tx.balance(f"house:{PLACE.chat_id}"))
    assert sum(after.values()) - 3 * 1000 == -house  # what the players won, the house lost
    boxes = await service.store.read(lambda tx: tx.balances(f"box:{PLACE.table_id}:"))
    assert boxes, "the round's boxes left no accounts to check"
    assert set(boxes.values()) <= {0}
    late = await service.handle(PLACE, ANN, "/fold")  # the round is settled: no deal is coming to wait for
    assert late.error == "No round is in play: an ANTE (/ante chips) opens the next one."


async def test_two_channels_play_independently(service: Service) -> None:
    other = Place(PLACE.chat_id, "chat/other")
    await seat_three(service)
    await service.handle(other, ANN, "/game three-card")
    hand, ante = await asyncio.gather(service.handle(PLACE, ANN, "/deal"),
                                      service.handle(other, BOB, "/ante 10"))
    assert hand.table is not None and hand.table.key == "h1"
    assert ante.public == [] and "Bob bets on box 1: ANTE 10." in ante.table.text.splitlines()  # the round's story
    await ledger_ok(service)


@pytest.mark.parametrize("line", ["/fold", "/check", "/bet 20", "/pre checkfold", "/muck", "/run once"])
async def test_a_hand_s_command_between_hands_from_a_player_not_seated_tells_him_to_join(
        service: Service, line: str) -> None:
    """Between hands a player not seated read "No hand is in play: /deal to start one.", and /deal then told him he
    was not seated: he is told that first, as during a hand."""
    await seat_three(service)
    await refused_without_change(service, DAN, line, {"en": "You are not seated at this table: /join first.",
                                                      "ru": "Вы не сидите за этим столом: сначала /join."})


@pytest.mark.parametrize(
    ("actor", "text", "reason"),
    [  # Ann (on the button, three-handed) acts first; home-limit's raise is to 40 (the big blind 20 and 20 more)
        (CAT, "/call", "It's not your turn: waiting for Ann."),
        (Actor("dan", "Dan"), "/fold", "You are not seated at this table: /join first."),
        (Actor("dan", "Dan"), "/away", "You are not seated at this table: /join first."),
        (Actor("dan", "Dan"), "/back", "You are not seated at this table: /join first."),
        (Actor("dan", "Dan"), "/leave", "You are not seated at this table: /join first."),
        (ANN, "/raise -5", "The amount must be a whole number of chips above zero, not “-5”."),
        (ANN, "/raise abc", "The amount must be a whole number of chips above zero, not “abc”."),
        (ANN, "/raise 15", "You can't bet or raise to 15 now: the amount is 40."),
        (ANN, "/bet 999999", "You can't bet or raise to 999,999 now: the amount is 40."),
        (ANN, "/ante 10", "/ante is not used in Texas Hold'em."),
        (ANN, "/pawn old jacket", "Pawning is for tournaments only."),
        (ANN, "/join 1900", "A top-up of 1,900 would take your stack (200) over the table's maximum buy-in (2,000): "
                           "at most 1,800."),
        (ANN, "/frobnicate", "I don't know the command “/\u2060frobnicate”. Type /help for the list."),
    ],
)
async def test_bad_holdem_input_changes_nothing(service: Service, tmp_path, actor: Actor, text: str,
                                                reason: str) -> None:
    await seat_three(service)
    start = await service.handle(PLACE, ANN, "/deal")
    to_act = start.table.to_act
    actor = PLAYERS.get(to_act, actor) if actor is ANN else actor
    before = dump(service.store.location)
    reply = await service.handle(PLACE, actor, text)
    assert reply.error == reason, f"{text}: {reply.error}"
    assert reply.public == [] and reply.table is None
    assert dump(service.store.location) == before


async def test_house_bets_over_the_wallet_or_the_table_limit_are_refused(service: Service, tmp_path) -> None:
    await service.handle(PLACE, ANN, "/game caribbean")
    before = dump(service.store.location)
    for text, refusal in (("/ante 101", "ANTE must be 1 to 100 at this table, not 101."),  # RULES.md: ANTE 1-100
                          ("/ante 10 box 2", "Bet on box 2 only after the box before it."),
                          ("/ante 10 bonus 3", "The BONUS bet is 10 at this table, not 3."),  # the bonus's size
                          ("/fold", "No round is in play: an ANTE (/ante chips) opens the next one.")):
        reply = await service.handle(PLACE, ANN, text)
        assert reply.error == refusal, text
        assert reply.public == [] and reply.private == {}
    assert dump(service.store.location) == before
    assert (await wallets(service))["ann"] == 1000


@pytest.mark.parametrize(("language", "refusal"), [
    ("en", "The bet on this box is 20, not 50: write just /bet (or /play)."),
    ("ru", "Ставка на этом боксе — 20, а не 50: напишите просто /bet (или /play)."),
])
async def test_a_house_bet_of_another_size_is_refused_not_placed_at_its_own(service: Service, language: str,
                                                                            refusal: str) -> None:
    """A box's BET is 2×ANTE (RULES.md §2): `/bet 50` on an ANTE of 10 is refused with the size, where it used to
    place 20 as if the 50 had not been typed; `/bet 20`, the size itself, plays."""
    await service.handle(PLACE, ANN, f"/lang {language}")
    await service.handle(PLACE, ANN, "/game texas")
    for actor in (ANN, BOB):
        await service.handle(PLACE, actor, "/ante 10")
    assert (await service.handle(PLACE, ANN, "/deal")).error is None
    before = dump(service.store.location)
    assert (await service.handle(PLACE, ANN, "/bet 50")).error == refusal
    assert dump(service.store.location) == before
    assert (await service.handle(PLACE, ANN, "/bet 20")).error is None
    boxes = await service.store.read(lambda tx: tx.balances("box:"))
    assert boxes[f"box:{PLACE.table_id}:ann:1"] == 10 + 20


async def test_a_press_by_someone_with_no_box_says_so_not_to_wait(service: Service) -> None:
    """Cat bet on no box this round: his press of Ann's button (or his /play) is not his turn to come, so he is told
    he has no box, where "not your turn: waiting for Ann" had him wait for a turn that never comes."""
    await service.handle(PLACE, ANN, "/game texas")
    await service.handle(PLACE, ANN, "/ante 10")
    dealt = await service.handle(PLACE, ANN, "/deal")
    assert dealt.table is not None
    before = dump(service.store.location)
    for refused in (service.press(PLACE, CAT, press_label(dealt, "play")), service.handle(PLACE, CAT, "/play")):
        assert (await refused).error == (
            "You have no box in this round: place an ANTE (/ante chips) before the next one is dealt.")
    late = await service.handle(PLACE, BOB, "/ante 10")  # the round is dealt: no new box
    assert late.error == "A round is in play: wait for the next one to bet."
    assert late.public == [] and late.private == {}
    assert dump(service.store.location) == before
    assert (await service.handle(PLACE, ANN, "/play")).error is None


async def test_a_three_card_box_may_carry_pairplus_alone(service: Service) -> None:
    """RULES.md §5: ANTE and/or PAIRPLUS per box; other games refuse an ANTE of 0 with the table's limits."""
    await service.handle(PLACE, ANN, "/game three-card")
    assert (await service.handle(PLACE, ANN, "/ante 0 pp 5")).error is None
    assert (await wallets(service))["ann"] == 1000 - 5
    assert (await service.handle(PLACE, BOB, "/ante 0")).error == (
        "An ANTE of 0 is for a box with the PAIRPLUS bet alone: add it, or bet an ANTE of 1 to 50.")
    dealt = await service.handle(PLACE, ANN, "/deal")
    assert dealt.error is None
    replies = await play_out(service, PLACE, PLAYERS, dealt)
    assert "Round over" in replies[-1].public[-1]
    await ledger_ok(service)
    other = Place(PLACE.chat_id, "chat/other")
    await service.handle(other, ANN, "/game caribbean")
    before = dump(service.store.location)
    reply = await service.handle(other, ANN, "/ante 0 bonus 10")
    assert reply.error == "ANTE must be 1 to 100 at this table, not 0."  # Caribbean Poker's ANTE: 1-100
    assert dump(service.store.location) == before


@pytest.mark.parametrize("text", ["/ante 10 pp 5 pp 20", "/ante 10 pp 5 pairplus 5", "/ante 10 pp 5 bonus 7",
                                  "/ante 10 box 2 box 1"])
async def test_a_bet_named_twice_is_refused_with_the_usage(service: Service, text: str) -> None:
    await service.handle(PLACE, ANN, "/game three-card")
    before = dump(service.store.location)
    reply = await service.handle(PLACE, ANN, text)
    assert reply.error == "Usage: /ante chips [box 1-3] [pp chips]"  # Three Card's side bet alone
    assert dump(service.store.location) == before


@pytest.mark.parametrize(("game", "usage"), [
    ("texas", "Usage: /ante chips"),
    ("caribbean", "Usage: /ante chips [box 1-3] [bonus 10]"),  # the bonus bet's one size
    ("three-card", "Usage: /ante chips [box 1-3] [pp chips]"),
])
async def test_a_bare_ante_names_only_what_the_tables_game_takes(service: Service, game: str, usage: str) -> None:
    """A house table's `/ante` usage names only its own boxes and side bet (Texas Poker: one box, none), where it
    listed both side bets at every table; `/help ante` and `/help`'s line for `/ante` name the same, where they gave
    the general form ("[pp|bonus chips]") whatever the table played."""
    await service.handle(PLACE, ANN, f"/game {game}")
    assert (await service.handle(PLACE, ANN, "/ante")).error == usage
    typed = usage.removeprefix("Usage: ")
    assert (await service.handle(PLACE, ANN, "/help ante")).private["ann"] == [
        f"{typed}\nplace ANTE on a box (and PAIRPLUS or bonus)"]
    listing = (await service.handle(PLACE, ANN, "/help")).private["ann"][0].splitlines()
    assert [line for line in listing if line.startswith("/ante ")] == [
        f"{typed} — place ANTE on a box (and PAIRPLUS or bonus)"]
    assert (await service.handle(PLACE, ANN, "/ante 10 pp 5 bonus 5")).error == usage  # one side bet per box


@pytest.mark.parametrize(("game", "typed"), [
    ("texas", "/ante фишки"),
    ("russian", "/ante фишки [box 1-3]"),
    ("caribbean", "/ante фишки [box 1-3] [bonus 20]"),  # the table's size (`/set bonus 20`)
    ("three-card", "/ante фишки [box 1-3] [pp фишки]"),
])
async def test_help_ante_names_the_tables_own_options_in_russian(service: Service, game: str, typed: str) -> None:
    await service.handle(PLACE, ANN, f"/game {game}")
    await service.handle(PLACE, ANN, "/lang ru")
    if game == "caribbean":
        assert (await service.handle(PLACE, ANN, "/set bonus 20")).error is None
    assert (await service.handle(PLACE, ANN, "/ante")).error == f"Как писать: {typed}"
    assert (await service.handle(PLACE, ANN, "/help ante")).private["ann"] == [
        f"{typed}\nпоставить АНТЕ на бокс (и ставку «Пара плюс» или бонус)"]
    listing = (await service.handle(PLACE, ANN, "/help")).private["ann"][0].splitlines()
    assert [line for line in listing if line.startswith("/ante ")] == [
        f"{typed} — поставить АНТЕ на бокс (и ставку «Пара плюс» или бонус)"]


@pytest.mark.parametrize(("language", "line"), [
    ("en", "/ante chips [box 1-3] [pp|bonus chips]\nplace ANTE on a box (and PAIRPLUS or bonus)"),
    ("ru", "/ante фишки [box 1-3] [pp|bonus фишки]\nпоставить АНТЕ на бокс (и ставку «Пара плюс» или бонус)"),
])
async def test_help_ante_at_a_holdem_table_gives_the_general_usage(service: Service, language: str,
                                                                   line: str) -> None:
    await service.handle(PLACE, ANN, f"/lang {language}")
    assert (await service.handle(PLACE, ANN, "/help ante")).private["ann"] == [line]


async def test_a_buy_in_over_the_wallet_is_refused(service: Service, tmp_path) -> None:
    await service.handle(PLACE, ANN, "/balance")
    before = dump(service.store.location)
    reply = await service.handle(PLACE, ANN, "/join 1500")  # under the table's maximum buy-in, 2,000
    assert reply.error == "A buy-in of 1,500 is more than your wallet (1,000)."
    assert dump(service.store.location) == before


async def test_a_stale_button_from_an_earlier_hand_is_refused(service: Service, tmp_path) -> None:
    await seat_three(service)
    first = await service.handle(PLACE, ANN, "/deal")
    old_fold = press_label(first, "fold")
    await play_out(service, PLACE, PLAYERS, first, preference=("fold", "check"))
    second = await service.handle(PLACE, ANN, "/deal")
    assert second.table.key == "h2"
    before = dump(service.store.location)
    reply = await service.press(PLACE, PLAYERS[second.table.to_act], old_fold)
    assert reply.error == "This hand is over."
    assert dump(service.store.location) == before


@pytest.mark.parametrize(("language", "busy", "over"), [
    ("en", "Finish the round in progress first.", "This round is over."),
    ("ru", "Сначала доиграйте текущий раунд.", "Этот раунд уже закончился."),
])
async def test_a_house_table_speaks_of_its_round_not_a_hand(service: Service, language: str, busy: str,
                                                            over: str) -> None:
    """DESIGN.md: a hand is one deal of Hold'em, a round one deal of a house game: a house table's refusals say round
    (switching games or changing a setting mid-round, a button of a settled round)."""
    await service.handle(PLACE, ANN, "/game russian")
    await service.handle(PLACE, ANN, f"/lang {language}")
    assert (await service.handle(PLACE, ANN, "/ante 10")).error is None
    before = dump(service.store.location)
    for line in ("/game texas", "/set max_ante 50"):
        assert (await service.handle(PLACE, ANN, line)).error == busy
    assert dump(service.store.location) == before
    dealt = await service.handle(PLACE, ANN, "/deal")
    fold = press_label(dealt, "fold")
    assert (await service.press(PLACE, ANN, fold)).error is None
    played = await service.handle(PLACE, ANN, "/ante 10")
    before = dump(service.store.location)
    assert (await service.press(PLACE, ANN, fold)).error == over
    my_cards = next(button.payload for button in dealt.table.buttons if button.private)
    assert (await service.press(PLACE, ANN, my_cards)).error == over
    assert played.error is None and dump(service.store.location) == before


@pytest.mark.parametrize(("language", "nobody", "no_round"), [
    ("en", "Nobody sits at this table yet: /join to sit down.",
     "No round is in play: an ANTE (/ante chips) opens the next one."),
    ("ru", "За этим столом пока никто не сидит: /join, чтобы сесть.",
     "Сейчас раунда нет: АНТЕ (/ante фишки) открывает следующий."),
])
async def test_table_with_nothing_to_show_says_why(service: Service, language: str, nobody: str,
                                                   no_round: str) -> None:
    """`/table` at a Hold'em table nobody sits at, or at a house table between rounds, has no table message to show:
    it tells the asker why instead of saying nothing at all."""
    await service.handle(PLACE, ANN, f"/lang {language}")
    assert (await service.handle(PLACE, BOB, "/table")).private == {BOB.user_id: [nobody]}
    await service.handle(PLACE, ANN, "/game texas")
    assert (await service.handle(PLACE, BOB, "/table")).private == {BOB.user_id: [no_round]}
    assert (await service.handle(PLACE, ANN, "/ante 10")).error is None
    betting = await service.handle(PLACE, BOB, "/table")
    assert betting.error is None and betting.table is not None


async def test_a_hundred_simultaneous_presses_apply_once(service: Service) -> None:
    await seat_three(service)
    start = await service.handle(PLACE, ANN, "/deal")
    actor = PLAYERS[start.table.to_act]
    payload = press_label(start, "call")
    replies = await asyncio.gather(*(service.press(PLACE, actor, payload) for _ in range(100)))
    accepted = [reply for reply in replies if reply.error is None]
    assert len(accepted) == 1
    rows = await service.store.read(lambda tx: tx.ledger_rows(PLACE.table_id, "h1"))
    assert sum(row.reason == "call" for row in rows) == 1
    await ledger_ok(service)


DEALT = ("Hand #1: button Ann, blinds 10/20. Cards are dealt — press “My cards” to see yours.\n"
         "Bob posts the small blind 10.\n"
         "Cat posts the big blind 20.\n")
"""The story of the time-out test's first hand as dealt (seed 7), before anyone acts."""


async def test_time_outs_check_or_fold_then_sit_the_player_out(store: Store, clock: FakeClock) -> None:
    service = await started_service(store, clock, seed=7)
    await seat_three(service)
    start = await service.handle(PLACE, ANN, "/deal")
    slow = start.table.to_act
    heard = []

    async def listener(place, reply):
        heard.append(reply)

    service.subscribe("chat/", listener)
    assert slow == "ann"  # the button, first to act three-handed
    clock.advance(61)  # his turn time runs out: his time bank (60 s by default) runs, shown on the table message
    assert await service.scheduler.fire_due() == 1
    assert [(reply.public, reply.table.text, reply.table.to_act) for reply in heard] == [([], (
        "Hold'em — hand #1 · blinds 10/20 · home-limit\n"
        "Board: — · Pot: 30\n"
        "▶ Ann · 200 Ⓓ\n"
        "  Bob · 190 bet 10\n"
        "  Cat · 180 bet 20\n"
        f"\n{DEALT}"
        "▶ Ann to act: 20 to call.\n"
        "⏳ Ann is using the time bank: 60\xa0s."), "ann")]
    clock.advance(61)
    assert await service.scheduler.fire_due() == 1
    assert [(reply.public, reply.table.text, reply.table.to_act) for reply in heard[1:]] == [([], (
        "Hold'em — hand #1 · blinds 10/20 · home-limit\n"
        "Board: — · Pot: 30\n"
        "  Ann · 200 Ⓓ folded\n"
        "▶ Bob · 190 bet 10\n"
        "  Cat · 180 bet 20\n"
        f"\n{DEALT}"
        "Ann ran out of time.\n"  # told in the table's story; not yet sitting out
        "Ann folds.\n"
        "▶ Bob to act: 10 to call (⏱ 60\xa0s)."), "bob")]
    await ledger_ok(service)
    name = PLAYERS[slow].name

    # the others play on (check or call) until the same player must act again, then his time runs out a second time
    latest = heard[-1]
    for _ in range(100):
        if latest.table is not None and latest.table.to_act == slow:
            count = len(heard)
            clock.advance(61)  # his bank is spent: the time-out plays at once
            assert await service.scheduler.fire_due() == 1
            assert heard[count:], "the second time-out said nothing"
            break
        if latest.table is None or latest.table.to_act is None:  # hand over: the next one is dealt on its timer
            count = len(heard)
            clock.advance(9)
            assert await service.scheduler.fire_due() == 1
            assert len(heard) > count, "no next hand was dealt"
            latest = heard[-1]
            continue
        latest = await service.press(PLACE, PLAYERS[latest.table.to_act], press_label(latest, "check", "call"))
        assert latest.error is None, latest.error
    else:
        raise AssertionError(f"{name} never had to act again")
    assert [(reply.public, reply.table.text) for reply in heard[count:]] == [([], (
        "Hold'em — hand #2 · blinds 10/20 · home-limit\n"
        "Board: 6♦ 4♣ 2♦ · Pot: 60\n"
        "  Ann · 180\n"
        "  Bob · 200 Ⓓ\n"
        "▶ Cat · 160\n"
        "\n"
        "Bob calls 20.\n"
        "Cat calls 10.\n"
        "Ann ran out of time.\n"
        "Ann checks.\n"  # the big blind owes nothing: the time-out checks
        "Ann is sitting out after two time-outs: /back to come back.\n"  # as README and /away
        "Flop: 6♦ 4♣ 2♦\n"
        "▶ Cat to act (⏱ 60\xa0s)."))]
    back = await service.handle(PLACE, PLAYERS[slow], "/back")
    assert back.error is None, back.error
    await ledger_ok(service)


async def test_a_restart_resumes_the_hand_and_its_timers(tmp_path, clock: FakeClock) -> None:
    store = await Store.open(tmp_path / "bot.db")
    service = await started_service(store, clock, seed=11)
    await seat_three(service)
    start = await service.handle(PLACE, ANN, "/deal")
    payload = press_label(start, "call")
    await store.close()

    store = await Store.open(tmp_path / "bot.db")
    restarted = await started_service(store, clock, seed=12)
    assert [timer.key for timer in restarted.scheduler.armed] == [f"holdem:{PLACE.table_id}"]
    reply = await restarted.press(PLACE, PLAYERS[start.table.to_act], payload)
    assert reply.error is None
    replies = await play_out(restarted, PLACE, PLAYERS, reply)
    assert replies[-1].table.to_act is None
    await ledger_ok(restarted)
    await store.close()


async def test_an_unreadable_snapshot_voids_the_hand_and_returns_every_chip(tmp_path, clock: FakeClock) -> None:
    store = await Store.open(tmp_path / "bot.db")
    service = await started_service(store, clock, seed=3)
    await seat_three(service)
    start = await service.handle(PLACE, ANN, "/deal")
    await service.press(PLACE, PLAYERS[start.table.to_act], press_label(start, "call"))
    pot = await store.read(lambda tx: tx.balance(f"pot:{PLACE.table_id}"))
    assert pot > 0

    await corrupt_saved_hand(store, PLACE, clock.now())
    await store.close()
    store = await Store.open(tmp_path / "bot.db")
    restarted = await started_service(store, clock, seed=4)
    assert await store.read(lambda tx: tx.balance(f"pot:{PLACE.table_id}")) == 0
    stacks = await store.read(lambda tx: tx.balances(f"stack:{PLACE.table_id}:"))
    assert stacks == {f"stack:{PLACE.table_id}:{user}": 200 for user in ("ann", "bob", "cat")}
    assert await store.read(lambda tx: tx.check_ledger()) == []
    again = await restarted.handle(PLACE, ANN, "/deal")
    assert again.error is None and again.table.key == "h2"
    await store.close()


async def test_organizers_set_house_limits_and_tiers(service: Service) -> None:
    await service.handle(PLACE, ANN, "/game caribbean")
    assert (await service.handle(PLACE, BOB, "/set max_ante 50")).error == "Only the organizer — Ann — can do that."
    assert (await service.handle(PLACE, ANN, "/set max_ante 50")).error is None
    # Caribbean Poker's ANTE is 1 to 100 by default (the cap now 50); RULES.md §5's VIP tier takes 25 to 2,000
    assert (await service.handle(PLACE, BOB, "/ante 60")).error == "ANTE must be 1 to 50 at this table, not 60."
    assert (await service.handle(PLACE, BOB, "/ante 50")).error is None
    other = Place(PLACE.chat_id, "chat/three")
    await service.handle(other, ANN, "/game three-card")
    assert (await service.handle(other, ANN, "/set tier vip")).error is None
    before = dump(service.store.location)  # the refusal was once only "some error", then the round's in progress
    assert (await service.handle(other, ANN, "/set tier gold")).error == (
        "“gold” is not a valid value for “limit tier” (/set tier takes lite, respect, vip).")
    assert dump(service.store.location) == before
    assert (await listed_settings(service, other))["tier"] == "VIP (vip)"
    assert (await service.handle(other, BOB, "/ante 10")).error == "ANTE must be 25 to 2,000 at this table, not 10."
    assert (await service.handle(other, BOB, "/ante 25 pp 500")).error is None


async def listed_settings(service: Service, place: Place = PLACE) -> dict[str, str]:
    """The table's settings as `/set` lists them to Ann (a heading, a line each, how to change them): each value as
    shown, by the name `/set` takes (`structure — betting structure: home-limit`)."""
    told = (await service.handle(place, ANN, "/set")).private["ann"]
    assert len(told) == 1
    lines = told[0].split("\n")
    return {name: shown.split(": ", 1)[1] for name, shown in (line.split(" — ", 1) for line in lines[1:-1])}


async def test_caribbean_bonus_size_and_re_exchange_are_table_options(service: Service,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """RULES.md §4: the bonus bet has "a fixed size set by the table, default 10 chips", and "a table option allows
    exchanging a single card again for 2×ANTE": the organizer sets both between rounds."""
    stack_house_deck(monkeypatch, "2s 3d 7h 9c Jh  As Kd 9s 5s 3s  Kh Kc 7c")
    await service.handle(PLACE, ANN, "/game caribbean")
    assert {key: value for key, value in (await listed_settings(service)).items()
            if key in ("bonus", "re_exchange")} == {"bonus": "10", "re_exchange": "off"}
    assert (await service.handle(PLACE, BOB, "/set bonus 20")).error == "Only the organizer — Ann — can do that."
    for line, said in (("/set bonus 20", "Setting changed: bonus bet — 20."),
                       ("/set re_exchange On", "Setting changed: re-exchange — on.")):
        assert (await service.handle(PLACE, ANN, line)).public == [said]
    assert (await service.handle(PLACE, BOB, "/ante 10 bonus 10")).error == "The BONUS bet is 20 at this table, not 10."
    assert (await service.handle(PLACE, ANN, "/ante 10 bonus 20")).error is None
    before = dump(service.store.location)
    assert (await service.handle(PLACE, ANN, "/set re_exchange off")).error == "Finish the round in progress first."
    assert dump(service.store.location) == before
    await service.handle(PLACE, ANN, "/deal")
    assert (await service.handle(PLACE, ANN, "/exchange 1 2")).error is None  # 20: 2♠ 3♦ for K♥ K♣
    again = await service.handle(PLACE, ANN, "/exchange 1")  # 7♥ for 7♣, once more for 2×ANTE
    assert again.error is None and "Ann, box 1: exchanges again (20)." in everything_public(again)
    assert [button.label for button in again.table.buttons if not button.private] == ["Play (20)", "Fold"]
    ended = await service.handle(PLACE, ANN, "/play")
    assert ("wins against the dealer, but ends down (−30) — a pair of kings, jack kicker: 9♣ J♥ K♥ K♣ 7♣; ANTE +10 · "
            "BET +20 (a pair of kings, jack kicker, ×1) · BONUS −20 · exchange fee −20 · second exchange fee −20."
            ) in ended.public[-1]  # over ace-king
    assert (await wallets(service))["ann"] == 1000 + 10 + 20 - 20 - 40  # the exchange and the re-exchange: 20 each
    await ledger_ok(service)


@pytest.mark.parametrize(("language", "fee", "heading"), [
    ("en", 40, "Ann, box 1: wins against the dealer, but ends down (−10); ANTE +10 · BET +20 · exchange fee −40."),
    ("en", 30, "Ann, box 1: wins against the dealer, but ends even (0); ANTE +10 · BET +20 · exchange fee −30."),
    ("en", 20, "Ann, box 1: wins (+10); ANTE +10 · BET +20 · exchange fee −20."),
    ("ru", 40, "Ann, бокс 1: выигрыш у дилера, но итог в минусе (−10); АНТЕ +10 · БЕТ +20 · плата за обмен −40."),
    ("ru", 30, "Ann, бокс 1: выигрыш у дилера, но итог нулевой (0); АНТЕ +10 · БЕТ +20 · плата за обмен −30."),
])
def test_a_win_its_fees_outweigh_says_so_in_its_heading(language: str, fee: int, heading: str) -> None:
    """A box that beats the dealer but pays more in fees (and lost side bets) than it wins read "wins (−30)": its
    heading now says the box ends down (or even), beside the net."""
    event = StakesSettled(player="ann", box=1, results={"ante": 10, "bet": 20}, outcome="won",
                          fees={"exchange": fee})
    assert settled_text(Voice(language, str.title), event) == heading


@pytest.mark.parametrize(("language", "pairplus", "heading"), [
    ("en", 40, "Ann, box 1: loses to the dealer, but ends up (+20); PAIRPLUS +40 · ANTE −10 · PLAY −10."),
    ("en", 20, "Ann, box 1: loses to the dealer, but ends even (0); PAIRPLUS +20 · ANTE −10 · PLAY −10."),
    ("en", 10, "Ann, box 1: loses (−10); PAIRPLUS +10 · ANTE −10 · PLAY −10."),
    ("ru", 40, "Ann, бокс 1: проигрыш дилеру, но итог в плюсе (+20); «Пара плюс» +40 · АНТЕ −10 · ИГРА −10."),
    ("ru", 20, "Ann, бокс 1: проигрыш дилеру, но итог нулевой (0); «Пара плюс» +20 · АНТЕ −10 · ИГРА −10."),
])
def test_a_loss_its_side_bet_outweighs_says_so_in_its_heading(language: str, pairplus: int, heading: str) -> None:
    """The mirror of the win its fees outweigh: a box that loses to the dealer but wins more on its side bet read
    "loses (+20)"."""
    event = StakesSettled(player="ann", box=1, results={"ante": -10, "play": -10}, outcome="lost",
                          earlier={"pairplus": pairplus})
    assert settled_text(Voice(language, str.title), event) == heading


@pytest.mark.parametrize(("setting", "net"), [("", -20), ("/set ante_bonus always", -10)])
async def test_three_card_ante_bonus_pays_whenever_the_box_plays_as_a_table_option(
        service: Service, monkeypatch: pytest.MonkeyPatch, setting: str, net: int) -> None:
    """RULES.md §5: the ante bonus pays when the player wins or ties; "a table option pays it whenever the player
    plays". A straight that loses to a higher one: ANTE and PLAY lost, and the straight's bonus 1:1 paid only so."""
    stack_house_deck(monkeypatch, "4s 5d 6c  9h Td Jc")
    await service.handle(PLACE, ANN, "/game three-card")
    assert (await listed_settings(service))["ante_bonus"] == "when the player wins or ties (win)"
    if setting:
        assert (await service.handle(PLACE, ANN, setting)).error is None
        assert (await listed_settings(service))["ante_bonus"] == "always"
    for line in ("/ante 10", "/deal", "/play"):
        assert (await service.handle(PLACE, ANN, line)).error is None
    assert (await wallets(service))["ann"] == 1000 + net
    await ledger_ok(service)


HOUSE_SETTINGS = ("min_ante (minimum ANTE), max_ante (maximum ANTE), max_payout (maximum payout per box), "
                  "bet_seconds (betting time (seconds)), turn_seconds (turn time (seconds)), pictures")
CARIBBEAN_SETTINGS = f"{HOUSE_SETTINGS}, bonus (bonus bet), re_exchange (re-exchange), timezone (time zone)"
THREE_CARD_SETTINGS = f"{HOUSE_SETTINGS}, tier (limit tier), ante_bonus (ANTE bonus pays), timezone (time zone)"


@pytest.mark.parametrize(("game", "text", "refusal"), [
    ("caribbean", "/set bonus 0", "“0” is not a valid value for “bonus bet” (/set bonus takes 1, 2, 3…)."),
    ("caribbean", "/set bonus ten", "“ten” is not a valid value for “bonus bet” (/set bonus takes 1, 2, 3…)."),
    ("caribbean", "/set re_exchange 2", "“2” is not a valid value for “re-exchange” (/set re_exchange takes off, on)."),
    ("caribbean", "/set ante_bonus always", f"No setting “ante_bonus”; settings: {CARIBBEAN_SETTINGS}."),
    ("three-card", "/set ante_bonus sometimes",
     "“sometimes” is not a valid value for “ANTE bonus pays” (/set ante_bonus takes win, always)."),
    ("three-card", "/set re_exchange on", f"No setting “re_exchange”; settings: {THREE_CARD_SETTINGS}."),
    ("three-card", "/set bonus 10", f"No setting “bonus”; settings: {THREE_CARD_SETTINGS}."),
    ("russian", "/set re_exchange on",
     f"No setting “re_exchange”; settings: {HOUSE_SETTINGS}, timezone (time zone)."),
])
async def test_a_bad_house_option_is_refused_and_changes_nothing(service: Service, game: str, text: str,
                                                                refusal: str) -> None:
    await service.handle(PLACE, ANN, f"/game {game}")
    listed = await listed_settings(service)
    before = dump(service.store.location)
    reply = await service.handle(PLACE, ANN, text)
    assert (reply.error, reply.public) == (refusal, [])
    assert dump(service.store.location) == before
    assert await listed_settings(service) == listed


async def test_a_table_without_a_payout_cap_says_off_and_an_organizer_sets_or_lifts_one(service: Service) -> None:
    """Russian Poker caps no payment by default: `/set` lists `max_payout` as "no cap (off)" (it read Python's
    "None"), and the organizer sets a cap and lifts it again with the same word."""
    await service.handle(PLACE, ANN, "/game russian")
    assert (await listed_settings(service))["max_payout"] == "no cap (off)"
    assert "None" not in (await service.handle(PLACE, ANN, "/set")).private["ann"][0]
    assert (await service.handle(PLACE, ANN, "/set max_payout 5000")).error is None
    assert (await listed_settings(service))["max_payout"] == "5,000"
    assert (await service.handle(PLACE, ANN, "/set max_payout OFF")).public == [
        "Setting changed: maximum payout per box — no cap."]
    assert (await listed_settings(service))["max_payout"] == "no cap (off)"
    assert (await service.handle(PLACE, ANN, "/set max_payout none")).error == (
        "“none” is not a valid value for “maximum payout per box” (/set max_payout takes 1, 2, 3…, off).")


async def test_the_button_moves_one_seat_clockwise_even_when_a_seat_empties(service: Service) -> None:
    dan = Actor("dan", "Dan")
    players = {**PLAYERS, "dan": dan}
    await seat_three(service)
    await service.handle(PLACE, dan, "/join 200")
    buttons = []
    for number in range(1, 4):
        start = await service.handle(PLACE, ANN, "/deal") if number == 1 else await service.handle(PLACE, BOB, "/deal")
        buttons.append(start.table.text.split("button ")[1].split(",")[0])  # the hand's first story line
        if number == 1:
            assert (await service.handle(PLACE, ANN, "/leave")).error is None  # Ann (seat 1) leaves after hand 1
        await play_out(service, PLACE, players, start, preference=("fold", "check"))
    assert buttons == ["Ann", "Bob", "Cat"]


async def test_switching_games_is_refused_while_players_sit_with_chips(service: Service) -> None:
    await seat_three(service)
    reply = await service.handle(PLACE, ANN, "/game russian")
    assert reply.error == "Players are seated here with chips: everyone /leave first (or finish the tournament)."
    start = await service.handle(PLACE, ANN, "/deal")
    assert (await service.handle(PLACE, ANN, "/game russian")).error == "Finish the hand in progress first."
    replies = await play_out(service, PLACE, PLAYERS, start, preference=("fold", "check"))
    final = replies[-1].table.text
    assert "The hand is over." in final and " bet " not in final, "no bets are left standing after the hand"


async def test_a_table_that_cannot_resume_does_not_keep_the_others_from_starting(tmp_path, clock: FakeClock) -> None:
    store = await Store.open(tmp_path / "bot.db")
    service = await started_service(store, clock, seed=5)
    await seat_three(service)
    broken = Place("chat", "chat/broken")
    await service.handle(broken, ANN, "/table")
    await store.transact(lambda tx: tx.db.execute(  # a game this version no longer has
        "UPDATE tables SET config = '{\"game\": \"pinochle\"}' WHERE table_id = ?", (broken.table_id,)), now=0.0)
    await store.close()

    store = await Store.open(tmp_path / "bot.db")
    restarted = await started_service(store, clock, seed=6)
    dealt = await restarted.handle(PLACE, ANN, "/deal")
    assert dealt.error is None and dealt.table is not None
    await store.close()


async def test_exchanging_an_unknown_card_is_refused_and_changes_nothing(service: Service, tmp_path) -> None:
    await service.handle(PLACE, ANN, "/game russian")
    assert (await service.handle(PLACE, ANN, "/ante 10")).error is None
    assert (await service.press(PLACE, ANN, press_label(await service.handle(PLACE, ANN, "/table"), "deal"))).error \
        is None
    before = dump(service.store.location)
    reply = await service.handle(PLACE, ANN, "/exchange zz")
    assert reply.error == "“zz” is not a card: give its position (1-5) or rank and suit, like As or Td."
    assert reply.public == [] and reply.table is None
    assert dump(service.store.location) == before


@pytest.mark.parametrize(("text", "refusal"), [
    ("/set time_bank -1", "“-1” is not a valid value for “time bank (seconds)” (/set time_bank takes 0, 1, 2…)."),
    ("/set level 0", "“0” is not a valid value for “level” (/set level takes 2, 4, 6…)."),
    ("/set level 15", "“15” is not a valid value for “level” (/set level takes 2, 4, 6…)."),
    ("/set level ²", "“²” is not a valid value for “level” (/set level takes 2, 4, 6…)."),
    ("/set level 3", "“3” is not a valid value for “level” (/set level takes 2, 4, 6…)."),
    ("/set max_seats 0", "“0” is not a valid value for “seats” (/set max_seats takes 2…22)."),
    ("/set max_seats 1", "“1” is not a valid value for “seats” (/set max_seats takes 2…22)."),
    ("/set max_seats 23", "“23” is not a valid value for “seats” (/set max_seats takes 2…22)."),
    ("/set max_seats 99999999999999999999999",
     "“99999999999999999999999” is not a valid value for “seats” (/set max_seats takes 2…22)."),
    ("/set turn_seconds -5", "“-5” is not a valid value for “turn time (seconds)” (/set turn_seconds takes 1, 2, 3…)."),
])
async def test_a_bad_table_setting_says_what_the_setting_takes_and_changes_nothing(service: Service, text: str,
                                                                                   refusal: str) -> None:
    """The refusal names the values the setting takes, whatever was wrong with the one typed: a time bank of 0 (none,
    as README says) is one of them, and a level is any even number from 2, not "1, 2, 3…" nor "2, 4, 10, 20…"."""
    await service.handle(PLACE, ANN, "/balance")  # the chat's organizer
    listed = (await service.handle(PLACE, ANN, "/set")).private
    before = dump(service.store.location)
    reply = await service.handle(PLACE, ANN, text)
    assert (reply.error, reply.public) == (refusal, [])
    assert dump(service.store.location) == before
    assert (await service.handle(PLACE, ANN, "/set")).private == listed
    assert (await service.handle(PLACE, ANN, "/set level 6")).error is None


async def test_the_tables_buy_in_keeps_up_with_its_level(service: Service) -> None:
    """A plain /join buys in for the table's buy-in, and is refused below ten levels: a buy-in set below that would
    refuse every plain /join (and seat practice players with less than anyone may bring), so it is refused; a level
    raised past it takes the buy-in up with it, and says so."""
    await service.handle(PLACE, ANN, "/balance")  # the chat's organizer
    before = dump(service.store.location)
    assert (await service.handle(PLACE, ANN, "/set buy_in 100")).error == "A buy-in of 100 is too small: at least 200."
    assert dump(service.store.location) == before
    raised = await service.handle(PLACE, ANN, "/set level 80")
    assert raised.public == ["Setting changed: level — 80.",
                             "The table's buy-in rises with it to 800, ten times the level."]
    listed = await listed_settings(service)
    assert (listed["level"], listed["buy_in"]) == ("80", "800")
    assert (await service.handle(PLACE, BOB, "/join")).public[0] == "Bob sits down with 800 chips."
    lowered = await service.handle(PLACE, ANN, "/set level 40")  # the buy-in stays where it is
    assert lowered.public == ["Setting changed: level — 40."]
    assert (await service.handle(PLACE, ANN, "/set buy_in 400")).public == ["Setting changed: buy-in — 400."]
    await ledger_ok(service)


async def test_a_time_zone_is_found_whatever_its_case(service: Service) -> None:
    await service.handle(PLACE, ANN, "/balance")
    assert (await service.handle(PLACE, ANN, "/set timezone europe/moscow")).public == [
        "Setting changed: time zone — Europe/Moscow."]
    assert (await listed_settings(service))["timezone"] == "Europe/Moscow"  # listed with the rest
    assert (await service.handle(PLACE, ANN, "/set timezone utc")).public == ["Setting changed: time zone — UTC."]
    assert (await listed_settings(service))["timezone"] == "UTC"
    assert (await service.handle(PLACE, ANN, "/set zone utc")).error == (
        "No setting “zone”; settings: structure (betting structure), level, buy_in (buy-in), min_buy_in (minimum "
        "buy-in), max_buy_in (maximum buy-in), turn_seconds (turn time (seconds)), next_hand_seconds (pause between "
        "hands (seconds)), max_seats "
        "(seats), pictures, time_bank "
        "(time bank (seconds)), straddle, away_minutes (time away before standing up (minutes)), run_it_twice (run "
        "it twice), timezone (time zone).")
    listed = (await service.handle(PLACE, ANN, "/set")).private
    before = dump(service.store.location)  # the ledger, the action log and the table's stored zone among the rest
    refused = await service.handle(PLACE, ANN, "/set timezone Mars/Olympus")
    assert (refused.error, refused.public) == (
        "“Mars/\u2060Olympus” is not a valid value for “time zone” (/set timezone takes Europe/Moscow, UTC, "
        "America/New_York…).", [])
    assert dump(service.store.location) == before
    assert (await service.handle(PLACE, ANN, "/set")).private == listed
    assert (await service.handle(PLACE, ANN, "/lang ru")).error is None
    before = dump(service.store.location)
    assert (await service.handle(PLACE, ANN, "/set timezone Марс")).error == (
        "«Марс» — недопустимое значение для настройки «часовой пояс» (/set timezone принимает Europe/Moscow, UTC, "
        "America/New_York…).")
    assert dump(service.store.location) == before


async def test_house_limits_that_contradict_each_other_are_refused(service: Service, tmp_path) -> None:
    await service.handle(PLACE, ANN, "/game caribbean")
    before = dump(service.store.location)
    reply = await service.handle(PLACE, ANN, "/set min_ante 100000")  # Caribbean Poker's ANTE: at most 100
    assert reply.error == "The smallest ANTE (100,000) cannot be above the largest (100)."
    assert dump(service.store.location) == before


async def test_a_chat_moved_to_a_new_id_keeps_its_table_wallets_and_ledger(service, store) -> None:
    """A Telegram group upgraded to a supergroup (`Service.move_chat`): its rows move under the new id, on either
    database (PostgreSQL renames them row by row, its foreign keys checked at the commit), the moves of the hand in
    play (its blinds, in the action log) included."""
    assert (await service.handle(PLACE, ANN, "/join 200")).error is None
    assert (await service.handle(PLACE, BOB, "/join 300")).error is None
    assert (await service.handle(PLACE, ANN, "/deal")).error is None
    assert await service.move_chat("chat", "chat2")
    moved = Place("chat2", "chat2/table")
    assert (await service.handle(moved, ANN, "/balance")).private == {"ann": ["Your wallet: 800 chips."]}
    on_table = await store.read(lambda tx: tx.balances("stack:chat2/table:") | tx.balances("pot:chat2/table"))
    assert sum(on_table.values()) == 500 and on_table["pot:chat2/table"] > 0
    assert await store.read(lambda tx: (tx.balance("stack:chat/table:bob"), tx.table_ids())) == (0, ["chat2/table"])
    assert await store.read(lambda tx: tx.check_ledger()) == []
    moves = await store.read(lambda tx: [move for _, _, move in tx.every_move() if move.hand_id])
    assert moves and all(":chat/" not in f"{move.source} {move.target}" for move in moves)
    assert not await service.move_chat("chat", "chat2")  # moved already: nothing to move


async def test_a_russian_box_is_shown_to_its_owner_only_when_its_turn_comes(service: Service) -> None:
    """RULES.md §3: boxes are decided in order, each box's cards shown only when its turn comes, in the private text
    and picture too (a player who saw box 2 would play box 1 knowing it)."""
    await service.handle(PLACE, ANN, "/game russian")
    for line in ("/ante 10", "/ante 10 box 2"):
        assert (await service.handle(PLACE, ANN, line)).error is None
    dealt = await service.handle(PLACE, ANN, "/deal")
    assert dealt.error is None
    _, state = await service.store.read(lambda tx: service.stored_table(tx, PLACE.table_id))
    round_ = RussianRound.from_dict(state["round"])
    first, second = round_.boxes
    asked = "\n".join((await service.handle(PLACE, ANN, "/cards")).private["ann"])
    assert f"box 1: {cards_text(first.cards)}" in asked and "box 2: shown when its turn comes" in asked
    assert cards_text(second.cards) not in asked
    assert [row for row, _ in house_rows(Voice("en", str.title), round_, "ann")] == ["box 1"]
    played = await service.handle(PLACE, ANN, "/play")
    assert played.error is None
    asked = "\n".join((await service.handle(PLACE, ANN, "/cards")).private["ann"])
    assert f"box 2: {cards_text(second.cards)}" in asked, "box 2's turn has come"


async def test_a_russian_players_first_box_is_told_with_the_deal_as_my_cards_shows_it(service: Service) -> None:
    """RULES.md §3: Bob's first box's turn comes with the deal (Ann's boxes are decided first): he is told its cards
    at once, as his "my cards" shows them, and his box 2 waits in both."""
    await service.handle(PLACE, ANN, "/game russian")
    for actor, line in ((ANN, "/ante 10"), (BOB, "/ante 10"), (BOB, "/ante 10 box 2")):
        assert (await service.handle(PLACE, actor, line)).error is None
    dealt = await service.handle(PLACE, ANN, "/deal")
    assert dealt.error is None and dealt.table is not None and dealt.table.to_act == "ann"
    _, state = await service.store.read(lambda tx: service.stored_table(tx, PLACE.table_id))
    bob_first, bob_second = RussianRound.from_dict(state["round"]).boxes[1:]
    told = "\n".join(dealt.private["bob"])
    assert cards_text(bob_first.cards) in told and cards_text(bob_second.cards) not in told
    asked = "\n".join((await service.handle(PLACE, BOB, "/cards")).private["bob"])
    assert f"box 1: {cards_text(bob_first.cards)}" in asked and "box 2: shown when its turn comes" in asked


async def test_a_pairplus_alone_is_told_to_its_owner_at_once_and_to_the_table_when_the_round_ends(
        service: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    """RULES.md §5: PAIRPLUS is settled on the deal; DESIGN.md: a player's own box never goes to the public channel.
    Ann's PAIRPLUS alone (9♣ 9♥ 5♦) is hers to read at once; the table sees its cards only with the round's end,
    not while Bob (K♦ K♣ 2♠) still decides."""
    stack_house_deck(monkeypatch, "9c 9h 5d  Kd Kc 2s  Qc 5c 2c")
    await service.handle(PLACE, ANN, "/game three-card")
    for actor, line in ((ANN, "/ante 0 pp 5"), (BOB, "/ante 10")):
        assert (await service.handle(PLACE, actor, line)).error is None
    dealt = await service.handle(PLACE, ANN, "/deal")
    assert dealt.table is not None and dealt.table.to_act == "bob"
    assert "Box 1, side bet: PAIRPLUS +5 (a pair of nines, five kicker, ×1)." in dealt.private["ann"]
    shown = everything_public(dealt)
    assert not any(word in shown for word in ("9♣", "nines", "+5")), shown
    assert "Ann · box 1 · PAIRPLUS 5 · playing" in shown  # the bet stays; not what it did
    ended = await service.handle(PLACE, BOB, "/play")
    assert ("Ann, box 1: wins (+5) — a pair of nines, five kicker: 9♣ 9♥ 5♦; PAIRPLUS +5 (a pair of nines, five "
            "kicker, ×1).") in ended.public[-1]
    assert (await wallets(service))["ann"] == 1000 + 5
    await ledger_ok(service)


@pytest.mark.parametrize(("game", "cards", "bets", "told", "secrets", "result"), [
    ("three-card", "9h 8h 7h  Kd Kc 2s  Qc 5d 2c", "/ante 10 pp 5",
     "Box 1, side bet: PAIRPLUS +200 (a straight flush to the nine, ×40).", ("straight", "+200", "+190"),
     "Ann, box 1: folded (+190); PAIRPLUS +200 (a straight flush to the nine, ×40) · ANTE −10."),
    ("three-card", "9h 9d 5c  Kd Kc 2s  Qc 5d 2c", "/ante 10 pp 5",
     "Box 1, side bet: PAIRPLUS +5 (a pair of nines, five kicker, ×1).", ("nines", "+5", "−5"),
     "Ann, box 1: folded (−5); PAIRPLUS +5 (a pair of nines, five kicker, ×1) · ANTE −10."),
    ("three-card", "9h 7d 4c  Kd Kc 2s  Qc 5d 2c", "/ante 10 pp 5",
     "Box 1, side bet: PAIRPLUS −5.", ("−5", "−15"),
     "Ann, box 1: folded (−15); PAIRPLUS −5 · ANTE −10."),
    ("caribbean", "9h 8d 7c 6s 5h  Kd Kc 2s 3d 4h  2d 2h Ks 6d 8c", "/ante 10 bonus 10",
     "Box 1, side bet: BONUS +50 (a straight to the nine, ×5).", ("straight", "+50", "+40"),
     "Ann, box 1: folded (+40); ANTE −10 · BONUS +50 (a straight to the nine, ×5)."),
], ids=["three-card", "three-card-pair", "three-card-lost", "caribbean"])
async def test_a_folded_box_keeps_its_side_bet_from_the_table_until_the_round_ends(
        service: Service, monkeypatch: pytest.MonkeyPatch, game: str, cards: str, bets: str, told: str,
        secrets: tuple[str, ...], result: str) -> None:
    """A side bet's result names the box's hand: after Ann folds, the table reads that she folded, not what her side
    bet won (nor her box's net, which tells it as well), while Bob still decides; Ann knows it already; the table
    learns it with the round's result. There a side bet the rule pays on a folded box (RULES.md §4, §5) is paid
    naming the hand that won it, as a card room's dealer pays a folded hand's Pair Plus face up (a pair of nines
    too, which its ×1 alone would not name); a lost one names nothing, and a folded box's cards are never listed."""
    stack_house_deck(monkeypatch, cards)
    await service.handle(PLACE, ANN, f"/game {game}")
    for actor, line in ((ANN, bets), (BOB, "/ante 10")):
        assert (await service.handle(PLACE, actor, line)).error is None
    dealt = await service.handle(PLACE, ANN, "/deal")
    folded = await service.handle(PLACE, ANN, "/fold")
    assert folded.table is not None and folded.table.to_act == "bob"
    assert told in dealt.private["ann"] + folded.private.get("ann", [])
    shown = everything_public(folded)
    assert "Ann, box 1: folds." in shown and not any(secret in shown for secret in secrets), shown
    ended = await service.handle(PLACE, BOB, "/play")
    assert result in ended.public[-1].split("\n")  # the box's whole line of the round's result
    await ledger_ok(service)


async def test_choosing_a_three_card_tier_keeps_the_tables_payout_cap(service: Service,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A tier is its ANTE and PAIRPLUS ranges (RULES.md §5): choosing one silently lifted the maximum payout the
    organizer had set (`/set` then listed max_payout=off, and a PAIRPLUS straight flush paid 20,000)."""
    await service.handle(PLACE, ANN, "/game three-card")
    assert (await service.handle(PLACE, ANN, "/set max_payout 5000")).error is None
    assert (await service.handle(PLACE, ANN, "/set tier vip")).error is None
    listed = await listed_settings(service)
    assert (listed["min_ante"], listed["max_ante"], listed["max_payout"]) == ("25", "2,000", "5,000")
    stack_house_deck(monkeypatch, "Ah Kh Qh  2c 7d 9s")
    assert (await service.handle(PLACE, ANN, "/ante 0 pp 500")).error is None
    await service.handle(PLACE, ANN, "/deal")
    assert (await wallets(service))["ann"] == 1000 + 5000
    await ledger_ok(service)


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "box 1: K♦ K♣ 2♠ · side bet: PAIRPLUS +5 (a pair of kings, two kicker, ×1)"),
    ("ru", "бокс 1: K♦ K♣ 2♠ · дополнительная ставка: «Пара плюс» +5 (пара королей, кикер двойка, ×1)"),
])
async def test_a_pairplus_settled_on_the_deal_is_in_my_cards(service: Service, monkeypatch: pytest.MonkeyPatch,
                                                             language: str, expected: str) -> None:
    """RULES.md §5: PAIRPLUS is settled on the deal and told to its owner then; a player who missed that message
    (Discord sends private parts only to the presser, a Telegram player without a private chat reads "My cards")
    finds it in "My cards" too, beside the box's cards."""
    stack_house_deck(monkeypatch, "9c 9h 5d  Kd Kc 2s  Qc 5c 2c")
    await service.handle(PLACE, ANN, "/game three-card")
    await service.handle(PLACE, BOB, f"/lang {language} me")
    for actor, line in ((ANN, "/ante 10"), (BOB, "/ante 10 pp 5")):
        assert (await service.handle(PLACE, actor, line)).error is None
    dealt = await service.handle(PLACE, ANN, "/deal")
    assert dealt.table is not None and dealt.table.to_act == "ann"
    asked = "\n".join((await service.handle(PLACE, BOB, "/cards")).private["bob"])
    assert expected in asked, asked
    mine = "\n".join((await service.handle(PLACE, ANN, "/cards")).private["ann"])
    assert "+5" not in mine and "PAIRPLUS" not in mine, "Ann's box carries no side bet"


@pytest.mark.parametrize(("language", "expected"), [("en", "box 3: plays blind, shown at the showdown"),
                                                    ("ru", "бокс 3: играет втёмную, откроется при вскрытии")])
async def test_a_blind_box_is_not_promised_a_turn_it_never_gets(service: Service, language: str,
                                                                expected: str) -> None:
    """Russian Poker's third box plays blind (RULES.md §3): "My cards" said its cards would be shown "when its turn
    comes", a turn a blind box never has; its cards come at the showdown."""
    await service.handle(PLACE, ANN, f"/lang {language}")
    await service.handle(PLACE, ANN, "/game russian")
    for line in ("/ante 10", "/ante 10 box 2", "/ante 10 box 3"):
        assert (await service.handle(PLACE, ANN, line)).error is None
    assert (await service.handle(PLACE, ANN, "/deal")).error is None
    asked = (await service.handle(PLACE, ANN, "/cards")).private["ann"][0].lower()
    assert expected in asked and asked.count(expected.split(": ", 1)[1]) == 1  # box 2 still waits for its turn


@pytest.mark.parametrize(("language", "game", "cards", "moves", "line", "table", "over"), [
    ("en", "russian", "2c 5d 8h Js 3s  2d 4h 7s 9c Jd  6c", ("/exchange 1", "/play", "/decline"),
     "Ann, box 1: dealer has no game (0) — no game: 5♦ 8♥ J♠ 3♠ 6♣; ANTE +10 · BET 0 · exchange fee −10.",
     "Ann · box 1 · ANTE 10 · BET 20 · settled 0", "Round over: Ann 0."),
    ("ru", "russian", "2c 5d 8h Js 3s  2d 4h 7s 9c Jd  6c", ("/exchange 1", "/play", "/decline"),
     "Ann, бокс 1: у дилера нет игры (0)", "Ann · бокс 1 · АНТЕ 10 · БЕТ 20 · рассчитан 0",
     "АНТЕ +10 · БЕТ 0 · плата за обмен −10."),
    ("en", "texas", "2c 7d  3h 4h  Kd 9s 5c Jh 8d", ("/buy", "/fold"),
     "Ann, box 1: folded (−20); ANTE −10 · card fee −10.", "Ann · box 1 · ANTE 10 · settled −20",
     "Round over: Ann −20."),
    ("ru", "texas", "2c 7d  3h 4h  Kd 9s 5c Jh 8d", ("/buy", "/fold"),
     "Ann, бокс 1: пас (−20); АНТЕ −10 · плата за прикуп −10.", "рассчитан −20", "Раунд окончен: Ann −20."),
], ids=["russian-en", "russian-ru", "texas-en", "texas-ru"])
async def test_a_boxs_settlement_line_counts_its_fees_as_the_table_and_the_round_do(
        service: Service, monkeypatch: pytest.MonkeyPatch, language: str, game: str, cards: str,
        moves: tuple[str, ...], line: str, table: str, over: str) -> None:
    """A fee (a card bought, an exchange) is never returned (RULES.md §2.5), and the table's "settled" and "Round
    over" count it: the box's own line said "dealer has no game (+10)" beside "settled 0", or "folded (−10)" beside
    "Round over: −20". Its net now counts the fee too, and the fee is one of its lines, so that they add up."""
    stack_house_deck(monkeypatch, cards)
    await service.handle(PLACE, ANN, f"/lang {language}")
    await service.handle(PLACE, ANN, f"/game {game}")
    assert (await service.handle(PLACE, ANN, "/ante 10")).error is None
    reply = await service.handle(PLACE, ANN, "/deal")
    for move in moves:
        reply = await service.handle(PLACE, ANN, move)
        assert reply.error is None, (move, reply.error)
    shown = everything_public(reply)
    for expected in (line, table, over):
        assert expected in shown, shown
    assert (await wallets(service))["ann"] == 1000 + int(table.rsplit(" ", 1)[1].replace("−", "-"))
    await ledger_ok(service)


@pytest.mark.parametrize(("language", "house", "holdem", "listed"), [
    ("en", "Setting changed: maximum payout per box — 5,000.", "Setting changed: buy-in — 4,000.", "5,000"),
    ("ru", "Настройка изменена: максимальная выплата на бокс — 5\u00a0000.", "Настройка изменена: бай-ин — 4\u00a0000.",
     "5\u00a0000"),
])
async def test_a_changed_setting_writes_its_number_as_the_chat_does(service: Service, language: str, house: str,
                                                                   holdem: str, listed: str) -> None:
    """`/set max_payout 5000` at a house table echoed "max_payout = 5000" where every other chip count reads 5,000
    (5 000 in Russian): the house table said the text as typed. Hold'em's confirmation, which said the number,
    already read 4,000."""
    await service.handle(PLACE, ANN, f"/lang {language}")
    other = Place(PLACE.chat_id, "chat/holdem")
    assert (await service.handle(other, ANN, "/set buy_in 4000")).public == [holdem]
    await service.handle(PLACE, ANN, "/game russian")
    assert (await service.handle(PLACE, ANN, "/set max_payout 5000")).public == [house]
    assert (await listed_settings(service))["max_payout"] == listed


async def test_a_three_card_tier_is_listed_only_while_its_ranges_hold(service: Service) -> None:
    """A tier is its ANTE and PAIRPLUS ranges (RULES.md §5): after `/set tier vip` then `/set min_ante 100` the
    table's ANTE ran 100–2000, yet `/set` went on listing tier=vip. It lists the tier the ranges are, or none."""
    await service.handle(PLACE, ANN, "/game three-card")
    assert (await listed_settings(service))["tier"] == "LITE (lite)"
    assert (await service.handle(PLACE, ANN, "/set tier vip")).error is None
    assert (await listed_settings(service))["tier"] == "VIP (vip)"
    assert (await service.handle(PLACE, ANN, "/set min_ante 100")).error is None
    listed = await listed_settings(service)
    assert (listed["tier"], listed["min_ante"], listed["max_ante"]) == ("—", "100", "2,000")
    assert (await service.handle(PLACE, ANN, "/set min_ante 25")).error is None
    assert (await listed_settings(service))["tier"] == "VIP (vip)"  # the ranges are VIP's again
    assert (await service.handle(PLACE, ANN, "/set tier respect")).error is None
    assert (await listed_settings(service))["tier"] == "RESPECT (respect)"


@pytest.mark.parametrize(("language", "game", "line", "expected"), [
    ("en", "holdem", "/ante", "/ante is not used in Texas Hold'em."),
    ("en", "holdem", "/ante x", "/ante is not used in Texas Hold'em."),
    ("en", "omaha", "/exchange", "/exchange is not used in Pot-Limit Omaha."),
    ("en", "russian", "/pawn", "/pawn is not used in Russian Poker."),
    ("en", "caribbean", "/raise x", "/raise is not used in Caribbean Poker."),
    ("ru", "holdem", "/ante", "/ante не используется в этой игре: Техасский холдем."),
    ("en", "russian", "/ante x", "ANTE must be a whole number of chips, not “x”."),
    ("en", "holdem", "/raise x", "The amount must be a whole number of chips above zero, not “x”."),
    ("en", "russian", "/balance x", "/balance takes nothing after it: write just /balance."),
    ("en", "caribbean", "/stats 0d", "Usage: /stats [player] [30d|all]"),
], ids=lambda value: value if " " not in value else "")
async def test_a_command_of_another_game_is_not_used_here_however_it_is_written(
        service: Service, language: str, game: str, line: str, expected: str) -> None:
    """`/ante 10` at a Hold'em table answered that /ante is not used in Texas Hold'em, but a bare `/ante` (or
    `/ante x`) answered with /ante's usage, as if the table took it written right: the arguments were read before
    the table's game was asked. A command the game does not use is now said to be so, however it is written; the
    table's own commands, and those every table has, keep their usage answers."""
    await service.handle(PLACE, ANN, f"/lang {language}")
    if game != "holdem":
        assert (await service.handle(PLACE, ANN, f"/game {game}")).error is None
    assert (await service.handle(PLACE, ANN, line)).error == expected


@pytest.mark.parametrize(("language", "game", "line", "expected"), [
    ("en", "caribbean", "/dealergame", "/dealergame is not used in Caribbean Poker."),
    ("en", "caribbean", "/buy", "/buy is not used in Caribbean Poker."),
    ("en", "texas", "/decline", "/decline is not used in Texas Poker."),
    ("en", "three-card", "/exchange 1", "/exchange is not used in Three Card Poker."),
    ("ru", "caribbean", "/dealergame", "/dealergame не используется в этой игре: Карибский покер."),
])
async def test_a_decision_the_tables_game_does_not_have_is_not_used_there(
        service: Service, language: str, game: str, line: str, expected: str) -> None:
    """The four house games share one list of decision commands, and Caribbean Poker answered `/dealergame` with
    "not possible now", as if a later moment of the round might allow it: RULES.md §4 gives Caribbean no dealer's
    game (and no buy), §5 gives Three Card Poker no exchange. Such a command is now not used in that game, between
    rounds and in one alike; a decision the game has keeps its answers."""
    await service.handle(PLACE, ANN, f"/lang {language}")
    assert (await service.handle(PLACE, ANN, f"/game {game}")).error is None
    assert (await service.handle(PLACE, ANN, line)).error == expected
    assert (await service.handle(PLACE, ANN, "/ante 10")).error is None
    assert (await service.handle(PLACE, ANN, "/deal")).error is None
    assert (await service.handle(PLACE, ANN, line)).error == expected
    assert (await service.handle(PLACE, ANN, "/fold")).error is None, "a decision of the game is taken"


@pytest.mark.parametrize(("game", "line", "said"), [
    ("caribbean", "/raise 20", "/raise не используется в этой игре: Карибский покер."),
    ("caribbean", "/raise x", "/raise не используется в этой игре: Карибский покер."),
    ("holdem", "/ante 10", "/ante не используется в этой игре: Техасский холдем."),
    ("holdem", "/ante x", "/ante не используется в этой игре: Техасский холдем."),
])
async def test_another_games_command_is_refused_in_the_actors_own_language(service: Service, game: str, line: str,
                                                                           said: str) -> None:
    """A command of another game is refused in the language the player chose for what only he reads (`/lang ru
    me`), the game's name too, however the command is written: a house table named its game in the chat's language
    inside his Russian sentence."""
    if game != "holdem":  # a new table plays Hold'em
        assert (await service.handle(PLACE, ANN, f"/game {game}")).error is None
    await service.handle(PLACE, BOB, "/lang ru me")
    assert (await service.handle(PLACE, BOB, line)).error == said


@pytest.mark.parametrize(("language", "said"), [
    ("en", "A house table takes no buy-in: every bet comes straight from your wallet, so /join 500 took nothing from "
           "it."),
    ("ru", "За столом против дилера бай-ина нет: каждая ставка берётся прямо из кошелька, и команда /join 500 ничего "
           "из него не списала."),
])
async def test_join_with_chips_at_a_house_table_says_the_chips_stay_in_the_wallet(service: Service, language: str,
                                                                                   said: str) -> None:
    """House games play from the wallet (RULES.md, chips and balances): `/join 500` at a house table took nothing and
    answered only how to bet, as if the 500 had bought something. It now says there is no buy-in; a plain `/join`
    answers as before."""
    await service.handle(PLACE, ANN, f"/lang {language}")
    await service.handle(PLACE, ANN, "/game russian")
    joined = await service.handle(PLACE, ANN, "/join 500")
    assert joined.error is None and joined.private["ann"][0] == said
    assert len(joined.private["ann"]) == 2  # then how to bet
    assert (await wallets(service))["ann"] == 1000
    plain = await service.handle(PLACE, ANN, "/join")
    assert said not in plain.private["ann"] and len(plain.private["ann"]) == 1


@pytest.mark.parametrize(("line", "answer"), [
    ("/ante 10 pp 5 pp 20", "Usage: /ante chips [box 1-3] [pp chips]"),  # a usage of a command games use
    ("/ante 10 pp abc", "The PAIRPLUS bet must be a whole number of chips, not “abc”."),  # the side bet
])
async def test_a_command_that_cannot_be_read_reads_the_tables_game_once(store: Store, line: str, answer: str) -> None:
    """The answer to a command that could not be read asks the table's game once, however many of its parts (another
    game's command, the usage, the side bet) depend on it: here the table is not in memory, so once from the store."""
    opened = await started_service(store, FakeClock(), seed=42)
    assert (await opened.handle(PLACE, ANN, "/game three-card")).error is None
    service = Service(store, FakeClock(), rng=random.Random(42))  # not started: the table is read from the store
    statements: list[str] = []
    traced = not store.dialect.is_shared  # the statements are counted where the driver can trace them (sqlite3)
    if traced:
        await store.outside_transaction(lambda db: db.set_trace_callback(statements.append))
    reply = await service.handle(PLACE, ANN, line)
    assert reply.error == answer
    if traced:
        await store.outside_transaction(lambda db: db.set_trace_callback(None))
        assert sum(sql.startswith("SELECT chat_id, config, state FROM tables") for sql in statements) == 1

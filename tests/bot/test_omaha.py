"""Pot-Limit Omaha through the service (`/game omaha`): its settings, `/odds`, computer players, a tournament; and
`/rabbit` at a Hold'em table (RULES.md §1a, §1b)."""

from __future__ import annotations

import json
import re

from bot.clock import FakeClock
from bot.render.pokerstars import RecordedHand, export_hand, is_one_hand
from bot.service import Service
from bot.store import Store
from tests.bot.conftest import ANN, BOB, CAT, PLACE
from tests.bot.helpers import DEALT_ALL_IN, SIX_PM, ledger_ok, listen, play_out, press_label, started_service
from tests.bot.test_odds_practice import play_hand

PLAYERS = {actor.user_id: actor for actor in (ANN, BOB, CAT)}
CARD = r"[2-9TJQKA][♠♥♦♣]"


async def omaha_table(service: Service, *actors) -> None:
    assert (await service.handle(PLACE, ANN, "/game omaha")).error is None
    for actor in actors:
        assert (await service.handle(PLACE, actor, "/join 400")).error is None


async def test_an_omaha_table_offers_pot_limit_and_at_most_eleven_seats(service: Service) -> None:
    switched = await service.handle(PLACE, ANN, "/game omaha")
    assert switched.public == ["This table now plays Pot-Limit Omaha. /join to sit down."]
    refused = await service.handle(PLACE, ANN, "/set structure no-limit")
    assert refused.error == (  # Omaha plays pot-limit only
        "“no-limit” is not a valid value for “betting structure” (/set structure takes pot-limit).")
    assert (await service.handle(PLACE, ANN, "/set max_seats 12")).error == (
        "“12” is not a valid value for “seats” (/set max_seats takes 2…11).")
    assert (await service.handle(PLACE, ANN, "/set max_seats 11")).error is None
    listed = await service.handle(PLACE, ANN, "/set")
    assert listed.private["ann"][0].split("\n")[1] == "structure — betting structure: pot-limit"
    # a Hold'em table keeps its own structures: pot limit is Omaha's (RULES.md §1 lists no pot-limit Hold'em)
    assert (await service.handle(PLACE, ANN, "/game holdem")).error is None
    assert (await service.handle(PLACE, ANN, "/set structure pot-limit")).error == (
        "“pot-limit” is not a valid value for “betting structure” (/set structure takes home-limit, fixed-limit, "
        "no-limit).")


async def test_odds_on_an_omaha_table_counts_four_cards_and_stays_private(service: Service) -> None:
    await omaha_table(service, ANN, BOB, CAT)
    start = await service.handle(PLACE, ANN, "/deal")
    hole = {user: messages[0].removeprefix("Your cards: ") for user, messages in start.private.items()}
    assert all(re.fullmatch(f"{CARD} {CARD} {CARD} {CARD}", cards) for cards in hole.values())
    answer = await service.handle(PLACE, BOB, "/odds")
    assert answer.error is None and answer.public == [] and list(answer.private) == ["bob"]
    text = answer.private["bob"][0]
    assert hole["bob"] in text and "2 opponents" in text and "simulated over 5,000 deals" in text
    assert not {card for user in ("ann", "cat") for card in hole[user].split()} & set(re.findall(CARD, text))
    equity = float(re.search(r"equity (\d+(?:\.\d)?)%", text).group(1))
    assert 5 < equity < 80  # three random Omaha hands run close: no hand is a lock before the flop


async def test_computer_players_play_a_whole_omaha_hand(store: Store, clock: FakeClock) -> None:
    service = await started_service(store, clock, seed=3)
    heard = listen(service)
    await omaha_table(service, ANN)
    assert (await service.handle(PLACE, ANN, "/addbot")).error is None
    start = await service.handle(PLACE, ANN, "/deal")
    replies = await play_hand(service, clock, heard, start)
    assert replies[-1].table.to_act is None
    await ledger_ok(service)


async def test_an_omaha_tournament_deals_omaha_hands(store: Store) -> None:
    clock = FakeClock(SIX_PM)
    service = await started_service(store, clock, seed=5)
    assert (await service.handle(PLACE, ANN, "/game omaha")).error is None
    assert (await service.handle(PLACE, ANN, "/tournament create home-night")).error is None
    for actor in (ANN, BOB, CAT):
        assert (await service.handle(PLACE, actor, "/join")).error is None
    started = await service.handle(PLACE, ANN, "/tournament start")
    assert started.error is None and started.table is not None
    assert started.table.text.startswith("Omaha — hand #1 · blinds 5/10 · pot-limit")
    assert all(re.fullmatch(f"Your cards: {CARD} {CARD} {CARD} {CARD}", messages[0])
               for messages in started.private.values())
    await play_out(service, PLACE, PLAYERS, started)
    await ledger_ok(service)
    # its history is headed as PokerStars heads a tournament's pot-limit hand: buy-in, level and blinds (6 p.m. UTC is
    # 1 p.m. Eastern), at the tournament's table
    (told,) = (await service.handle(PLACE, BOB, "/history 1")).private["bob"]
    assert told.splitlines()[:2] == [
        "PokerStars Hand #1: Tournament #1, 50+0 Omaha Pot Limit - Level I (5/10) - 2026/11/29 13:00:00 ET",
        "Table '1 1' 10-max Seat #1 is the button"]


def street(service: Service) -> str:
    """The street of the hand in play at the test table, as the service holds it."""
    _config, state = json.loads(service.live_state(PLACE.table_id) or "null")
    return str(state["hand"]["street"])


async def test_rabbit_at_a_holdem_table_and_its_refusals(service: Service, decks: list[str]) -> None:
    decks += ["", DEALT_ALL_IN]  # the first hand shuffled, the second's board K♥ 9♠ 3♣, then 2♦ 2♠
    for actor in (ANN, BOB):
        assert (await service.handle(PLACE, actor, "/join 400")).error is None
    # a hand checked down to the river: nothing is left to see
    start = await service.handle(PLACE, ANN, "/deal")
    await play_out(service, PLACE, PLAYERS, start, preference=("check", "call"))
    refused = await service.handle(PLACE, BOB, "/rabbit")
    assert refused.error == "The last hand went to the river: there are no cards left to see."
    # the next hand ends on the flop: the turn and the river are shown, the same each time, and change nothing
    reply = await service.handle(PLACE, ANN, "/deal")
    while street(service) == "preflop":
        reply = await service.press(PLACE, PLAYERS[reply.table.to_act], press_label(reply, "check", "call"))
    assert street(service) == "flop"
    first = reply.table.to_act
    reply = await service.handle(PLACE, PLAYERS[first], "/bet 20")
    reply = await service.handle(PLACE, PLAYERS[reply.table.to_act], "/fold")
    assert reply.table.to_act is None
    before = await service.store.read(lambda tx: tx.balances(f"stack:{PLACE.table_id}:"))
    hunted = await service.handle(PLACE, CAT, "/rabbit")  # any player of the chat, seated or not
    assert hunted.error is None and hunted.private == {}
    assert hunted.public == [
        "🐇 Cat hunts the rabbit of hand #2: with K♥ 9♠ 3♣ on the board, the rest of it would have been 2♦ 2♠. "
        "Nothing changes."]
    assert (await service.handle(PLACE, ANN, "/rabbit")).public == [
        "🐇 Ann hunts the rabbit of hand #2: with K♥ 9♠ 3♣ on the board, the rest of it would have been 2♦ 2♠. "
        "Nothing changes."]
    assert await service.store.read(lambda tx: tx.balances(f"stack:{PLACE.table_id}:")) == before
    # the history marks the hunts; the PokerStars export of the hand leaves them out
    ((_, at, events),) = await service.store.read(lambda tx: tx.hand_records(PLACE.table_id, ["h2"]))
    assert [event["player"] for event in events if event["kind"] == "RabbitHunted"] == ["cat", "ann"]
    assert is_one_hand(events)
    played = [event for event in events if event["kind"] != "RabbitHunted"]
    names = {"ann": "Ann", "bob": "Bob"}
    assert export_hand(RecordedHand(events, at), names) == export_hand(RecordedHand(played, at), names)
    await ledger_ok(service)


async def test_no_straddle_button_is_offered_to_a_computer_player(service: Service) -> None:
    """A practice player never straddles: a Straddle button naming one is a button nobody at the table may press."""
    assert (await service.handle(PLACE, ANN, "/game omaha")).error is None
    assert (await service.handle(PLACE, ANN, "/set straddle on")).error is None
    for actor in (ANN, BOB):
        assert (await service.handle(PLACE, actor, "/join 400")).error is None
    assert (await service.handle(PLACE, ANN, "/addbot")).error is None
    added = await service.handle(PLACE, ANN, "/addbot Chip")  # the seat left of the next big blind
    labels = [button.label for button in added.table.buttons]
    assert labels == ["Deal"], labels
    assert (await service.handle(PLACE, ANN, "/addbot remove Robo")).error is None  # Ann's seat is that one now
    labels = [button.label for button in (await service.handle(PLACE, ANN, "/table")).table.buttons]
    assert labels == ["Deal", "Straddle 40 (Ann)"]


async def test_a_computer_players_turn_draws_no_action_buttons(store: Store, clock: FakeClock) -> None:
    """Nobody may press a practice player's Check or Raise (he acts on his timer): his turn's table message offers
    the humans their own cards and pre-actions only."""
    service = await started_service(store, clock, seed=3)
    await omaha_table(service, ANN)
    assert (await service.handle(PLACE, ANN, "/addbot")).error is None
    start = await service.handle(PLACE, ANN, "/deal")  # heads-up: Ann, on the button, acts first
    assert start.table.to_act == "ann" and "h1|s1|call" in [button.payload for button in start.table.buttons]
    called = await service.handle(PLACE, ANN, "/call")
    assert called.table.to_act == "bot:robo"
    commands = [button.payload.split("|")[-1] for button in called.table.buttons]
    assert not {"check", "fold", "call"} & set(commands) and not any(
        command.startswith(("raise", "bet")) for command in commands), commands
    assert "cards" in commands and any(command.startswith("pre ") for command in commands)

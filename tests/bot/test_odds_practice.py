"""`/odds` and practice seats through the service: private answers, computer players paid by the house."""

import random
import re

from bot.clock import FakeClock
from bot.games import odds as odds_module
from bot.output import Reply
from bot.service import Service
from bot.store import Store
from tests.bot.conftest import ANN, BOB, CAT, PLACE
from tests.bot.helpers import everything_public, ledger_ok, press_label

HUMANS = {actor.user_id: actor for actor in (ANN, BOB, CAT)}
HOUSE = f"house:{PLACE.chat_id}"


async def balance(service: Service, account: str) -> int:
    return await service.store.read(lambda tx: tx.balance(account))


async def listen(service: Service) -> list[Reply]:
    heard: list[Reply] = []

    async def listener(place, reply):
        heard.append(reply)

    service.subscribe("chat/", listener)
    return heard


async def play_hand(service: Service, clock: FakeClock, heard: list[Reply], reply: Reply) -> list[Reply]:
    """Humans check or call by button; computer players act when their timer fires. Returns every reply."""
    replies = [reply]
    for _ in range(200):
        table = replies[-1].table
        if table is None or table.to_act is None:
            return replies
        if table.to_act.startswith("bot:"):
            before = len(heard)
            clock.advance(1.6)
            assert await service.scheduler.fire_due() == 1
            assert len(heard) == before + 1, "the computer player did not act"
            replies.append(heard[-1])
        else:
            pressed = await service.press(PLACE, HUMANS[table.to_act], press_label(replies[-1], "check", "call"))
            assert pressed.error is None, pressed.error
            replies.append(pressed)
    raise AssertionError("the hand did not end")


async def test_two_friends_and_two_computer_players_play_a_whole_hand(store: Store, clock: FakeClock) -> None:
    service = Service(store, clock, rng=random.Random(3))
    await service.start()
    heard = await listen(service)
    for actor in (ANN, BOB):
        assert (await service.handle(PLACE, actor, "/join 200")).error is None
    added = await service.handle(PLACE, ANN, "/addbot")
    assert added.error is None and "Robo" in added.public[0] and "computer player" in added.public[0]
    assert (await service.handle(PLACE, ANN, "/addbot Chip")).error is None
    assert await balance(service, HOUSE) == -800  # two buy-ins of 400 from the house, none from a wallet
    assert await balance(service, f"wallet:{PLACE.chat_id}:ann") == 800
    start = await service.handle(PLACE, BOB, "/deal")
    assert start.error is None
    assert set(start.private) == {"ann", "bob"}  # computer players get no private messages
    replies = await play_hand(service, clock, heard, start)
    assert replies[-1].table.to_act is None
    narration = "\n".join(everything_public(reply) for reply in replies)
    assert re.search(r"🤖 (Robo|Chip) (folds|checks|calls|bets|raises)", narration)
    assert all(not user.startswith("bot:") for reply in replies for user in reply.private)
    await ledger_ok(service)
    stacks = await service.store.read(lambda tx: tx.balances(f"stack:{PLACE.table_id}:"))
    assert sum(stacks.values()) == 1200
    bot_chips = sum(chips for name, chips in stacks.items() if ":bot:" in name)
    # removing both computer players returns whatever they hold to the house
    for name in ("Robo", "Chip"):
        removed = await service.handle(PLACE, ANN, f"/addbot remove {name}")
        assert removed.error is None, removed.error
    assert await balance(service, HOUSE) == -800 + bot_chips
    await ledger_ok(service)


async def test_a_computer_player_is_removed_after_the_hand_it_is_in(store: Store, clock: FakeClock) -> None:
    service = Service(store, clock, rng=random.Random(5))
    await service.start()
    heard = await listen(service)
    assert (await service.handle(PLACE, ANN, "/join 200")).error is None
    assert (await service.handle(PLACE, ANN, "/addbot Deuce")).error is None
    start = await service.handle(PLACE, ANN, "/deal")
    leaving = await service.handle(PLACE, ANN, "/addbot remove deuce")
    assert leaving.public == ["🤖 Deuce leaves after this hand."]
    await play_hand(service, clock, heard, start)
    stacks = await service.store.read(lambda tx: tx.balances(f"stack:{PLACE.table_id}:"))
    assert stacks.get(f"stack:{PLACE.table_id}:bot:deuce", 0) == 0
    assert await balance(service, HOUSE) + await balance(service, f"stack:{PLACE.table_id}:ann") == 200
    await ledger_ok(service)
    # with only computer players left nobody deals: the practice table waits for a human
    assert (await service.handle(PLACE, ANN, "/addbot")).error is None
    assert (await service.handle(PLACE, ANN, "/addbot")).error is None
    assert (await service.handle(PLACE, ANN, "/leave")).error is None
    clock.advance(60)
    await service.scheduler.fire_due()
    state = await service.store.read(lambda tx: tx.load_table(PLACE.table_id))
    assert not state[1].get("hand")


async def test_computer_players_never_join_a_tournament_or_a_house_game(service: Service) -> None:
    assert (await service.handle(PLACE, ANN, "/tournament create home-night")).error is None
    refused = await service.handle(PLACE, ANN, "/addbot")
    assert refused.error == "Computer players never join a tournament."
    other = PLACE.__class__(PLACE.chat_id, "chat/other")
    assert (await service.handle(other, ANN, "/game texas")).error is None
    assert (await service.handle(other, ANN, "/addbot")).error == "Computer players only play cash Texas Hold'em."
    await ledger_ok(service)


async def test_only_an_organizer_seats_or_removes_computer_players(service: Service) -> None:
    assert (await service.handle(PLACE, ANN, "/join")).error is None  # Ann organizes the chat
    assert (await service.handle(PLACE, BOB, "/addbot")).error == "Only the table's organizer can do that."
    assert (await service.handle(PLACE, ANN, "/addbot Nuts")).error is None
    assert (await service.handle(PLACE, ANN, "/addbot nuts")).error == "nuts is already at the table."
    assert (await service.handle(PLACE, BOB, "/addbot remove Nuts")).error == "Only the table's organizer can do that."
    assert (await service.handle(PLACE, ANN, "/addbot remove Zed")).error is not None
    assert (await service.handle(PLACE, ANN, "/addbot remove")).error is not None  # usage
    assert (await service.handle(PLACE, ANN, "/addbot remove Nuts")).error is None
    assert await balance(service, HOUSE) == 0


async def test_odds_answers_privately_and_never_shows_other_cards(service: Service) -> None:
    for actor in (ANN, BOB, CAT):
        assert (await service.handle(PLACE, actor, "/join 200")).error is None
    start = await service.handle(PLACE, ANN, "/deal")
    hole = {user: messages[0].removeprefix("Your cards: ") for user, messages in start.private.items()}
    answer = await service.handle(PLACE, BOB, "/odds")
    assert answer.error is None and answer.public == [] and answer.table is None
    assert list(answer.private) == ["bob"]
    text = answer.private["bob"][0]
    assert "equity" in text and "2 opponents" in text and "simulated over 5,000 deals" in text
    assert hole["bob"] in text
    for user in ("ann", "cat"):
        for card in hole[user].split():
            if card not in hole["bob"].split():
                assert card not in text
    again = await service.handle(PLACE, BOB, "/odds")
    assert again.private == answer.private  # seeded by the situation: the same question, the same answer
    assert (await service.handle(PLACE, ANN, "/odds")).private["ann"][0] != text


async def test_odds_is_exact_heads_up_on_the_river(service: Service) -> None:
    for actor in (ANN, BOB):
        assert (await service.handle(PLACE, actor, "/join 200")).error is None
    reply = await service.handle(PLACE, ANN, "/deal")
    for _ in range(20):  # check and call up to the river
        if "Board" in reply.table.text and reply.table.text.count("♠") + reply.table.text.count("♥") \
                + reply.table.text.count("♦") + reply.table.text.count("♣") >= 5:
            break
        reply = await service.press(PLACE, HUMANS[reply.table.to_act], press_label(reply, "check", "call"))
    answer = await service.handle(PLACE, ANN, "/odds")
    assert "exact over all 990 deals" in answer.private["ann"][0]


async def test_odds_is_refused_outside_a_hand(service: Service) -> None:
    assert (await service.handle(PLACE, ANN, "/odds")).error == (
        "No hand is being played: /odds tells your chances during a hand you are in.")
    for actor in (ANN, BOB):
        await service.handle(PLACE, actor, "/join 200")
    await service.handle(PLACE, ANN, "/deal")
    assert (await service.handle(PLACE, CAT, "/odds")).error == "You are not in this hand."


async def test_odds_in_house_games_tells_the_edge_once_computed(service: Service) -> None:
    odds_module._house_cache.clear()
    assert (await service.handle(PLACE, ANN, "/game three-card")).error is None
    exact = await service.handle(PLACE, ANN, "/odds")
    assert exact.public == [] and list(exact.private) == ["ann"]
    text = exact.private["ann"][0]
    assert "Three Card Poker" in text and "PAIRPLUS" in text and "(exact)" in text and "Q-6-4" in text
    other = PLACE.__class__(PLACE.chat_id, "chat/other")
    await service.handle(other, ANN, "/game caribbean")
    simulated = (await service.handle(other, ANN, "/odds")).private["ann"][0]
    assert re.search(r"ANTE: \d+\.\d\d% ± \d\.\d \(20,000 simulated rounds\)", simulated)
    cached = dict(odds_module._house_cache)
    assert len(cached) == 2
    assert (await service.handle(other, BOB, "/odds")).private["bob"][0] == simulated
    assert odds_module._house_cache == cached


def test_addbot_and_odds_parse() -> None:
    from bot import commands as cmd

    assert cmd.parse("/addbot") == cmd.AddBot()
    assert cmd.parse("/addbot Robo") == cmd.AddBot("Robo")
    assert cmd.parse("/addbot remove Robo") == cmd.AddBot("Robo", remove=True)
    assert cmd.parse("/odds") == cmd.Odds()
    for bad in ("/addbot remove", "/addbot a b", "/addbot remove a b", "/odds x"):
        try:
            cmd.parse(bad)
        except cmd.CommandError:
            continue
        raise AssertionError(bad)

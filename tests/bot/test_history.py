"""Hand histories and statistics: random hands played through the service, exported in PokerStars format, read back
by an independent parser (pokerkit's PokerStars parser) and replayed to the same final stacks as the ledger says."""

from __future__ import annotations

import dataclasses
import json
import random
import warnings
from fractions import Fraction
from re import compile as regex
from typing import Any, ClassVar

import pytest
from pokerkit.notation import PokerStarsParser

from bot.clock import FakeClock
from bot.history import tournament_hand
from bot.output import Actor, Place
from bot.render import signed
from bot.render.pokerstars import RecordedHand, TournamentHand, export_hand, export_hands, hand_name
from bot.service import Service
from engine import betting, holdem_types
from engine import holdem as engine
from engine.cards import Deck
from engine.schedule import parse_schedule
from engine.tournament import Tournament, TournamentConfig
from tests.bot.conftest import dump
from tests.bot.helpers import play_out

CHAT = "chat"
STRUCTURES = ("no-limit", "fixed-limit", "home-limit")


class LimitAwareParser(PokerStarsParser):
    """pokerkit's PokerStars parser knows only `Hold'em No Limit` headers; real PokerStars writes `Hold'em Limit` for
    fixed-limit games. Limit hands are replayed under no-limit rules: their bets are written out in chips, and every
    fixed-limit bet sequence is legal no-limit betting except for caps, which only make a sequence shorter.
    `Omaha Pot Limit` is replayed as pokerkit's Pot-Limit Omaha."""

    VARIANT = regex(r" (?P<variant>Hold'em (No )?Limit|Omaha Pot Limit) ")
    VARIANTS: ClassVar[dict[str, str]] = {"Hold'em No Limit": "NT", "Hold'em Limit": "NT", "Omaha Pot Limit": "PO"}


def parse(text: str) -> list[Any]:
    """Every hand in the text, parsed and replayed by pokerkit (a failure raises)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pokerkit warns about its own extra fields (time zone)
        return list(LimitAwareParser()(text, error_status=True))


def replayed_stacks(history: Any) -> dict[str, int]:
    """The players' stacks once pokerkit has replayed the hand to its end."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        final = list(history)[-1]
    return dict(zip(history.players, final.stacks, strict=True))


def outside_pokerkit_model(events: list[dict[str, Any]]) -> str | None:
    """Why pokerkit cannot replay this hand as RULES.md plays it, or None.

    - a blind posted all-in short: pokerkit takes the short blind as the bet to call, the rules keep the full blind;
    - a pot split three or more ways with two or more odd chips: pokerkit gives them all to the first winner, the
      rules one each from the button's left;
    - fixed limit, a bet or raise after an all-in short of a full bet on the same street: the rules complete it or
      reopen at half a bet (TDA 47-B), pokerkit (replaying limit as no limit) raises from the all-in and reopens only
      for a full raise.
    """
    if any(event["kind"] == "BlindPosted" and event["is_all_in"] for event in events):
        return "short blind"
    if _raised_after_a_short_limit_all_in(events):
        return "limit all-in"
    for event in events:
        if event["kind"] == "PotAwarded" and len(event["winners"]) > 2 and event["amount"] % len(event["winners"]) > 1:
            return "odd chips"
    return None


def _raised_after_a_short_limit_all_in(events: list[dict[str, Any]]) -> bool:
    structure, level = betting.STRUCTURES[events[0]["structure"]], events[0]["level"]
    if structure.limit is not betting.Limit.FIXED:
        return False
    street, top, short = betting.Street.PREFLOP, level, False
    for event in events:
        if event["kind"] == "BoardDealt":
            street, top, short = betting.Street(event["street"]), 0, False
        elif event["kind"] in ("PlayerBet", "PlayerRaised"):
            if short:
                return True
            to = event.get("to", event["amount"])
            short = event["is_all_in"] and to - top < structure.bet_size(street, level)
            top = to
    return False


async def snapshot(service: Service, table_id: str) -> dict[str, Any]:
    loaded = await service.store.read(lambda tx: service.stored_table(tx, table_id))
    assert loaded is not None
    return loaded[1] or {}


def random_command(hand: engine.Hand, rng: random.Random) -> str:
    """A random legal action as a chat command, with a random amount for bets and raises."""
    legal = hand.legal_actions()
    choices: list[tuple[str, int]] = []
    if legal.can_fold:
        choices.append(("/fold", 2))
    if legal.can_check:
        choices.append(("/check", 4))
    if legal.call_amount:
        choices.append(("/call", 5))
    if legal.can_bet or legal.can_raise:
        word = "/bet" if legal.can_bet else "/raise"
        choices.append((f"{word} {rng.randint(legal.min_to, legal.max_to)}", 3))
    if legal.all_in:
        choices.append(("/allin", 1))
    commands, weights = zip(*choices, strict=True)
    return rng.choices(commands, weights)[0]


async def play_table(service: Service, rng: random.Random, number: int, hands: int, game: str = "holdem") -> str:
    """Seat 2-6 new players (by the table's number, so every count is played whatever the random hands do) at a new
    table with a random structure (Hold'em; Omaha is pot limit) and play up to `hands` random hands."""
    place = Place(CHAT, f"{CHAT}/t{number}")
    players = {f"u{number}-{k}": Actor(f"u{number}-{k}", f"P{number}x{k}", is_admin=True)
               for k in range(2 + number % 5)}
    first = next(iter(players.values()))
    if game == "holdem":
        assert (await service.handle(place, first, f"/set structure {STRUCTURES[number % 3]}")).error is None
    else:
        assert (await service.handle(place, first, f"/game {game}")).error is None
    for actor in players.values():
        reply = await service.handle(place, actor, f"/join {rng.randint(200, 1000)}")
        assert reply.error is None, reply.error
    for _ in range(hands):
        state = await snapshot(service, place.table_id)
        seated = [seat["id"] for seat in state["seats"] if seat["stack"] > 0]
        if len(seated) < 2:
            break
        reply = await service.handle(place, players[seated[0]], "/deal")
        assert reply.error is None, reply.error
        while (data := (await snapshot(service, place.table_id))["hand"]) is not None:
            hand = engine.Hand.from_dict(data)
            # pokerkit reads one board: these hands run once (run twice: tests/bot/test_showdown_table.py)
            if hand.runs_asked:
                player, command = hand.runs_asked[0], "/run once"
            elif hand.showing is not None:
                player, command = hand.showing, rng.choice(["/show", "/muck"])
            else:
                assert hand.to_act is not None
                player, command = hand.to_act, random_command(hand, rng)
            reply = await service.handle(place, players[player], command)
            assert reply.error is None, reply.error
    return place.table_id


def ledger_stacks(service_rows: list[Any], table_id: str, start: dict[str, int]) -> dict[str, int]:
    """Each player's stack after the hand from the ledger: his stack before it plus the hand's moves."""
    stacks = dict(start)
    for row in service_rows:
        for account, sign in ((row.target, 1), (row.source, -1)):
            player = account.removeprefix(f"stack:{table_id}:")
            if account.startswith("stack:") and player in stacks:
                stacks[player] += sign * row.amount
    return stacks


async def finished_hands_with_ledger(service: Service, table_id: str) -> list[Any]:
    """Each finished hand of the table as `((hand_id, at, events), its ledger rows)`."""
    def read(tx: Any) -> list[Any]:
        records = tx.hand_records(table_id, tx.finished_hands(table_id, 1000))
        return [(record, tx.ledger_rows(table_id, record[0])) for record in records]

    return await service.store.read(read)


async def test_random_hands_replay_in_pokerkit_to_the_ledger_stacks(service: Service) -> None:
    rng = random.Random(7)
    tables = [await play_table(service, rng, number, 24) for number in range(14)]
    compared, skipped = 0, {"short blind": 0, "odd chips": 0, "limit all-in": 0}
    kinds: set[tuple[str, int]] = set()
    for table_id in tables:
        for (hand_id, at, events), rows in await finished_hands_with_ledger(service, table_id):
            start = events[0]
            names = {player: f"Player {player}" for player in start["players"]}
            text = export_hand(RecordedHand(events, at, table_id), names, reveal_all=True)
            ended = events[-1]
            assert ended["kind"] == "HandEnded"
            assert ledger_stacks(rows, table_id, start["stacks"]) == ended["stacks"], hand_id
            reason = outside_pokerkit_model(events)
            if reason is not None:
                skipped[reason] += 1
                continue
            (history,) = parse(text)
            by_name = {name: player for player, name in names.items()}
            assert {by_name[name]: chips for name, chips in replayed_stacks(history).items()} == ended["stacks"], text
            compared += 1
            kinds.add((start["structure"], len(start["players"])))
    assert compared >= 200, (compared, skipped)
    assert {structure for structure, _ in kinds} == set(STRUCTURES)
    assert {count for _, count in kinds} == {2, 3, 4, 5, 6}
    assert sum(skipped.values()) < compared // 10, skipped


async def test_random_omaha_hands_export_and_replay_in_pokerkit_to_the_ledger_stacks(service: Service) -> None:
    rng = random.Random(19)
    tables = [await play_table(service, rng, number, 12, game="omaha") for number in range(8)]
    compared, skipped = 0, {"short blind": 0, "odd chips": 0, "limit all-in": 0}
    for table_id in tables:
        for (hand_id, at, events), rows in await finished_hands_with_ledger(service, table_id):
            start = events[0]
            assert (start["variant"], start["structure"]) == ("omaha", "pot-limit")
            names = {player: f"Player {player}" for player in start["players"]}
            text = export_hand(RecordedHand(events, at, table_id), names, reveal_all=True)
            assert text.startswith(f"PokerStars Hand #{start['hand_number']}: Omaha Pot Limit (10/20) - ")
            assert all(len(line.split("[")[1].split()) == 4 for line in text.splitlines()
                       if line.startswith("Dealt to "))
            assert ledger_stacks(rows, table_id, start["stacks"]) == events[-1]["stacks"], hand_id
            reason = outside_pokerkit_model(events)
            if reason is not None:
                skipped[reason] += 1
                continue
            (history,) = parse(text)
            by_name = {name: player for player, name in names.items()}
            assert {by_name[name]: chips for name, chips in replayed_stacks(history).items()} == events[-1]["stacks"]
            compared += 1
    assert compared >= 50, (compared, skipped)


async def test_a_file_of_hands_parses_hand_by_hand(service: Service) -> None:
    rng = random.Random(3)
    table_id = await play_table(service, rng, 0, 6)
    records = await service.store.read(lambda tx: tx.hand_records(table_id, tx.finished_hands(table_id, 100)))
    names = {player: player.upper() for _, _, events in records for player in events[0]["players"]}
    text = export_hands([RecordedHand(events, at, table_id) for _, at, events in records], names, reveal_all=True)
    kept = [events for _, _, events in records if outside_pokerkit_model(events) is None]
    assert len(parse(text)) == len(records) and kept


# --- what a player sees -------------------------------------------------------------------------------------------

PLACE = Place(CHAT, f"{CHAT}/table")
ANN, BOB, CAT = Actor("ann", "Ann"), Actor("bob", "Bob"), Actor("cat", "Cat")
PLAYERS = {actor.user_id: actor for actor in (ANN, BOB, CAT)}


async def play_hands(service: Service, count: int, preference: tuple[str, ...]) -> None:
    for _ in range(count):
        reply = await service.handle(PLACE, ANN, "/deal")
        assert reply.error is None, reply.error
        await play_out(service, PLACE, PLAYERS, reply, preference)


@pytest.fixture
async def seated(service: Service) -> Service:
    for actor in (ANN, BOB, CAT):
        assert (await service.handle(PLACE, actor, "/join 400")).error is None
    return service


async def test_history_shows_only_my_cards_and_the_shown_hands(seated: Service) -> None:
    await play_hands(seated, 2, ("fold", "check", "call"))  # someone folds: his cards are never shown
    await play_hands(seated, 2, ("check", "call"))  # to the showdown
    records = await seated.store.read(lambda tx: tx.hand_records(PLACE.table_id, tx.finished_hands(PLACE.table_id, 3)))
    reply = await seated.handle(PLACE, BOB, "/history")
    assert reply.public == [] and list(reply.private) == ["bob"] and len(reply.private["bob"]) == 3
    for text, (_, _, events) in zip(reply.private["bob"], records, strict=True):
        shown = {player for event in events if event["kind"] == "HandsShown" for player in event["cards"]}
        for event in events:
            if event["kind"] == "HoleCardsDealt":
                cards = f"[{' '.join(event['cards'])}]"
                assert (cards in text) == (event["player"] == "bob" or event["player"] in shown), (event, text)
        mine = next(e["cards"] for e in events if e["kind"] == "HoleCardsDealt" and e["player"] == "bob")
        assert f"Dealt to Bob [{' '.join(mine)}]" in text.splitlines()
    assert len(parse("\n\n\n".join(reply.private["bob"]))) == 3
    assert len((await seated.handle(PLACE, BOB, "/history 10")).private["bob"]) == 4


async def test_history_refusals(service: Service) -> None:
    before = dump(service.store.location)
    for line, reason in (
            ("/history", "No hand has been played to the end at this table yet."),
            ("/history lots", "Usage: /history [number of hands | tournament [number]]"),
            ("/history tournament", "This table has had no tournament.")):
        refused = await service.handle(PLACE, ANN, line)
        assert refused.error == reason, line
        assert refused.public == [] and refused.private == {} and refused.files == [], line
    assert dump(service.store.location) == before


async def test_tournament_history_is_a_private_file(service: Service) -> None:
    for actor in (ANN, BOB):
        actor_admin = Actor(actor.user_id, actor.name, is_admin=True)
        PLAYERS[actor.user_id] = actor_admin
    try:
        assert (await service.handle(PLACE, PLAYERS["ann"], "/tournament create")).error is None
        for actor in (PLAYERS["ann"], PLAYERS["bob"]):
            assert (await service.handle(PLACE, actor, "/join")).error is None
        started = await service.handle(PLACE, PLAYERS["ann"], "/tournament start")
        assert started.error is None, started.error
        state = await snapshot(service, PLACE.table_id)
        if not state.get("hand"):
            reply = await service.handle(PLACE, PLAYERS["ann"], "/deal")
            assert reply.error is None, reply.error
        else:
            reply = await service.handle(PLACE, PLAYERS["ann"], "/table")
        await play_out(service, PLACE, PLAYERS, reply, ("check", "call"))
        reply = await service.handle(PLACE, PLAYERS["bob"], "/history tournament")
        assert reply.error is None, reply.error
        (file,) = reply.files
        assert file.to == "bob" and file.name.endswith(".txt")
        hands = parse(file.content.decode())
        dealt = [line for line in file.content.decode().splitlines() if line.startswith("Dealt to ")]
        assert len(hands) >= 1 and dealt and all(regex(r"Dealt to Bob \[\w\w \w\w\]").fullmatch(line) for line in dealt)
        assert "Dealt to Ann [" not in file.content.decode()
        # PokerStars' tournament header: the tournament's number, its buy-in (50 units, no rake), the level, the
        # limits; its table named after the tournament
        number = int(file.name.removeprefix("tournament-").removesuffix(".txt"))
        header, table = file.content.decode().splitlines()[:2]
        assert regex(rf"PokerStars Hand #1: Tournament #{number}, 50\+0 Hold'em Limit - Level I \(10/20\) - "
                     r"\d{4}/\d\d/\d\d \d\d:\d\d:\d\d ET").fullmatch(header), header
        assert table.startswith(f"Table '{number} 1' ")
        recent = await service.handle(PLACE, PLAYERS["bob"], "/history 1")
        assert recent.private["bob"][0].splitlines()[0] == header, "/history n knows a tournament's hand too"
    finally:
        PLAYERS.update({"ann": ANN, "bob": BOB})


async def test_a_tournament_hand_is_headed_by_the_level_it_was_dealt_at(service: Service, clock: FakeClock) -> None:
    """The level in a tournament hand's header is the one on when it was dealt, recorded then (`HandStarted`), not
    guessed from its limit afterwards: a schedule may play the same limits at two levels."""
    players = {user: Actor(user, name, is_admin=True) for user, name in (("ann", "Ann"), ("bob", "Bob"))}
    ann, bob = players["ann"], players["bob"]
    assert (await service.handle(PLACE, ann, "/tournament create 10/20 20m; 10/20 20m; 20/40")).error is None
    for actor in (ann, bob):
        assert (await service.handle(PLACE, actor, "/join")).error is None
    assert (await service.handle(PLACE, ann, "/tournament start")).error is None
    for _ in range(2):  # a hand at level I, then one at level II (the same limits)
        state = await snapshot(service, PLACE.table_id)
        reply = await service.handle(PLACE, ann, "/table" if state.get("hand") else "/deal")
        assert reply.error is None, reply.error
        await play_out(service, PLACE, players, reply, ("fold",))
        clock.advance(25 * 60)
    reply = await service.handle(PLACE, bob, "/history tournament")
    headers = [line for line in reply.files[0].content.decode().splitlines() if line.startswith("PokerStars Hand")]
    assert [header.split(" - ")[1] for header in headers] == ["Level I (10/20)", "Level II (10/20)"]


async def test_an_earlier_tournaments_history_is_asked_for_by_its_number(service: Service) -> None:
    """`/history tournament N` reaches a tournament after the next one is created (plain `/history tournament` is
    the latest); a number not played at this table, or not a number, is refused and sends nothing."""
    players = {user: Actor(user, name, is_admin=True) for user, name in (("ann", "Ann"), ("bob", "Bob"))}
    ann, bob = players["ann"], players["bob"]
    assert (await service.handle(PLACE, ann, "/tournament create")).error is None
    for actor in (ann, bob):
        assert (await service.handle(PLACE, actor, "/join")).error is None
    started = await service.handle(PLACE, ann, "/tournament start")
    state = await snapshot(service, PLACE.table_id)
    reply = started if state.get("hand") else await service.handle(PLACE, ann, "/deal")
    await play_out(service, PLACE, players, reply, ("fold",))
    first = (await service.handle(PLACE, bob, "/history tournament")).files[0]
    number = int(first.name.removeprefix("tournament-").removesuffix(".txt"))
    assert (await service.handle(PLACE, ann, "/tournament close")).error is None
    assert (await service.handle(PLACE, ann, "/tournament create")).error is None
    assert (await service.handle(PLACE, bob, "/history tournament")).error == (
        f"Tournament #{number + 1} has no finished hand yet.")
    again = await service.handle(PLACE, bob, f"/history tournament #{number}")
    assert again.error is None and again.files[0].content == first.content
    for wrong, said in ((f"{number + 5}", f"Tournament #{number + 5} was not played at this table."),
                        ("one", "Usage: /history [number of hands | tournament [number]]")):
        refused = await service.handle(PLACE, bob, f"/history tournament {wrong}")
        assert refused.error == said and refused.files == [], wrong


# --- statistics -----------------------------------------------------------------------------------------------


async def test_statistics_match_the_hand_history(seated: Service) -> None:
    await play_hands(seated, 3, ("check", "call"))
    await play_hands(seated, 3, ("bet", "raise", "fold", "call"))

    def events_of(tx: Any) -> list[dict[str, Any]]:
        records = tx.hand_records(PLACE.table_id, tx.finished_hands(PLACE.table_id, 100))
        return [event for _, _, events in records for event in events]

    events = await seated.store.read(events_of)
    for actor in (ANN, BOB, CAT):
        player = actor.user_id
        ended = [event for event in events if event["kind"] == "HandEnded" and player in event["net"]]
        collected: dict[int, int] = {}
        hand = 0
        for event in events:
            if event["kind"] == "HandStarted":
                hand += 1
            if event["kind"] == "PotAwarded" and player in event["winners"]:
                collected[hand] = collected.get(hand, 0) + event["winners"][player]
        net = sum(event["net"][player] for event in ended)
        reply = await seated.handle(PLACE, ANN, f"/stats {actor.name}")
        sign = f"+{net}" if net > 0 else (f"−{-net}" if net < 0 else "0")
        expected = (f"{actor.name}: hands played {len(ended)}, won {len(collected)} · cash games: net {sign}, "
                    f"biggest pot {max(collected.values(), default=0)}")
        assert reply.public[0].splitlines()[0] == expected
    top = (await seated.handle(PLACE, BOB, "/top")).public
    nets = {actor.name: sum(event["net"].get(actor.user_id, 0) for event in events if event["kind"] == "HandEnded")
            for actor in (ANN, BOB, CAT)}  # the cash table's results: the leaderboard ranks by them
    ranked = sorted(nets.items(), key=lambda item: (-item[1], item[0]))
    assert top == ["Leaderboard, cash tables (chips won or lost, grants not counted):\n" + "\n".join(
        f"{place}. {name} — {signed(net)}" for place, (name, net) in enumerate(ranked, start=1))]
    assert sum(nets.values()) == 0 and any(nets.values()), "chips changed hands"


async def test_stats_unknown_player_is_refused(service: Service) -> None:
    assert (await service.handle(PLACE, ANN, "/balance")).error is None
    before = dump(service.store.location)
    reply = await service.handle(PLACE, ANN, "/stats @nobody")
    assert reply.error == "I don't know a player called “@nobody” here."  # the name as typed
    assert reply.public == [] and reply.private == {}
    assert dump(service.store.location) == before


def test_a_tournament_hand_has_the_tournament_header() -> None:
    """PokerStars' tournament header: the buy-in with its bounty apart and no rake, the level counted without the
    breaks (home night: 10/20, 20/40, a break, 40/80: level III is 40/80), in Roman numerals."""
    schedule = parse_schedule("10/20 20m; 20/40 20m; break 10m; 40/80 20m; 80/160", "UTC")
    tournament = Tournament(TournamentConfig(buy_in=Fraction(50), bounty=Fraction(10)), schedule)
    events = [{"kind": "HandStarted", "hand_number": 31, "players": ["a", "b"], "button": "a",
               "stacks": {"a": 900, "b": 900}, "level": 40, "structure": "no-limit"},
              {"kind": "BlindPosted", "player": "a", "blind": "small", "amount": 20, "is_all_in": False},
              {"kind": "BlindPosted", "player": "b", "blind": "big", "amount": 40, "is_all_in": False},
              {"kind": "PlayerFolded", "player": "a"},
              {"kind": "UncalledBetReturned", "player": "b", "amount": 20},
              {"kind": "PotAwarded", "pot_index": 0, "amount": 40, "eligible": ["b"], "winners": {"b": 40},
               "category": None},
              {"kind": "HandEnded", "net": {"a": -20, "b": 20}, "stacks": {"a": 880, "b": 920}}]
    header = tournament_hand(7, tournament, events)
    assert header == TournamentHand(7, "40+10", 3)
    text = export_hand(RecordedHand(events, 0.0, "chat/table", header), {"a": "Ann", "b": "Bob"})
    assert text.splitlines()[:2] == [
        "PokerStars Hand #31: Tournament #7, 40+10+0 Hold'em No Limit - Level III (20/40) - 1969/12/31 19:00:00 ET",
        "Table '7 1' 10-max Seat #1 is the button"]
    assert tournament_hand(7, tournament, [{**events[0], "level": 60}, *events[1:]]).level == 4, (
        "a limit the schedule no longer has (60, between 40/80 and 80/160): the level after the three below it")
    assert tournament_hand(7, Tournament(TournamentConfig(), schedule), events).buy_in == "50"
    levels = [export_hand(RecordedHand(events, 0.0, "t", TournamentHand(7, "50", number)), {}).split(" - ")[1]
              for number in (1, 4, 9, 14, 40, 1994)]
    assert levels == ["Level I (20/40)", "Level IV (20/40)", "Level IX (20/40)", "Level XIV (20/40)",
                      "Level XL (20/40)", "Level MCMXCIV (20/40)"]


def test_exporter_golden_lines() -> None:
    events = [
        {"kind": "HandStarted", "hand_number": 5, "players": ["a", "b"], "button": "a", "stacks": {"a": 100, "b": 100},
         "level": 20, "structure": "no-limit"},
        {"kind": "BlindPosted", "player": "a", "blind": "small", "amount": 10, "is_all_in": False},
        {"kind": "BlindPosted", "player": "b", "blind": "big", "amount": 20, "is_all_in": False},
        {"kind": "HoleCardsDealt", "player": "b", "cards": ["Ah", "Kd"], "visible_to": "b"},
        {"kind": "HoleCardsDealt", "player": "a", "cards": ["2c", "7d"], "visible_to": "a"},
        {"kind": "PlayerRaised", "player": "a", "to": 60, "amount": 50, "is_all_in": False},
        {"kind": "PlayerRaised", "player": "b", "to": 100, "amount": 80, "is_all_in": True},
        {"kind": "PlayerFolded", "player": "a"},
        {"kind": "UncalledBetReturned", "player": "b", "amount": 40},
        {"kind": "PotAwarded", "pot_index": 0, "amount": 120, "eligible": ["b"], "winners": {"b": 120},
         "category": None},
        {"kind": "HandEnded", "net": {"a": -60, "b": 60}, "stacks": {"a": 40, "b": 160}},
    ]
    text = export_hand(RecordedHand(events, 1_700_000_000.0, "home"), {"a": "Ann", "b": "Bob"}, hero="b")
    assert text.splitlines() == [
        "PokerStars Hand #5: Hold'em No Limit (10/20) - 2023/11/14 17:13:20 ET",
        "Table 'home' 10-max Seat #1 is the button",
        "Seat 1: Ann (100 in chips)",
        "Seat 2: Bob (100 in chips)",
        "Ann: posts small blind 10",
        "Bob: posts big blind 20",
        "*** HOLE CARDS ***",
        "Dealt to Bob [Ah Kd]",
        "Ann: raises 40 to 60",
        "Bob: raises 40 to 100 and is all-in",
        "Ann: folds",
        "Uncalled bet (40) returned to Bob",
        "Bob collected 120 from pot",
        "*** SUMMARY ***",
        "Total pot 120 | Rake 0",
        "Seat 1: Ann (button) (small blind) folded before Flop",
        "Seat 2: Bob (big blind) collected (120)",
    ]
    assert json.dumps(events)  # the events are what the history stores: plain JSON
    for event in events:  # ... in the engine's own shape: each key is a field of that kind of engine event
        fields = {field.name for field in dataclasses.fields(getattr(holdem_types, event["kind"]))}
        assert set(event) - {"kind"} <= fields, event["kind"]
    stored = json.loads(json.dumps(events))  # read back from the history as stored, the export is the same
    assert export_hand(RecordedHand(stored, 1_700_000_000.0, "home"), {"a": "Ann", "b": "Bob"}, hero="b") == text


def engine_export(players: list[engine.SeatPlayer], cards: str, *commands: tuple[str, engine.Action],
                  run_it_twice: bool = False) -> str:
    """A no-limit hand (blinds 10/20, first seat on the button) dealt from `cards`, played by `commands` (each
    runs-asked player answers "twice" once betting is over) and exported with every hand revealed."""
    deck = Deck.stacked(cards, random.Random(1))
    hand, events = engine.Hand.start(players, 0, 20, betting.STRUCTURES["no-limit"], deck, 1,
                                     rules=engine.ShowdownRules(run_it_twice=run_it_twice))
    for player, command in commands:
        events += hand.act(player, command)
    for player in list(hand.runs_asked):
        events += hand.choose_runs(player, True)
    names = {player.id: player.id.capitalize() for player in players}
    return export_hand(RecordedHand([event.to_dict() for event in events], 0.0, "home"), names, reveal_all=True)


def test_a_hand_run_twice_sums_up_board_by_board() -> None:
    # board 1: Cat's flush beats Ann's straight; board 2: Ann's three of a kind beats Cat's pair
    text = engine_export([engine.SeatPlayer("ann", 500), engine.SeatPlayer("cat", 300)],
                         "2c 3c Ah 2d 3d Ad 4h 5h 6h 7h Kc 8h Qd 3s 3h Td Ts 8d Jc Js",
                         ("ann", engine.AllIn()), ("cat", engine.Call()), run_it_twice=True)
    assert text.split("*** SECOND RIVER *** [3s 3h Td 8d] [Js]\n")[1].split("*** SUMMARY ***")[0] == (
        "*** FIRST SHOW DOWN ***\nCat: shows [2c Ah] (a flush, Ace high)\n"
        "Ann: shows [3c 2d] (a straight, Ace to Five)\nCat collected 300 from pot\n*** SECOND SHOW DOWN ***\n"
        "Cat: shows [2c Ah] (a pair of Threes)\n"
        "Ann: shows [3c 2d] (three of a kind, Threes)\nAnn collected 300 from pot\n")
    assert text.split("*** SUMMARY ***\n")[1].splitlines()[-2:] == [
        "Seat 1: Ann (button) (small blind) showed [3c 2d] and lost with a straight, Ace to Five, and won (300) with "
        "three of a kind, Threes",
        "Seat 2: Cat (big blind) showed [2c Ah] and won (300) with a flush, Ace high, and lost with a pair of Threes",
    ]


def test_a_winner_who_gets_no_chip_of_a_split_collects_nothing() -> None:
    # all in for 40, 41, 41, run twice: the side pot of 2 is a chip a board, each tied between Bob and Cat, and the
    # odd chip goes to Bob (first left of the button) both times; Cat's 0 is no collect line
    text = engine_export([engine.SeatPlayer("ann", 40), engine.SeatPlayer("bob", 41), engine.SeatPlayer("cat", 41)],
                         "2c 2d 4h 3d 3c 4s 5c Ts Js Qh 6c Kd 7c Ah 8c 9h 9d 6d 5d 7d 8d Kc",
                         ("ann", engine.AllIn()), ("bob", engine.AllIn()), ("cat", engine.Call()), run_it_twice=True)
    collected = [line for line in text.splitlines() if " collected " in line]
    assert collected == ["Bob collected 20 from main pot", "Cat collected 20 from main pot",
                         "Ann collected 20 from main pot", "Bob collected 1 from side pot",
                         "Ann collected 60 from main pot", "Bob collected 1 from side pot"]
    assert text.split("*** SUMMARY ***\n")[1].splitlines()[-1] == (
        "Seat 3: Cat (big blind) showed [2d 3c] and won (20) with a straight, Ten to Ace, and lost with a pair of "
        "Nines")


def test_shown_hands_are_named_as_pokerstars_names_them() -> None:
    named = [hand_name(category, ranks) for category, ranks in [
        ("high card", (14, 12, 9, 7, 3)), ("pair", (2, 14, 9, 7)), ("two pair", (13, 7, 14)),
        ("three of a kind", (10, 14, 9)), ("straight", (5,)), ("straight", (14,)), ("flush", (11, 9, 7, 5, 2)),
        ("full house", (13, 10)), ("four of a kind", (14, 2)), ("straight flush", (13,)), ("straight flush", (14,)),
        ("pair", ()), ("pair", None)]]
    assert named == ["high card Ace", "a pair of Deuces", "two pair, Kings and Sevens", "three of a kind, Tens",
                     "a straight, Ace to Five", "a straight, Ten to Ace", "a flush, Jack high",
                     "a full house, Kings full of Tens", "four of a kind, Aces", "a straight flush, Nine to King",
                     "a Royal Flush", "pair", "pair"]  # a record without the ranks keeps the category's name


def test_a_raise_over_a_short_big_blind_is_measured_from_the_full_blind() -> None:
    # Cat posts 5 of the 20 big blind, all in: the others still call and raise from 20 (RULES.md §1)
    text = engine_export([engine.SeatPlayer("ann", 500), engine.SeatPlayer("bob", 500), engine.SeatPlayer("cat", 5)],
                         "", ("ann", engine.RaiseTo(60)), ("bob", engine.RaiseTo(100)), ("ann", engine.Call()),
                         ("bob", engine.AllIn()), ("ann", engine.Call()))
    assert text.splitlines()[5:17] == [
        "Bob: posts small blind 10", "Cat: posts big blind 5 and is all-in", "*** HOLE CARDS ***",
        "Dealt to Bob [Ad 7h]", "Dealt to Cat [4d 2h]", "Dealt to Ann [Jd Jh]",
        "Ann: raises 40 to 60", "Bob: raises 40 to 100", "Ann: calls 40", "*** FLOP *** [4s Ts 3d]",
        "Bob: bets 400 and is all-in", "Ann: calls 400 and is all-in"]

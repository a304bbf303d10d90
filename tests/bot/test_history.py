"""Hand histories and statistics: random hands played through the service, exported in PokerStars format, read back
by an independent parser (pokerkit's PokerStars parser) and replayed to the same final stacks as the ledger says; what
`/history` sends a player, for hands dealt from stacked decks, as whole texts. The export's format line by line:
tests/bot/test_pokerstars_export.py."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.clock import FakeClock
from bot.output import Actor, Place
from bot.render import signed
from bot.render.pokerstars import RecordedHand, export_hand, export_hands
from bot.service import Service
from engine import betting
from engine import holdem as engine
from tests.bot.conftest import dump
from tests.bot.helpers import play, play_out, refused_without_change
from tests.bot.pokerstars_helpers import parse, replayed_stacks
from tests.bot.test_pokerstars_export import OMAHA, OMAHA_DECK

CHAT = "chat"
STRUCTURES = ("no-limit", "fixed-limit", "home-limit")


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


FOLDED_DECK = "Ac Kd Qh As Kh Qd"
"""Hand #1 (button Ann; dealt from Bob): Bob A♣ A♠, Cat K♦ K♥, Ann Q♥ Q♦."""
FOLDED = """\
PokerStars Hand #1: Hold'em Limit (20/40) - 2027/01/15 03:00:00 ET
Table 'chat/table' 10-max Seat #1 is the button
Seat 1: Ann (400 in chips)
Seat 2: Bob (400 in chips)
Seat 3: Cat (400 in chips)
Bob: posts small blind 10
Cat: posts big blind 20
*** HOLE CARDS ***
Dealt to Bob [Ac As]
Ann: folds
Bob: folds
Uncalled bet (10) returned to Cat
Cat collected 20 from pot
Cat: doesn't show hand
*** SUMMARY ***
Total pot 20 | Rake 0
Seat 1: Ann (button) folded before Flop (didn't bet)
Seat 2: Bob (small blind) folded before Flop
Seat 3: Cat (big blind) collected (20)"""
"""Bob's history of hand #1, won by Cat's big blind when Ann and Bob fold: only Bob's cards."""
SHOWDOWN_DECK = "2d 3s 4h 5d 6s 7c 8c 9d Td Jd Qs Ks Ah 5h"
"""Hand #2 (button Bob; dealt from Cat): Cat 2♦ 5♦, Ann 3♠ 6♠, Bob 4♥ 7♣; burns 8♣, Q♠, A♥; board 9♦ T♦ J♦ K♠ 5♥."""
SHOWDOWN = """\
PokerStars Hand #2: Hold'em Limit (20/40) - 2027/01/15 03:00:00 ET
Table 'chat/table' 10-max Seat #2 is the button
Seat 1: Ann (400 in chips)
Seat 2: Bob (390 in chips)
Seat 3: Cat (410 in chips)
Cat: posts small blind 10
Ann: posts big blind 20
*** HOLE CARDS ***
Dealt to Bob [4h 7c]
Bob: raises 20 to 40
Cat: calls 30
Ann: calls 20
*** FLOP *** [9d Td Jd]
Cat: bets 20
Ann: folds
Bob: calls 20
*** TURN *** [9d Td Jd] [Ks]
Cat: checks
Bob: checks
*** RIVER *** [9d Td Jd Ks] [5h]
Cat: bets 40
Bob: calls 40
*** SHOW DOWN ***
Cat: shows [2d 5d] (a flush, Jack high)
Bob: mucks hand
Cat collected 240 from pot
*** SUMMARY ***
Total pot 240 | Rake 0
Board [9d Td Jd Ks 5h]
Seat 1: Ann (big blind) folded on the Flop
Seat 2: Bob (button) mucked [4h 7c]
Seat 3: Cat (small blind) showed [2d 5d] and won (240) with a flush, Jack high"""
"""Bob's history of hand #2: Ann folds on the flop, Cat shows her flush, Bob's beaten hand is mucked (his own cards
are his to see); Ann's are nowhere."""


async def test_history_shows_only_my_cards_and_the_shown_hands(seated: Service, decks: list[str]) -> None:
    """`/history` sends the player, privately, the last three finished hands as PokerStars writes them (`/history 10`
    up to ten): his own cards and the hands shown, never a folded or mucked hand of another player. Two hands dealt
    from stacked decks, then two shuffled ones."""
    decks.extend([FOLDED_DECK, SHOWDOWN_DECK])
    await play_hands(seated, 1, ("fold",))
    assert (await seated.handle(PLACE, ANN, "/deal")).error is None
    await play(seated, (BOB, "/raise"), (CAT, "/call"), (ANN, "/call"),  # preflop
               (CAT, "/bet"), (ANN, "/fold"), (BOB, "/call"),  # flop
               (CAT, "/check"), (BOB, "/check"),  # turn
               (CAT, "/bet"), (BOB, "/call"))  # river
    await play_hands(seated, 2, ("check", "call"))
    reply = await seated.handle(PLACE, BOB, "/history 10")
    assert reply.public == [] and list(reply.private) == ["bob"] and len(reply.private["bob"]) == 4
    assert reply.private["bob"][:2] == [FOLDED, SHOWDOWN]
    assert len(parse("\n\n\n".join(reply.private["bob"]))) == 4
    latest = await seated.handle(PLACE, BOB, "/history")
    assert latest.public == [] and latest.private == {"bob": reply.private["bob"][1:]}


HISTORY_USAGE = {"en": "Usage: /history [number of hands | tournament [number]]",
                 "ru": "Как писать: /history [число раздач | tournament [номер]]"}
HISTORY_REFUSALS = {
    "en": ["No hand has been played to the end at this table yet.", "This table has had no tournament.",
           "Tournament #7 was not played at this table."],
    "ru": ["За этим столом ещё не доиграна ни одна раздача.", "За этим столом турниров не было.",
           "За этим столом турнир №7 не играли."],
}


@pytest.mark.parametrize("language", ["en", "ru"])
async def test_history_refusals(service: Service, language: str) -> None:
    """A malformed, negative, zero or too long count of hands, or a tournament's number that is not one, gets the
    usage; a table with no hand or no tournament, or a tournament number it never played, says so: in the player's
    language, sending nothing and changing nothing."""
    assert (await service.handle(PLACE, ANN, f"/lang {language}")).error is None
    before = dump(service.store.location)
    no_hands, no_tournament, not_here = HISTORY_REFUSALS[language]
    usage = HISTORY_USAGE[language]
    for line, reason in (
            ("/history", no_hands), ("/history 5", no_hands),
            ("/history lots", usage), ("/history -3", usage), ("/history 0", usage), ("/history #5", usage),
            ("/history 2.5", usage), ("/history 99999999999", usage),
            ("/history tournament", no_tournament), ("/history tournament -1", usage),
            ("/history tournament x", usage), ("/history tournament 7", not_here)):
        refused = await service.handle(PLACE, ANN, line)
        assert refused.error == reason, line
        assert refused.public == [] and refused.private == {} and refused.files == [], line
    assert dump(service.store.location) == before


async def test_a_house_table_with_no_finished_round_says_round(service: Service) -> None:
    """A house table plays rounds, not hands (DESIGN.md's names): with none finished (one only bet on here),
    `/history` says no round has been played, where it said "No hand"."""
    await play(service, (ANN, "/game caribbean"), (ANN, "/ante 10"))
    await refused_without_change(service, ANN, "/history", {
        "en": "No round has been played to the end at this table yet.",
        "ru": "За этим столом ещё не доигран ни один раунд."})


TOURNAMENT_DECK = "Kc 9s Ah 9h 2c 7d 8s Jc 3d 4c 5h 6h"
"""The tournament's hand #1 (heads-up, button Ann; dealt from Bob): Bob K♣ A♥, Ann 9♠ 9♥; burns 2♣, 3♦, 5♥; board
7♦ 8♠ J♣ 4♣ 6♥."""
TOURNAMENT_FILE = """\
PokerStars Hand #1: Tournament #1, 50+0 Hold'em Limit - Level I (10/20) - 2027/01/15 03:00:00 ET
Table '1 1' 10-max Seat #1 is the button
Seat 1: Ann (300 in chips)
Seat 2: Bob (300 in chips)
Ann: posts small blind 5
Bob: posts big blind 10
*** HOLE CARDS ***
Dealt to Bob [Kc Ah]
Ann: calls 5
Bob: checks
*** FLOP *** [7d 8s Jc]
Bob: checks
Ann: checks
*** TURN *** [7d 8s Jc] [4c]
Bob: checks
Ann: checks
*** RIVER *** [7d 8s Jc 4c] [6h]
Bob: checks
Ann: checks
*** SHOW DOWN ***
Bob: shows [Kc Ah] (high card Ace)
Ann: shows [9s 9h] (a pair of Nines)
Ann collected 20 from pot
*** SUMMARY ***
Total pot 20 | Rake 0
Board [7d 8s Jc 4c 6h]
Seat 1: Ann (button) (small blind) showed [9s 9h] and won (20) with a pair of Nines
Seat 2: Bob (big blind) showed [Kc Ah] and lost with high card Ace
"""
"""Bob's file of tournament #1: PokerStars' tournament header (its number, the buy-in of 50 with no rake, the level,
the limits) and its table named after it; his cards, and Ann's only as shown at the showdown."""


async def test_tournament_history_is_a_private_file(service: Service, decks: list[str]) -> None:
    """`/history tournament` sends the player a file of the tournament's hands, to him alone; `/history n` knows a
    tournament's hand too."""
    players = {user: Actor(user, name, is_admin=True) for user, name in (("ann", "Ann"), ("bob", "Bob"))}
    ann, bob = players["ann"], players["bob"]
    decks.append(TOURNAMENT_DECK)
    assert (await service.handle(PLACE, ann, "/tournament create")).error is None
    for actor in (ann, bob):
        assert (await service.handle(PLACE, actor, "/join")).error is None
    started = await service.handle(PLACE, ann, "/tournament start")
    assert started.error is None, started.error
    state = await snapshot(service, PLACE.table_id)
    reply = await service.handle(PLACE, ann, "/table" if state.get("hand") else "/deal")
    assert reply.error is None, reply.error
    await play_out(service, PLACE, players, reply, ("check", "call"))
    reply = await service.handle(PLACE, bob, "/history tournament")
    assert reply.error is None, reply.error
    (file,) = reply.files
    assert (file.to, file.name) == ("bob", "tournament-1.txt")
    assert file.content.decode() == TOURNAMENT_FILE
    assert len(parse(TOURNAMENT_FILE)) == 1
    recent = await service.handle(PLACE, bob, "/history 1")
    assert recent.private == {"bob": [TOURNAMENT_FILE.rstrip("\n")]}, "/history n knows a tournament's hand too"


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


SPLIT_DECK = "Ah 2c 2d Ad 3d 3c 5s Kh 8s 4c 6s 9h 7s Jd"
"""Hand #1 of a no-limit table (button Ann; dealt from Bob): Bob A♥ A♦, Cat 2♣ 3♦, Ann 2♦ 3♣; burns 5♠, 6♠, 7♠;
board K♥ 8♠ 4♣ 9♥ J♦, which plays for Ann and Cat alike."""
SPLIT = """\
PokerStars Hand #1: Hold'em No Limit (10/20) - 2027/01/15 03:00:00 ET
Table 'chat/table' 10-max Seat #1 is the button
Seat 1: Ann (400 in chips)
Seat 2: Bob (200 in chips)
Seat 3: Cat (400 in chips)
Bob: posts small blind 10
Cat: posts big blind 20
*** HOLE CARDS ***
Dealt to Cat [2c 3d]
Ann: raises 380 to 400 and is all-in
Bob: calls 190 and is all-in
Cat: calls 380 and is all-in
*** FLOP *** [Kh 8s 4c]
*** TURN *** [Kh 8s 4c] [9h]
*** RIVER *** [Kh 8s 4c 9h] [Jd]
*** SHOW DOWN ***
Cat: shows [2c 3d] (high card King)
Ann: shows [2d 3c] (high card King)
Cat collected 200 from side pot
Ann collected 200 from side pot
Bob: shows [Ah Ad] (a pair of Aces)
Bob collected 600 from main pot
*** SUMMARY ***
Total pot 1000 Main pot 600. Side pot 400. | Rake 0
Board [Kh 8s 4c 9h Jd]
Seat 1: Ann (button) showed [2d 3c] and won (200) with high card King
Seat 2: Bob (small blind) showed [Ah Ad] and won (600) with a pair of Aces
Seat 3: Cat (big blind) showed [2c 3d] and won (200) with high card King"""
"""Cat's history of the hand: every hand is shown (all in, betting over), pot by pot as PokerStars shows them down:
the hands contesting the split side pot, its winners' collected lines (Cat first, the first of them left of the
button), then Bob's hand, the one more in the main pot, and his collected line; then summed up seat by seat."""


async def test_side_pot_and_split_pot_history(service: Service, decks: list[str]) -> None:
    """All in three ways for 400, 200 and 400 at a no-limit table: Bob's aces take the main pot of 600, and Ann and
    Cat, whose hands are the board, split the side pot of 400, 200 each, as PokerStars writes a main pot, a side pot
    and a split (each winner's "collected" line)."""
    assert (await service.handle(PLACE, ANN, "/set structure no-limit")).error is None
    assert (await service.handle(PLACE, ANN, "/set run_it_twice off")).error is None
    for actor, chips in ((ANN, 400), (BOB, 200), (CAT, 400)):
        assert (await service.handle(PLACE, actor, f"/join {chips}")).error is None
    decks.append(SPLIT_DECK)
    assert (await service.handle(PLACE, ANN, "/deal")).error is None
    await play(service, (ANN, "/allin"), (BOB, "/call"), (CAT, "/call"))
    reply = await service.handle(PLACE, CAT, "/history 1")
    assert reply.public == [] and reply.private == {"cat": [SPLIT]}
    (parsed,) = parse(SPLIT)
    assert replayed_stacks(parsed) == {"Ann": 200, "Bob": 600, "Cat": 200}, "pokerkit reads it to the same stacks"


async def play_the_omaha_example(service: Service, decks: list[str]) -> None:
    """Play the exporter's Omaha example (`OMAHA`) at an Omaha table: its deck, its stacks of 500, its plays."""
    assert (await service.handle(PLACE, ANN, "/game omaha")).error is None
    for actor in (ANN, BOB, CAT):
        assert (await service.handle(PLACE, actor, "/join 500")).error is None
    decks.append(OMAHA_DECK)
    assert (await service.handle(PLACE, ANN, "/deal")).error is None
    await play(service, (ANN, "/raise 70"), (BOB, "/call"), (CAT, "/fold"),  # preflop
               (BOB, "/check"), (ANN, "/bet 100"), (BOB, "/call"),  # flop
               (BOB, "/check"), (ANN, "/check"),  # turn
               (BOB, "/bet 60"), (ANN, "/call"))  # river


async def test_an_omaha_hands_history_is_the_exporters_with_only_my_cards(service: Service, decks: list[str]) -> None:
    """A pot-limit Omaha hand played at an Omaha table from the deck of the exporter's Omaha example, with its plays:
    Bob's `/history` is that example's text at this table and time, with his four cards alone."""
    await play_the_omaha_example(service, decks)
    reply = await service.handle(PLACE, BOB, "/history")
    mine = OMAHA.replace("Table 'home'", "Table 'chat/table'").replace("1969/12/31 19:00:00", "2027/01/15 03:00:00")
    mine = mine.replace("Dealt to Cat [Kd Kh 7d 7h]\nDealt to Ann [2c 3c 4c 5c]\n", "")
    assert reply.public == [] and reply.private == {"bob": [mine]}


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
        hands = f"{len(ended)} hand played" if len(ended) == 1 else f"{len(ended)} hands played"
        expected = (f"{actor.name}: {hands}, {len(collected)} won · cash games: net {sign}, "
                    f"biggest pot {max(collected.values(), default=0)}")
        assert reply.public[0].splitlines()[0] == expected
    top = (await seated.handle(PLACE, BOB, "/top")).public
    nets = {actor.name: sum(event["net"].get(actor.user_id, 0) for event in events if event["kind"] == "HandEnded")
            for actor in (ANN, BOB, CAT)}  # the cash table's results: the leaderboard ranks by them
    ranked = sorted(nets.items(), key=lambda item: (-item[1], item[0]))
    assert top == ["Leaderboard, cash tables (chips won or lost, grants not counted):\n" + "\n".join(
        f"{place}. {name} — {signed(net)}" for place, (name, net) in enumerate(ranked, start=1))]
    assert sum(nets.values()) == 0 and any(nets.values()), "chips changed hands"


@pytest.mark.parametrize(("language", "refusal"), [("en", "I don't know a player called “@\u2060nobody” here."),
                                                   ("ru", "Игрока «@\u2060nobody» здесь нет.")])
async def test_stats_unknown_player_is_refused(service: Service, language: str, refusal: str) -> None:
    await refused_without_change(service, ANN, "/stats @nobody", {language: refusal})  # the name as typed


OMAHA_STATS = {
    # raised preflop; bet the flop, checked the turn, called the river: 1 over 1; won 480 at the showdown, 230 in
    "Ann": "Ann: 1 hand played, 1 won · cash games: net +250, biggest pot 480\n"
           "VPIP 100% · PFR 100% · aggression factor 1.0 · went to showdown 100% · won at showdown 100%",
    # called the raise from the small blind (his own will's money); called the flop, bet the river; lost: 230 in
    "Bob": "Bob: 1 hand played, 0 won · cash games: net −230, biggest pot 0\n"
           "VPIP 100% · PFR 0% · aggression factor 1.0 · went to showdown 100% · won at showdown 0%",
    # folded the big blind to the raise: no flop seen, so no showdown to count
    "Cat": "Cat: 1 hand played, 0 won · cash games: net −20, biggest pot 0\n"
           "VPIP 0% · PFR 0% · aggression factor — · went to showdown — · won at showdown —",
}
"""`/stats` after the Omaha example alone, worked out by hand from its plays (RULES.md §1d counts a player's hands,
Omaha's as Hold'em's)."""


async def test_an_omaha_hand_counts_in_the_statistics_as_a_holdem_hand_does(service: Service,
                                                                            decks: list[str]) -> None:
    await play_the_omaha_example(service, decks)
    for name, said in OMAHA_STATS.items():
        assert (await service.handle(PLACE, CAT, f"/stats {name}")).public == [said], name
    assert (await service.handle(PLACE, CAT, "/top")).public == [
        "Leaderboard, cash tables (chips won or lost, grants not counted):\n1. Ann — +250\n2. Cat — −20\n"
        "3. Bob — −230"]


CARIBBEAN_ROUND = """\
Round 1
Ann bets on box 1: ANTE 10, BONUS 10.
Bob bets on box 1: ANTE 10.
Box 1: {cards}
Dealer shows 9♠.
Ann, box 1: folds.{told}
Bob, box 1: plays (20).
Dealer reveals K♥ 8♣ T♦ 9♦ 9♠: a pair of nines, king kicker — qualifies.
Bob, box 1: wins (+50) — two pair, jacks and sixes, four kicker: J♥ 6♣ J♠ 6♠ 4♠; ANTE +10 · BET +40 (two pair, \
jacks and sixes, four kicker, ×2).
Ann, box 1: folded (−20); ANTE −10 · BONUS −10.
Round over: Ann −20, Bob +50."""
"""A Caribbean Poker round as `/history` tells it to a player: its story, with his own box's cards where they were
dealt (`cards`) and what else he alone was told (`told`), and nobody else's cards that were not shown."""

CARIBBEAN_ROUND_RU = """\
Раунд 1
Ann ставит на бокс 1: АНТЕ 10, БОНУС 10.
Bob ставит на бокс 1: АНТЕ 10.
Бокс 1: 4♦ 7♠ 8♦ 2♠ 7♦
Дилер показывает 9♠."""


async def test_history_at_a_house_table_tells_its_last_rounds(service: Service) -> None:
    """`/history` at a house table sends each player, privately, the last rounds played there to the end, each
    with its story and his own cards (a folded box's cards stay his); where it said no hand had been played."""
    await play(service, (ANN, "/game caribbean"), (ANN, "/ante 10 bonus 10"), (BOB, "/ante 10"), (ANN, "/deal"),
               (ANN, "/fold"), (BOB, "/play"))
    before = dump(service.store.location)
    ann = await service.handle(PLACE, ANN, "/history")
    assert ann.error is None and ann.public == []
    assert ann.private == {"ann": [CARIBBEAN_ROUND.format(cards="4♦ 7♠ 8♦ 2♠ 7♦",
                                                               told="\nBox 1, side bet: BONUS −10.")]}
    bob = await service.handle(PLACE, BOB, "/history 5")
    assert bob.private == {"bob": [CARIBBEAN_ROUND.format(cards="J♥ 6♣ J♠ 6♠ 4♠", told="")]}
    assert dump(service.store.location) == before
    assert (await service.handle(PLACE, ANN, "/lang ru")).error is None
    russian = await service.handle(PLACE, ANN, "/history")
    assert russian.private["ann"][0].splitlines()[:5] == CARIBBEAN_ROUND_RU.splitlines()

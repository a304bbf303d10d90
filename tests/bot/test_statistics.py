"""`/stats` figures (RULES.md §1d) against figures worked out by hand from four hands played through the service on
stacked decks, three-handed at home-limit 10/20 (bets of 20 before the turn, 40 after; one raise each per round)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.clock import FakeClock
from bot.output import Place
from bot.service import Service
from bot.statistics import PlayFigures, aggression_factor, hand_figures, percent
from bot.store import Store, Tx, prune
from bot.store.action_log import figures_know_tournament_hands
from bot.store.dialect import SQLITE
from bot.store.figures import COLUMNS, COUNTS, add_hand_figures, figures_by_chat_and_time, figures_table
from bot.store.played import PRUNED_COUNTS
from bot.store.schema import MIGRATIONS
from engine.cards import Deck
from tests.bot.conftest import ANN, BOB, CAT, PLACE
from tests.bot.helpers import (
    figures_unmarked,
    history_table_from_log,
    ledger_ok,
    patches_compiled_code,
    play_out,
    refused_without_change,
    spans_by_their_beginning,
)

ACTORS = {actor.user_id: actor for actor in (ANN, BOB, CAT)}
DAY = 86_400.0

# Each hand: the deck's top (dealt from the small blind round to the button twice, then burn, flop, burn, turn,
# burn, river) and who does what, in turn.
HANDS: list[tuple[str, list[tuple[str, str]]]] = [
    # 1. Button Ann, blinds Bob and Cat. Ann raises, both call (pot 120). Flop: Bob checks, Cat bets, Ann raises, Bob
    # folds, Cat calls (200). Turn: Cat checks, Ann bets, Cat calls (280). River: both check; Ann's aces beat Cat's
    # kings. Ann +160, Bob −40, Cat −120.
    ("7c Ks As 2d Kd Ad 5h 3h 8s 9c 6h Jd 6d 4s",
     [("ann", "raise"), ("bob", "call"), ("cat", "call"),
      ("bob", "check"), ("cat", "bet"), ("ann", "raise"), ("bob", "fold"), ("cat", "call"),
      ("cat", "check"), ("ann", "bet"), ("cat", "call"),
      ("cat", "check"), ("ann", "check")]),
    # 2. Button Bob, blinds Cat and Ann. Bob folds, Cat completes, Ann checks her option (pot 40). Flop: both check.
    # Turn: Cat bets, Ann folds: Cat collects 40 without a showdown. Bob 0, Cat +20, Ann −20.
    ("",
     [("bob", "fold"), ("cat", "call"), ("ann", "check"),
      ("cat", "check"), ("ann", "check"),
      ("cat", "bet"), ("ann", "fold")]),
    # 3. Button Cat, blinds Ann and Bob. Cat raises, Ann re-raises, Bob folds, Cat calls (140). Flop: Ann bets, Cat
    # raises, Ann calls (220). Turn: both check. River: Ann bets, Cat calls (300); Cat's aces beat Ann's queens.
    # Cat +160, Ann −140, Bob −20.
    ("Qh 7d Ac Qc 2c Ah 5s 3s 8d Jc 9h 4d Th 6s",
     [("cat", "raise"), ("ann", "raise"), ("bob", "fold"), ("cat", "call"),
      ("ann", "bet"), ("cat", "raise"), ("ann", "call"),
      ("ann", "check"), ("cat", "check"),
      ("ann", "bet"), ("cat", "call")]),
    # 4. Button Ann, blinds Bob and Cat. Ann calls, Bob completes, Cat checks (60); checked down; Bob's kings win.
    # Bob +40, Ann −20, Cat −20.
    ("Kh 7s 9c Kd 2h 4h 6c 3d 8c Jh 6d 5s 6h Qd",
     [("ann", "call"), ("bob", "call"), ("cat", "check"),
      ("bob", "check"), ("cat", "check"), ("ann", "check"),
      ("bob", "check"), ("cat", "check"), ("ann", "check"),
      ("bob", "check"), ("cat", "check"), ("ann", "check")]),
]


# Each hand's figures per player, from the plays above (blinds 10/20: the small blind's 10 and a completion are not
# his own will's money, a call is; "aggressive" counts bets and raises from the flop on, "calls" calls there; a
# showdown is being still in when the cards are compared).
F = PlayFigures
HAND_FIGURES: dict[tuple[str, str], PlayFigures] = {
    # 1. Ann raised preflop, raised the flop and bet the turn, won 280 at the showdown having put in 40+40+40.
    ("h1", "ann"): F(hands_played=1, hands_won=1, net=160, biggest_pot=280, vpip=1, pfr=1, postflop_aggressive=2,
                     saw_flop=1, showdowns=1, showdowns_won=1),
    # Bob called the raise (40), checked the flop and folded to Ann's raise.
    ("h1", "bob"): F(hands_played=1, net=-40, vpip=1, saw_flop=1),
    # Cat called the raise, bet the flop, called Ann's raise and her turn bet, lost the showdown: 40+40+40.
    ("h1", "cat"): F(hands_played=1, net=-120, vpip=1, postflop_aggressive=1, postflop_calls=2, saw_flop=1,
                     showdowns=1),
    # 2. Bob folded on the button; Cat completed (10 more: a call), bet the turn and took 40 with no showdown.
    ("h2", "bob"): F(hands_played=1),
    ("h2", "cat"): F(hands_played=1, hands_won=1, net=20, biggest_pot=40, vpip=1, postflop_aggressive=1, saw_flop=1),
    # Ann checked her big blind's option (not VPIP), checked the flop and folded the turn: her 20.
    ("h2", "ann"): F(hands_played=1, net=-20, saw_flop=1),
    # 3. Cat raised, called Ann's re-raise, raised the flop, called the river: won 300 at the showdown, 60+40+40 in.
    ("h3", "cat"): F(hands_played=1, hands_won=1, net=160, biggest_pot=300, vpip=1, pfr=1, postflop_aggressive=1,
                     postflop_calls=1, saw_flop=1, showdowns=1, showdowns_won=1),
    # Ann re-raised, bet the flop, called Cat's raise, bet the river and lost the showdown: 60+40+40.
    ("h3", "ann"): F(hands_played=1, net=-140, vpip=1, pfr=1, postflop_aggressive=2, postflop_calls=1, saw_flop=1,
                     showdowns=1),
    # Bob folded his big blind to the raises: his 20.
    ("h3", "bob"): F(hands_played=1, net=-20),
    # 4. Ann called 20 and Bob completed (both VPIP), Cat checked her option; checked down, Bob's kings took 60.
    ("h4", "ann"): F(hands_played=1, net=-20, vpip=1, saw_flop=1, showdowns=1),
    ("h4", "bob"): F(hands_played=1, hands_won=1, net=40, biggest_pot=60, vpip=1, saw_flop=1, showdowns=1,
                     showdowns_won=1),
    ("h4", "cat"): F(hands_played=1, net=-20, saw_flop=1, showdowns=1),
}
# /stats over the four hands, the figures above added up: Ann VPIP 3 of 4, PFR 2 of 4, aggression 4 over 1, showdowns
# 3 of the 4 flops she saw, 1 of them won; Bob VPIP 2 of 4, no raise, no bet or call after a flop, showdowns 1 of 2
# flops, won; Cat VPIP 3 of 4, PFR 1 of 4, aggression 3 over 3, showdowns 3 of 4 flops, 1 of them won.
STATS = {
    "Ann": ["Ann: 4 hands played, 1 won · cash games: net −20, biggest pot 280",
            "VPIP 75% · PFR 50% · aggression factor 4.0 · went to showdown 75% · won at showdown 33%"],
    "Bob": ["Bob: 4 hands played, 1 won · cash games: net −20, biggest pot 60",
            "VPIP 50% · PFR 0% · aggression factor — · went to showdown 50% · won at showdown 100%"],
    "Cat": ["Cat: 4 hands played, 2 won · cash games: net +40, biggest pot 300",
            "VPIP 75% · PFR 25% · aggression factor 1.0 · went to showdown 75% · won at showdown 33%"],
}
# Hands 3 and 4 only: Ann VPIP and saw the showdown in both, raised in 3, aggression 2 over 1, lost both showdowns.
ANN_LAST_30_DAYS = ["Ann over the last 30 days: 2 hands played, 0 won · cash games: net −160, biggest pot 0",
                    "VPIP 100% · PFR 50% · aggression factor 2.0 · went to showdown 100% · won at showdown 0%"]


@pytest.fixture
def stacked(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The decks the next hands are dealt from, in order (each dealt as `Deck.stacked`)."""
    tops: list[str] = []
    monkeypatch.setattr("bot.games.holdem.new_deck", lambda rng: Deck.stacked(tops.pop(0), rng))
    yield tops


async def play(service: Service, hands: list[tuple[str, list[tuple[str, str]]]], tops: list[str],
               place: Place = PLACE) -> None:
    for top, actions in hands:
        tops.append(top)
        reply = await service.handle(place, ANN, "/deal")
        assert reply.error is None, reply.error
        for player, command in actions:
            assert reply.table is not None and reply.table.to_act == player, (command, reply.table)
            reply = await service.handle(place, ACTORS[player], f"/{command}")
            assert reply.error is None, (player, command, reply.error)
        assert reply.table is not None and reply.table.to_act is None, "the hand is over"


async def stats_of(service: Service, text: str) -> list[str]:
    reply = await service.handle(PLACE, BOB, text)
    assert reply.error is None, reply.error
    (said,) = reply.public
    return said.splitlines()


async def test_stats_match_the_figures_worked_out_by_hand(service: Service, stacked: list[str]) -> None:
    for actor in (ANN, BOB, CAT):
        assert (await service.handle(PLACE, actor, "/join 400")).error is None
    await play(service, HANDS, stacked)
    await ledger_ok(service)
    assert await stats_of(service, "/stats Ann") == STATS["Ann"]
    assert await stats_of(service, "/stats @bob all") == STATS["Bob"]
    assert await stats_of(service, "/stats all Cat") == STATS["Cat"]


async def test_stats_over_the_last_days_count_only_their_hands(service: Service, stacked: list[str],
                                                               clock: FakeClock) -> None:
    for actor in (ANN, BOB, CAT):
        assert (await service.handle(PLACE, actor, "/join 400")).error is None
    await play(service, HANDS[:2], stacked)
    clock.advance(31 * DAY)
    await play(service, HANDS[2:], stacked)
    assert (await stats_of(service, "/stats Ann 30d"))[:2] == ANN_LAST_30_DAYS
    assert (await stats_of(service, "/stats Ann 40d"))[:2] == [
        "Ann over the last 40 days: 4 hands played, 1 won · cash games: net −20, biggest pot 280", STATS["Ann"][1]]
    russian = await service.handle(PLACE, ANN, "/lang ru")
    assert russian.error is None
    assert (await stats_of(service, "/stats Ann 1d"))[:2] == [
        "Ann за последний 1 день: сыграно 2 раздачи, выиграно 0 · кэш-игры: итог −160, крупнейший банк 0",
        "VPIP 100\u00a0% · PFR 50\u00a0% · фактор агрессии 2,0 · доходит до вскрытия 100\u00a0% · "
        "выигрыш на вскрытии 0\u00a0%",
    ]


async def test_an_older_database_gets_the_figures_of_the_hands_it_holds(service: Service, stacked: list[str],
                                                                      clock: FakeClock) -> None:
    """Upgrading a database from before `hand_figures` (migration 13) fills it from the history: the same /stats."""
    for actor in (ANN, BOB, CAT):
        assert (await service.handle(PLACE, actor, "/join 400")).error is None
    await play(service, HANDS, stacked)
    before = [await stats_of(service, f"/stats {name}") for name in ("Ann", "Bob", "Cat")]
    assert before == [STATS["Ann"], STATS["Bob"], STATS["Cat"]]

    def downgrade(tx: Tx) -> None:
        history_table_from_log(tx)
        tx.db.execute("DROP TABLE hand_figures")
        tx.dialect.set_schema_version(tx.db, MIGRATIONS.index(add_hand_figures))

    await service.store.transact(downgrade, now=clock.now())
    await service.store.close()
    reopened = Service(await Store.open(service.store.location), clock)
    assert [await stats_of(reopened, f"/stats {name}") for name in ("Ann", "Bob", "Cat")] == before
    await reopened.store.close()


async def test_the_figures_move_to_one_key_by_chat_and_end_time(service: Service, stacked: list[str],
                                                               clock: FakeClock) -> None:
    """Migration 22: figures kept as before it (keyed by table, hand and player, with an index by chat) move into one
    B-tree keyed by chat and end time, every row with them: the same /stats over all time and over the last days. On
    SQLite the table has no index besides its key, which /stats reads a range of; and pruning finds each hand's rows
    by their chat and the time of the log row with its end, not by reading the chat's."""
    for actor in (ANN, BOB, CAT):
        assert (await service.handle(PLACE, actor, "/join 400")).error is None
    await play(service, HANDS[:2], stacked)
    clock.advance(31 * DAY)
    await play(service, HANDS[2:], stacked)
    asked = ("/stats Ann", "/stats Bob", "/stats Cat", "/stats Ann 30d")
    before = [await stats_of(service, text) for text in asked]
    assert before[:3] == [STATS["Ann"], STATS["Bob"], STATS["Cat"]] and before[3][:2] == ANN_LAST_30_DAYS

    def downgrade(tx: Tx) -> None:  # the table as migrations 13 to 21 kept it
        rows = tx.db.execute(f"SELECT {COLUMNS} FROM hand_figures").fetchall()
        tx.db.execute("DROP TABLE hand_figures")
        tx.db.execute(tx.dialect.ddl(figures_table("hand_figures", "table_id, hand_id, user_id")))
        tx.db.execute("CREATE INDEX hand_figures_by_chat ON hand_figures(chat_id, ended_at)")
        tx.db.executemany(f"INSERT INTO hand_figures({COLUMNS}) VALUES ({', '.join('?' * (5 + len(COUNTS)))})",
                          rows)
        spans_by_their_beginning(tx)  # and migration 23 undone: both are run again
        tx.dialect.set_schema_version(tx.db, MIGRATIONS.index(figures_by_chat_and_time))

    await service.store.transact(downgrade, now=clock.now())
    await service.store.close()
    reopened = Service(await Store.open(service.store.location), clock)
    assert [await stats_of(reopened, text) for text in asked] == before
    await ledger_ok(reopened)
    on_sqlite = not reopened.store.dialect.is_shared
    statements: list[str] = []

    def prune_every_hand(tx: Tx) -> list[str]:  # and on SQLite, how each read of the figures ran
        if on_sqlite:
            tx.db.set_trace_callback(statements.append)
        prune.prune_batch(tx, before=clock.now() + DAY, seconds=60.0)  # every hand, however slow the machine
        if not on_sqlite:
            return []
        tx.db.set_trace_callback(None)
        return [" ".join(str(row[-1]) for row in tx.db.execute(f"EXPLAIN QUERY PLAN {sql}"))
                for sql in statements if sql.startswith("SELECT") and "hand_figures" in sql]

    read = await reopened.store.transact(prune_every_hand, now=clock.now())
    assert await reopened.store.read(lambda tx: tx.db.execute("SELECT COUNT(*) FROM hand_figures").fetchone()[0]) == 0
    if on_sqlite:
        assert len(read) == len(HANDS), read  # one read a hand, each one search of the key by its end time
        assert all("USING PRIMARY KEY (chat_id=? AND ended_at=? AND table_id=? AND hand_id=?)" in plan
                   for plan in read), read
        indexes = await reopened.store.read(lambda tx: [row[0] for row in tx.db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'hand_figures'")])
        assert indexes == []
    assert [await stats_of(reopened, text) for text in asked[:3]] == before[:3]  # pruned: the same totals
    await reopened.store.close()


async def test_tournament_chips_are_not_counted_with_the_cash_games(service: Service, stacked: list[str],
                                                                   clock: FakeClock) -> None:
    """RULES.md: "Tournament chips are separate". A tournament's hands count in the hands played and the play
    figures, but its chips are not the cash games' net or biggest pot: after the upgrade that marks them (25), and
    after the pruning too."""
    cash = Place(PLACE.chat_id, f"{PLACE.chat_id}/cash")
    for actor in (ANN, BOB, CAT):
        assert (await service.handle(cash, actor, "/join 400")).error is None
    await play(service, HANDS[:1], stacked, cash)  # Ann +160 (a pot of 280), Bob −40, Cat −120
    assert (await service.handle(PLACE, ANN, "/tournament create home-night")).error is None
    for actor in (ANN, BOB, CAT):
        assert (await service.handle(PLACE, actor, "/join")).error is None
    stacked.append("")
    started = await service.handle(PLACE, ANN, "/tournament start")
    assert started.error is None, started.error
    await play_out(service, PLACE, ACTORS, started, ("fold", "check"))  # the big blind takes the blinds
    marked = await service.store.read(lambda tx: tx.db.execute(
        "SELECT user_id, net, biggest_pot FROM hand_figures WHERE tournament = 1").fetchall())
    assert len(marked) == 3 and any(net for _, net, _ in marked), "the tournament's hand moved chips"
    asked = ("/stats Ann", "/stats Bob", "/stats Cat")
    shown = [(await stats_of(service, text))[0] for text in asked]
    # the tournament seats them in the order they joined and deals its first hand with Ann on the button: Ann and Bob
    # fold, Cat's big blind takes the blinds (a hand won, whose chips are not the cash games')
    assert shown == ["Ann: 2 hands played, 1 won · cash games: net +160, biggest pot 280",
                     "Bob: 2 hands played, 0 won · cash games: net −40, biggest pot 0",
                     "Cat: 2 hands played, 1 won · cash games: net −120, biggest pot 0"]

    def unmarked(tx: Tx) -> None:  # the figures as a bot before migration 25 wrote them
        figures_unmarked(tx.db)
        tx.dialect.set_schema_version(tx.db, MIGRATIONS.index(figures_know_tournament_hands))  # 25 to come

    await service.store.transact(unmarked, now=clock.now())
    await service.store.close()
    reopened = Service(await Store.open(service.store.location), clock)
    assert [(await stats_of(reopened, text))[0] for text in asked] == shown
    await reopened.store.transact(lambda tx: prune.prune_batch(tx, before=clock.now() + DAY, seconds=60.0),
                                  now=clock.now())
    assert await reopened.store.read(lambda tx: tx.db.execute("SELECT COUNT(*) FROM hand_figures").fetchone()[0]) == 0
    assert [(await stats_of(reopened, text))[0] for text in asked] == shown, "pruned: the same totals"
    await reopened.store.close()


@pytest.mark.parametrize(("language", "text", "refusal"), [
    ("en", "/stats 0d", "Usage: /stats [player] [30d|all]"),  # a period of no day
    ("en", "/stats Ann 30d all", "Usage: /stats [player] [30d|all]"),  # two periods
    ("en", "/stats 9999d", "Usage: /stats [player] [30d|all]"),  # over ten years (3,650 days)
    ("en", "/stats 100000d", "Usage: /stats [player] [30d|all]"),
    ("ru", "/stats @Ann 36500д", "Как писать: /stats [игрок] [30d|all]"),
])
async def test_a_bad_period_is_refused(service: Service, language: str, text: str, refusal: str) -> None:
    await refused_without_change(service, ANN, text, {language: refusal})


def test_one_hands_figures_and_the_ratios() -> None:
    events = [  # heads-up: Bob limps, Ann raises, Bob calls; flop Ann bets, Bob folds
        {"kind": "PlayerCalled", "player": "bob", "amount": 10, "is_all_in": False},
        {"kind": "PlayerRaised", "player": "ann", "to": 40, "amount": 20, "is_all_in": False},
        {"kind": "PlayerCalled", "player": "bob", "amount": 20, "is_all_in": False},
        {"kind": "BoardDealt", "street": "flop", "cards": ["2c", "3d", "4h"], "board": ["2c", "3d", "4h"]},
        {"kind": "PlayerBet", "player": "ann", "amount": 20, "is_all_in": False},
        {"kind": "PlayerFolded", "player": "bob"},
        {"kind": "PotAwarded", "pot_index": 0, "amount": 80, "eligible": ["ann"], "winners": {"ann": 80},
         "category": None},
        {"kind": "HandEnded", "net": {"ann": 40, "bob": -40}, "stacks": {"ann": 140, "bob": 60}},
    ]
    figures = hand_figures(events)
    assert figures["ann"] == PlayFigures(hands_played=1, hands_won=1, net=40, biggest_pot=80, vpip=1, pfr=1,
                                         postflop_aggressive=1, saw_flop=1)
    assert figures["bob"] == PlayFigures(hands_played=1, net=-40, vpip=1, saw_flop=1)
    assert hand_figures(events[:-1]) == {}, "a hand that did not end counts nowhere"
    assert aggression_factor(figures["ann"]) is None  # bets without a call: the page says ∞
    assert aggression_factor(PlayFigures(postflop_aggressive=3, postflop_calls=2)) == 1.5
    assert (percent(2, 3), percent(1, 8), percent(0, 0)) == (67, 13, None)
    assert tuple(PlayFigures().counts()) == PRUNED_COUNTS, "pruned hands keep every count"


def test_a_mucked_hand_went_to_showdown_and_a_half_won_on_either_board_won_there() -> None:
    flop = {"kind": "BoardDealt", "street": "flop", "cards": ["2c", "3d", "4h"], "board": ["2c", "3d", "4h"]}
    mucked = [  # three see the flop and check down; Ann shows first, Bob mucks his beaten hand, Cat shows and wins
        flop,
        {"kind": "HandsShown", "cards": {"ann": ["5c", "5d"]}, "categories": {"ann": "pair"}},
        {"kind": "HandMucked", "player": "bob"},
        {"kind": "HandsShown", "cards": {"cat": ["Ac", "Ad"]}, "categories": {"cat": "pair"}},
        {"kind": "PotAwarded", "pot_index": 0, "amount": 60, "eligible": ["ann", "bob", "cat"],
         "winners": {"cat": 60}, "category": "pair"},
        {"kind": "HandEnded", "net": {"ann": -20, "bob": -20, "cat": 40}, "stacks": {}},
    ]
    figures = hand_figures(mucked)
    assert [(figures[p].showdowns, figures[p].showdowns_won) for p in ("ann", "bob", "cat")] == [(1, 0), (1, 0),
                                                                                                  (1, 1)]
    run_twice = [  # all-in on the flop, run twice: Ann wins the first board's half, Bob the second's
        flop,
        {"kind": "HandsShown", "cards": {"ann": ["5c", "5d"], "bob": ["Ac", "Ad"]}, "categories": {}, "run": 1},
        {"kind": "PotAwarded", "pot_index": 0, "amount": 100, "eligible": ["ann", "bob"], "winners": {"ann": 100},
         "category": "set", "run": 1},
        {"kind": "HandsShown", "cards": {"ann": ["5c", "5d"], "bob": ["Ac", "Ad"]}, "categories": {}, "run": 2},
        {"kind": "PotAwarded", "pot_index": 0, "amount": 100, "eligible": ["ann", "bob"], "winners": {"bob": 100},
         "category": "pair", "run": 2},
        {"kind": "HandEnded", "net": {"ann": 0, "bob": 0}, "stacks": {}},
    ]
    figures = hand_figures(run_twice)
    for player in ("ann", "bob"):
        assert (figures[player].showdowns, figures[player].showdowns_won, figures[player].biggest_pot) == (1, 1, 100)


async def stored_figures(store: Store) -> dict[tuple[str, str], PlayFigures]:
    """Each (hand, player) row of `hand_figures`."""

    def read(tx: Tx) -> dict[tuple[str, str], PlayFigures]:
        rows = tx.db.execute(f"SELECT hand_id, user_id, {', '.join(COUNTS)} FROM hand_figures").fetchall()
        return {(str(row[0]), str(row[1])): PlayFigures(*map(int, row[2:])) for row in rows}

    return await store.read(read)


async def figures_from_history(store: Store) -> dict[tuple[str, str], PlayFigures]:
    """What each ended hand's history rows, read back, give (as `/stats` figures were once worked out)."""

    def read(tx: Tx) -> dict[tuple[str, str], PlayFigures]:
        return {(hand_id, player): mine for hand_id in tx.finished_hands(PLACE.table_id, 100)
                for player, mine in hand_figures(tx.history(PLACE.table_id, hand_id)).items()}

    return await store.read(read)


@patches_compiled_code("Tx.history (its reads counted)")
async def test_a_hands_figures_are_those_its_history_rows_give_without_reading_them_back(
        service: Service, stacked: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A hand played by this process is summarised from its events in memory (on SQLite, the store's only writer;
    on PostgreSQL another process may have written some of them): the same figures as from its rows read back."""
    read_back: list[str] = []
    reading = Tx.history
    monkeypatch.setattr(Tx, "history", lambda tx, table_id, hand_id: read_back.append(hand_id) or reading(
        tx, table_id, hand_id))
    for actor in (ANN, BOB, CAT):
        assert (await service.handle(PLACE, actor, "/join 400")).error is None
    await play(service, HANDS, stacked)
    monkeypatch.undo()
    stored = await stored_figures(service.store)
    assert stored == HAND_FIGURES
    assert stored == await figures_from_history(service.store)
    assert read_back == ([] if service.store.dialect is SQLITE else ["h1", "h2", "h3", "h4"])


async def test_a_hand_resumed_after_a_restart_is_summarised_from_its_history_rows(
        service: Service, stacked: list[str], clock: FakeClock) -> None:
    """A hand begun before a restart has events the new process never saw: its rows are read back."""
    for actor in (ANN, BOB, CAT):
        assert (await service.handle(PLACE, actor, "/join 400")).error is None
    await play(service, HANDS[:1], stacked)
    top, actions = HANDS[1]
    stacked.append(top)
    assert (await service.handle(PLACE, ANN, "/deal")).error is None
    for player, command in actions[:3]:
        assert (await service.handle(PLACE, ACTORS[player], f"/{command}")).error is None
    await service.store.close()
    reopened = Service(await Store.open(service.store.location), clock)
    for player, command in actions[3:]:
        assert (await reopened.handle(PLACE, ACTORS[player], f"/{command}")).error is None
    stored = await stored_figures(reopened.store)
    assert stored == {key: figures for key, figures in HAND_FIGURES.items() if key[0] in ("h1", "h2")}
    assert stored == await figures_from_history(reopened.store)
    await reopened.store.close()


async def test_a_hand_against_a_computer_player_counts_for_the_player_and_not_on_the_leaderboard(
        service: Service, stacked: list[str]) -> None:
    """A practice seat's chips are the house's (`house:<chat>` pays its buy-in and gets its stack back): Ann's hand
    against it is one of her hands, in her statistics and her cash result, but the computer player is no player of
    the chat's leaderboard."""
    assert (await service.handle(PLACE, ANN, "/join 400")).error is None
    assert (await service.handle(PLACE, ANN, "/addbot Robo")).error is None
    stacked.append("")
    dealt = await service.handle(PLACE, ANN, "/deal")  # heads-up: Ann's button posts the small blind and acts first
    assert dealt.table is not None and dealt.table.to_act == "ann", dealt.table
    assert (await service.handle(PLACE, ANN, "/fold")).error is None
    await ledger_ok(service)
    assert await stats_of(service, "/stats Ann") == [
        "Ann: 1 hand played, 0 won · cash games: net −10, biggest pot 0",
        "VPIP 0% · PFR 0% · aggression factor — · went to showdown — · won at showdown —"]
    assert (await service.handle(PLACE, BOB, "/top")).public == [
        "Leaderboard, cash tables (chips won or lost, grants not counted):\n1. Ann — −10"]
    # the computer player looked up by the name the table shows, whatever its case, without its 🤖 or its id: it
    # took a pot of 20 with no flop (Ann's small blind and as much of its big blind; the rest came back uncalled)
    robo = ["🤖 Robo: 1 hand played, 1 won · cash games: net +10, biggest pot 20",
            "VPIP 0% · PFR 0% · aggression factor — · went to showdown — · won at showdown —"]
    asked = ("/stats Robo", "/stats robo all", "/stats 🤖 Robo")
    assert [await stats_of(service, text) for text in asked] == [robo] * len(asked)
    assert (await service.handle(PLACE, ANN, "/lang ru")).error is None
    assert await stats_of(service, "/stats Robo") == [
        "🤖 Robo: сыграна 1 раздача, выиграна 1 · кэш-игры: итог +10, крупнейший банк 20",
        "VPIP 0\u00a0% · PFR 0\u00a0% · фактор агрессии — · доходит до вскрытия — · выигрыш на вскрытии —"]


# The last days' /stats after hands 1 and 2, hand 3 31 days later and hand 4 10 days after it (see below).
OVER_THE_LAST_DAYS = {
    "/stats Ann": STATS["Ann"],
    "/stats Ann 30d": ANN_LAST_30_DAYS,
    "/stats Bob 30d": ["Bob over the last 30 days: 2 hands played, 1 won · cash games: net +20, biggest pot 60",
                       "VPIP 50% · PFR 0% · aggression factor — · went to showdown 100% · won at showdown 100%"],
    "/stats Cat 30d": ["Cat over the last 30 days: 2 hands played, 1 won · cash games: net +140, biggest pot 300",
                       "VPIP 50% · PFR 50% · aggression factor 1.0 · went to showdown 100% · won at showdown 50%"],
    # hand 4 alone: Ann called, checked it down and lost the showdown
    "/stats Ann 3d": ["Ann over the last 3 days: 1 hand played, 0 won · cash games: net −20, biggest pot 0",
                      "VPIP 100% · PFR 0% · aggression factor — · went to showdown 100% · won at showdown 0%"],
}


async def test_pruned_hands_count_in_the_last_days_they_were_played_on(service: Service, stacked: list[str],
                                                                       clock: FakeClock) -> None:
    """Hands pruned from the history (`POKERBOT_HISTORY_DAYS` 7 here) count in `/stats Nd` by the UTC day they ended
    on: hand 3, pruned 10 days after it was played, still counts in the last 30 days, and every period reads as
    before the pruning. A period counts a pruned day whole when the day began at or after the start of the day
    its first instant falls on: the last second of a day still counts that day's pruned hands, the next one not."""
    for actor in (ANN, BOB, CAT):
        assert (await service.handle(PLACE, actor, "/join 400")).error is None
    await play(service, HANDS[:2], stacked)  # at 08:00 UTC (`FakeClock`'s start) on day 0
    clock.advance(31 * DAY)
    await play(service, HANDS[2:3], stacked)  # day 31
    clock.advance(10 * DAY)
    await play(service, HANDS[3:], stacked)  # day 41
    assert {text: await stats_of(service, text) for text in OVER_THE_LAST_DAYS} == OVER_THE_LAST_DAYS

    assert await prune.prune_history(service.store, before=clock.now() - 7 * DAY) > 0

    kept = await service.store.read(lambda tx: {row[0] for row in tx.db.execute("SELECT hand_id FROM hand_figures")})
    assert kept == {"h4"}
    assert {text: await stats_of(service, text) for text in OVER_THE_LAST_DAYS} == OVER_THE_LAST_DAYS
    clock.advance(16 * 3_600.0 - 1.0)  # 23:59:59 on day 41: 41 days back is day 0's last second, 10 back day 31's
    assert await stats_of(service, "/stats Ann 41d") == [
        "Ann over the last 41 days: 4 hands played, 1 won · cash games: net −20, biggest pot 280", STATS["Ann"][1]]
    assert await stats_of(service, "/stats Ann 10d") == [
        "Ann over the last 10 days: 2 hands played, 0 won · cash games: net −160, biggest pot 0",
        ANN_LAST_30_DAYS[1]]
    clock.advance(1.0)  # day 42 begins: the periods begin on days 1 and 32, without the pruned days 0 and 31
    assert await stats_of(service, "/stats Ann 41d") == [
        "Ann over the last 41 days: 2 hands played, 0 won · cash games: net −160, biggest pot 0",
        ANN_LAST_30_DAYS[1]]
    assert await stats_of(service, "/stats Ann 10d") == [
        "Ann over the last 10 days: 1 hand played, 0 won · cash games: net −20, biggest pot 0",
        OVER_THE_LAST_DAYS["/stats Ann 3d"][1]]
    await ledger_ok(service)

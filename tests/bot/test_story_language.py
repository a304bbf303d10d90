"""The chat's `/lang` during a hand or round tells its story so far again in the new language: the redrawn table
message reads in one language, a restart shows the same story, and the next action goes on in that language."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.clock import FakeClock
from bot.output import Actor, Place, Reply
from bot.render import story
from bot.service import Service
from bot.store import Store
from tests.bot.conftest import ANN, BOB, CAT, PLACE
from tests.bot.helpers import press_label, started_service
from tests.bot.test_showdown_table import stack_deck

PLAYERS = {actor.user_id: actor for actor in (ANN, BOB, CAT)}
OTHER = Place(PLACE.chat_id, "chat/other")
"""Another table of the chat (another Telegram topic, another Discord channel of the guild)."""


async def press(service: Service, reply: Reply, *words: str, place: Place = PLACE) -> Reply:
    """The player to act presses the first button of `words` there is."""
    assert reply.table is not None and reply.table.to_act is not None
    pressed = await service.press(place, PLAYERS[reply.table.to_act], press_label(reply, *words))
    assert pressed.error is None, pressed.error
    return pressed


async def deal(service: Service) -> Reply | None:
    """The next hand, dealt by the first of Ann, Bob and Cat still seated (None: no hand can be dealt)."""
    for actor in PLAYERS.values():
        dealt = await service.handle(PLACE, actor, "/deal")
        if dealt.error is None:
            return dealt
    return None


async def hand_with_a_time_out(service: Service, clock: FakeClock) -> Reply:
    """Ann, Bob and Cat at a table without time banks; hand #1: Ann raises, Bob calls, Cat's turn runs out (he
    folds): the flop is dealt, Bob to act. The table message then, in English."""
    assert (await service.handle(PLACE, ANN, "/set time_bank 0")).error is None
    for actor in (ANN, BOB, CAT):
        assert (await service.handle(PLACE, actor, "/join 200")).error is None
    reply = await service.handle(PLACE, ANN, "/deal")
    reply = await press(service, reply, "raise")
    await press(service, reply, "call")
    clock.advance(61)
    assert await service.scheduler.fire_due() == 1
    return await service.handle(PLACE, ANN, "/table")


ENGLISH_FLOP = ("Hold'em — hand #1 · blinds 10/20 · home-limit\n"
                "Board: J♠ 6♠ 4♠ · Pot: 100\n"
                "  Ann · 160 Ⓓ\n"
                "▶ Bob · 160\n"
                "  Cat · 180 folded\n"
                "\n"
                "Cat posts the big blind 20.\n"
                "Ann raises to 40.\n"
                "Bob calls 30.\n"
                "Cat ran out of time.\n"
                "Cat folds.\n"
                "Flop: J♠ 6♠ 4♠\n"
                "▶ Bob to act (⏱ 60\xa0s).")
RUSSIAN_FLOP = ("Холдем — раздача №1 · блайнды 10/20 · домашний лимит\n"
                "Борд: J♠ 6♠ 4♠ · Банк: 100\n"
                "  Ann · 160 Ⓓ\n"
                "▶ Bob · 160\n"
                "  Cat · 180 пас\n"
                "\n"
                "Cat ставит большой блайнд 20.\n"
                "Ann: рейз до 40.\n"
                "Bob: колл 30.\n"
                "Cat: время хода вышло.\n"
                "Cat: пас.\n"
                "Флоп: J♠ 6♠ 4♠\n"
                "▶ Ход: Bob (⏱ 60\xa0с).")


async def test_lang_tells_the_holdem_story_again_in_the_new_language_and_a_restart_keeps_it(
        store: Store, service: Service, clock: FakeClock) -> None:
    english = await hand_with_a_time_out(service, clock)
    assert english.table is not None
    assert english.table.text == ENGLISH_FLOP
    changed = await service.handle(PLACE, ANN, "/lang ru")
    assert changed.error is None and changed.public == ["Язык чата: русский (ru)."]
    assert changed.table is not None and changed.table.text == RUSSIAN_FLOP
    assert (await service.handle(PLACE, CAT, "/table")).table.text == RUSSIAN_FLOP  # the state's story, not a copy

    restarted = await started_service(store, FakeClock(clock.now()), seed=7)  # no stop: its log replayed
    resumed = await restarted.handle(PLACE, ANN, "/table")
    assert resumed.table is not None and resumed.table.text == RUSSIAN_FLOP
    bet = await press(restarted, resumed, "bet")
    assert bet.table is not None and bet.table.text == ("Холдем — раздача №1 · блайнды 10/20 · домашний лимит\n"
                                                        "Борд: J♠ 6♠ 4♠ · Банк: 120\n"
                                                        "▶ Ann · 160 Ⓓ\n"
                                                        "  Bob · 140 ставка 20\n"
                                                        "  Cat · 180 пас\n"
                                                        "\n"
                                                        "Ann: рейз до 40.\n"
                                                        "Bob: колл 30.\n"
                                                        "Cat: время хода вышло.\n"
                                                        "Cat: пас.\n"
                                                        "Флоп: J♠ 6♠ 4♠\n"
                                                        "Bob: бет 20.\n"
                                                        "▶ Ход: Ann, для колла 20 (⏱ 60\xa0с).")


@pytest.mark.parametrize("game", ["holdem", "omaha"])
async def test_the_story_retold_is_the_one_a_russian_chat_was_told(tmp_path: Path, game: str) -> None:
    """The same seeded hands of `game` twice: in a chat English until `/lang ru` in the middle of each hand (back to
    `/lang en` at its start), and in a chat Russian from the start; after each change the table message reads as
    the Russian chat's did at the same moment, whatever the hand went through so far (blinds, raises, calls)."""
    tables = []
    for name in ("switching", "russian"):
        store = await Store.open(tmp_path / f"{name}.db")
        service = await started_service(store, FakeClock(), seed=11)
        if game != "holdem":  # a new table plays Hold'em
            assert (await service.handle(PLACE, ANN, f"/game {game}")).error is None
        if name == "russian":
            assert (await service.handle(PLACE, ANN, "/lang ru")).error is None
        for actor in (ANN, BOB, CAT):
            assert (await service.handle(PLACE, actor, "/join 1000")).error is None
        tables.append((store, service))
    (_, switching), (_, russian) = tables
    choices = random.Random(3)
    compared = 0
    for _hand in range(8):
        dealt = [await deal(service) for _, service in tables]
        if dealt[1] is None:  # a player left with every chip
            break
        replies = [reply for reply in dealt if reply is not None]
        assert (await switching.handle(PLACE, ANN, "/lang en")).error is None
        change = choices.randrange(1, 9)  # preflop, or on a later street
        for step in range(40):
            if replies[1].table is None or replies[1].table.to_act is None:
                break
            words = choices.choice([("raise", "bet", "call"), ("call", "check"), ("check", "call")])
            replies = [await press(service, reply, *words, "check", "call") for (_, service), reply
                       in zip(tables, replies, strict=True)]
            if step == change and replies[1].table is not None and replies[1].table.to_act is not None:
                changed = await switching.handle(PLACE, ANN, "/lang ru")
                shown = await russian.handle(PLACE, ANN, "/table")
                assert changed.table is not None and shown.table is not None
                assert changed.table.text == shown.table.text
                compared += 1
        else:
            raise AssertionError("the hand did not end")
    assert compared >= 6, "too few hands lasted past the change"
    for store, _ in tables:
        await store.close()


@pytest.mark.parametrize("at_another_table", [False, True])
async def test_lang_tells_a_house_round_story_again_in_the_new_language(service: Service,
                                                                        at_another_table: bool) -> None:
    """Where `/lang ru` was typed, its answer shows the round in Russian; at another table of the chat, the round's
    next `/table` (what the adapters' redraw uses) does."""
    place = Place(PLACE.chat_id, "chat/house")
    assert (await service.handle(place, ANN, "/game russian")).error is None
    for actor in (ANN, BOB):
        assert (await service.handle(place, actor, "/ante 10")).error is None
    dealt = await service.handle(place, BOB, "/deal")
    assert dealt.table is not None and dealt.table.text == ("Russian Poker — round 1\n"
                                                            "Dealer: ▢ ▢ ▢ ▢ 9♠\n"
                                                            "▶ Ann · box 1 · ANTE 10 · deciding\n"
                                                            "  Bob · box 1 · ANTE 10 · deciding\n"
                                                            "\n"
                                                            "Ann bets on box 1: ANTE 10.\n"
                                                            "Bob bets on box 1: ANTE 10.\n"
                                                            "Dealer shows 9♠.\n"
                                                            "▶ Ann, box 1: your decision (⏱ 60\xa0s).")
    if at_another_table:
        assert (await service.handle(PLACE, ANN, "/lang ru")).error is None
        changed = await service.handle(place, CAT, "/table")
    else:
        changed = await service.handle(place, ANN, "/lang ru")
    assert changed.table is not None and changed.table.text == ("Русский покер — раунд 1\n"
                                                                "Дилер: ▢ ▢ ▢ ▢ 9♠\n"
                                                                "▶ Ann · бокс 1 · АНТЕ 10 · решает\n"
                                                                "  Bob · бокс 1 · АНТЕ 10 · решает\n"
                                                                "\n"
                                                                "Ann ставит на бокс 1: АНТЕ 10.\n"
                                                                "Bob ставит на бокс 1: АНТЕ 10.\n"
                                                                "Дилер показывает 9♠.\n"
                                                                "▶ Ann, бокс 1: ваше решение (⏱ 60\xa0с).")


def test_a_line_neither_told_by_events_nor_said_stays_where_it_was() -> None:
    """`story.retell` alone: the lines shown are matched from the latest back to the events' lines in either
    language (a story half in each, as one stored before this change could be, is all retold), a time-out's line
    is said again, and a line it knows nothing of (an older version's text) keeps its place and words. A line told
    before a player was renamed ("Robert") is retold with his name now, and so is a time-out's line naming him so;
    one naming a name nobody was known by in the lines matched stays."""
    told = {"en": ["{ann} calls 10.", "{bob} checks.", "Flop: J♠ 6♠ 4♠", "{bob} checks."],
            "ru": ["{ann}: колл 10.", "{bob}: чек.", "Флоп: J♠ 6♠ 4♠", "{bob}: чек."]}
    said = {"en": ["{ann} ran out of time.", "{bob} ran out of time."],
            "ru": ["{ann}: время хода вышло.", "{bob}: время хода вышло."]}

    def lines(table: dict[str, list[str]]) -> Callable[[str, story.Names], list[str]]:
        return lambda language, name: [line.format(ann=name("ann"), bob=name("bob")) for line in table[language]]

    names = {"ann": "Ann", "bob": "Bob"}
    state: dict[str, Any] = {"story": ["Bob: чек.", "An old line.", "Flop: J♠ 6♠ 4♠", "Ann ran out of time.",
                                       "Bob checks."]}
    story.retell(state, "ru", lines(told), lines(said), names)
    assert state["story"] == ["Bob: чек.", "An old line.", "Флоп: J♠ 6♠ 4♠", "Ann: время хода вышло.", "Bob: чек."]
    story.retell(state, "en", lines(told), lines(said), names)
    assert state["story"] == ["Bob checks.", "An old line.", "Flop: J♠ 6♠ 4♠", "Ann ran out of time.",
                              "Bob checks."]
    state["story"] = ["Robert checks.", "Robert ran out of time.", "Roberta ran out of time.", "Flop: J♠ 6♠ 4♠",
                      "Bob checks."]
    story.retell(state, "ru", lines(told), lines(said), names)
    assert state["story"] == ["Bob: чек.", "Bob: время хода вышло.", "Roberta ran out of time.", "Флоп: J♠ 6♠ 4♠",
                              "Bob: чек."]


async def test_the_run_it_twice_time_out_ends_the_hand_so_no_story_keeps_its_line(
        service: Service, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    """"Time is up — no answer from Bob." is said beside the events and is not one of `holdem_retell.SAID`: it needs no
    retelling, since the question is asked only once everyone is all-in (or all but one), so the same time-out runs
    the board out and every hand is turned up at once (automuck off or not): the hand is over, its story cleared, and
    a `/lang` then shows the table between hands. Should a hand ever outlive that time-out, this fails first."""
    assert (await service.handle(PLACE, ANN, "/set structure no-limit")).error is None
    assert (await service.handle(PLACE, BOB, "/automuck off")).error is None
    for actor in (ANN, BOB):
        assert (await service.handle(PLACE, actor, "/join 300")).error is None
    stack_deck(monkeypatch, ["Kc", "Ah", "Kd", "As"], "7d 9h Jc 8s 4d")
    await service.handle(PLACE, ANN, "/deal")
    for actor, line in ((ANN, "/allin"), (BOB, "/call"), (ANN, "/run twice")):
        assert (await service.handle(PLACE, actor, line)).error is None
    clock.advance(16)
    assert await service.scheduler.fire_due() == 1
    assert "story" not in json.loads(service.live_state(PLACE.table_id) or "null")[1]
    changed = await service.handle(PLACE, ANN, "/lang ru")
    assert changed.table is not None and changed.table.text == ("Техасский холдем — места:\n"
                                                                "  Ann — 600\n"
                                                                "Раздача №1: Ann выигрывает 600.\n"
                                                                "Ждём второго игрока: /join, чтобы сесть за стол.")


async def test_lang_retells_the_lines_of_a_player_renamed_during_the_hand_with_his_name_now(
        service: Service, clock: FakeClock) -> None:
    """Cat renamed himself "Kat" after his blind and his time-out: his lines kept the name they were told with until
    the chat's `/lang ru`, which tells the whole story again naming him as the seats do now (as a Russian chat
    reading the hand only now would have it), his time-out's line too."""
    await hand_with_a_time_out(service, clock)
    renamed = await service.handle(PLACE, Actor(CAT.user_id, "Kat"), "/table")
    assert renamed.table is not None and renamed.table.text == ENGLISH_FLOP.replace("  Cat · ", "  Kat · ")
    changed = await service.handle(PLACE, ANN, "/lang ru")
    assert changed.table is not None and changed.table.text == RUSSIAN_FLOP.replace("Cat", "Kat")


@pytest.mark.parametrize("renamed_at", [PLACE, OTHER], ids=["here", "at-the-other-table"])
async def test_a_renamed_players_time_out_is_retold_at_another_table_once_his_blind_has_scrolled_out(
        service: Service, clock: FakeClock, renamed_at: Place) -> None:
    """As above, with the flop bet and raised, so that Cat's blind (the first line naming him) has left the window
    and only his time-out and the fold it made still name him, as "Cat"; he is renamed "Kat" by a command here or
    at another table of the chat, where the chat's `/lang ru` is typed, so the next `/table` here retells the
    story: both lines name him "Kat", in Russian."""
    reply = await hand_with_a_time_out(service, clock)
    for word in ("bet", "raise"):
        reply = await press(service, reply, word)
    assert (await service.handle(renamed_at, Actor(CAT.user_id, "Kat"), "/table")).error is None
    assert (await service.handle(OTHER, ANN, "/lang ru")).error is None
    shown = await service.handle(PLACE, BOB, "/table")
    assert shown.table is not None and shown.table.text == ("Холдем — раздача №1 · блайнды 10/20 · домашний лимит\n"
                                                            "Борд: J♠ 6♠ 4♠ · Банк: 160\n"
                                                            "  Ann · 120 Ⓓ ставка 40\n"
                                                            "▶ Bob · 140 ставка 20\n"
                                                            "  Kat · 180 пас\n"
                                                            "\n"
                                                            "Bob: колл 30.\n"
                                                            "Kat: время хода вышло.\n"
                                                            "Kat: пас.\n"
                                                            "Флоп: J♠ 6♠ 4♠\n"
                                                            "Bob: бет 20.\n"
                                                            "Ann: рейз до 40.\n"
                                                            "▶ Ход: Bob, для колла 20 (⏱ 60\xa0с).")


async def hand_with_cat_sitting_out(service: Service, clock: FakeClock) -> None:
    """Cat's second time-out in a row (hand #2's small blind) folds him and sits him out: the line saying so comes
    after his fold's, so it outlives every event line naming him "Cat" as the flop is bet and raised."""
    reply = await hand_with_a_time_out(service, clock)
    while reply.table is not None and reply.table.to_act is not None:
        reply = await press(service, reply, "check", "call")
    dealt = await deal(service)
    assert dealt is not None
    await press(service, dealt, "call")
    clock.advance(61)
    assert await service.scheduler.fire_due() == 1
    reply = await service.handle(PLACE, BOB, "/table")
    for word in ("check", "bet", "raise", "raise"):
        reply = await press(service, reply, word)
    assert reply.table is not None and reply.table.text == ENGLISH_SAT_OUT


ENGLISH_SAT_OUT = ("Hold'em — hand #2 · blinds 10/20 · home-limit\n"
                   "Board: 2♣ 6♣ 2♠ · Pot: 150\n"
                   "  Ann · 180 bet 60\n"
                   "▶ Bob · 100 Ⓓ bet 40\n"
                   "  Cat · 170 folded\n"
                   "\n"
                   "Cat is sitting out after two time-outs: /back to come back.\n"
                   "Ann checks.\n"
                   "Flop: 2♣ 6♣ 2♠\n"
                   "Ann bets 20.\n"
                   "Bob raises to 40.\n"
                   "Ann raises to 60.\n"
                   "▶ Bob to act: 20 to call (⏱ 60\xa0s).")
RUSSIAN_SAT_OUT = ("Холдем — раздача №2 · блайнды 10/20 · домашний лимит\n"
                   "Борд: 2♣ 6♣ 2♠ · Банк: 150\n"
                   "  Ann · 180 ставка 60\n"
                   "▶ Bob · 100 Ⓓ ставка 40\n"
                   "  Kat · 170 пас\n"
                   "\n"
                   "Kat пропускает раздачи, дважды не уложившись во время хода: /back, чтобы вернуться.\n"
                   "Ann: чек.\n"
                   "Флоп: 2♣ 6♣ 2♠\n"
                   "Ann: бет 20.\n"
                   "Bob: рейз до 40.\n"
                   "Ann: рейз до 60.\n"
                   "▶ Ход: Bob, для колла 20 (⏱ 60\xa0с).")


@pytest.mark.parametrize("renamed_at", [PLACE, OTHER], ids=["here", "at-the-other-table"])
async def test_a_renamed_players_sitting_out_line_is_retold_once_every_line_naming_him_so_has_scrolled_out(
        service: Service, clock: FakeClock, renamed_at: Place) -> None:
    """Cat, sat out (`hand_with_cat_sitting_out`), is renamed "Kat" then (by a command here or at another table of
    the chat), and named so by the chat's `/lang ru`, which tells his sitting out's line in Russian too, as the
    rest."""
    await hand_with_cat_sitting_out(service, clock)
    assert (await service.handle(renamed_at, Actor(CAT.user_id, "Kat"), "/table")).error is None
    changed = await service.handle(PLACE, ANN, "/lang ru")
    assert changed.table is not None and changed.table.text == RUSSIAN_SAT_OUT


@pytest.mark.parametrize("lang_at", [PLACE, OTHER], ids=["here", "at-the-other-table"])
async def test_a_sitting_out_line_retold_with_a_new_name_is_retold_again_after_another_rename(
        service: Service, clock: FakeClock, lang_at: Place) -> None:
    """Cat's sitting out's line, retold naming him "Kat" by the chat's `/lang ru`, names him by a name no line he
    was said in had: renamed "Katz" at another table of the chat, he is still known by it, so the chat's `/lang en`
    (here or at that table) tells that line in English again, naming him "Katz", as the rest."""
    await hand_with_cat_sitting_out(service, clock)
    assert (await service.handle(PLACE, Actor(CAT.user_id, "Kat"), "/table")).error is None
    assert (await service.handle(PLACE, ANN, "/lang ru")).table.text == RUSSIAN_SAT_OUT
    assert (await service.handle(OTHER, Actor(CAT.user_id, "Katz"), "/table")).error is None
    assert (await service.handle(lang_at, ANN, "/lang en")).error is None
    shown = await service.handle(PLACE, BOB, "/table")
    assert shown.table is not None and shown.table.text == ENGLISH_SAT_OUT.replace("Cat", "Katz")


def test_the_lines_the_hand_began_with_kept_over_a_long_round_are_retold_too() -> None:
    """`story.retell` of a preflop round longer than the window: its first lines (the start, the blinds: `story.HEAD`
    of them) are the first the events tell, the rest the latest; all are retold, in place."""
    told = {"en": ["Hand #1.", "{ann} posts the small blind 10.", "{bob} posts the big blind 20.",
                   *("{ann} calls 10.", "{bob} checks.") * 4],
            "ru": ["Раздача №1.", "{ann} ставит малый блайнд 10.", "{bob} ставит большой блайнд 20.",
                   *("{ann}: колл 10.", "{bob}: чек.") * 4]}

    def lines(language: str, name: story.Names) -> list[str]:
        return [line.format(ann=name("ann"), bob=name("bob")) for line in told[language]]

    state: dict[str, Any] = {"story": [*lines("en", str.title)[:3], *lines("en", str.title)[-6:]], story.HEAD: 3}
    story.retell(state, "ru", lines, lambda language, name: [], {"ann": "Ann", "bob": "Bob"})
    assert state["story"] == ["Раздача №1.", "Ann ставит малый блайнд 10.", "Bob ставит большой блайнд 20.",
                              *("Ann: колл 10.", "Bob: чек.") * 3]

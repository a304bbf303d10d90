"""The chat's `/lang` typed at one of its tables reaches its other tables' stories: `/table` at another table (what
the adapters use to show it again) tells the story of its hand or round in play again in the chat's new language."""

from __future__ import annotations

import json

import pytest

from bot.clock import FakeClock
from bot.games import holdem_retell
from bot.output import Place, Reply
from bot.service import Service
from bot.store import Store
from tests.bot.conftest import ANN, BOB, CAT, PLACE
from tests.bot.helpers import press_label, started_service

OTHER = Place(PLACE.chat_id, "chat/other")
"""A second table of the chat (another Telegram topic, another Discord channel of the guild)."""


async def hand_at_the_other_table(service: Service) -> Reply:
    """Ann and Bob at `OTHER`, hand #1 dealt there, Ann raised to 40; the table message then."""
    for actor in (ANN, BOB):
        assert (await service.handle(OTHER, actor, "/join 200")).error is None
    dealt = await service.handle(OTHER, ANN, "/deal")
    raised = await service.press(OTHER, ANN, press_label(dealt, "raise"))
    assert raised.error is None, raised.error
    return raised


RUSSIAN_RAISE = ("Холдем — раздача №1 · блайнды 10/20 · домашний лимит\n"
                 "Борд: — · Банк: 60\n"
                 "  Ann · 160 Ⓓ ставка 40\n"
                 "▶ Bob · 180 ставка 20\n"
                 "\n"
                 "Раздача №1: баттон — Ann, блайнды 10/20. "
                 "Карты розданы — нажмите «Мои карты», чтобы посмотреть свои.\n"
                 "Ann ставит малый блайнд 10.\n"
                 "Bob ставит большой блайнд 20.\n"
                 "Ann: рейз до 40.\n"
                 "▶ Ход: Bob, для колла 20 (⏱ 60\xa0с).")


async def test_table_at_another_table_of_the_chat_tells_its_hand_again_in_the_new_language(
        store: Store, service: Service, clock: FakeClock) -> None:
    raised = await hand_at_the_other_table(service)
    assert raised.table is not None and raised.table.text == (
        "Hold'em — hand #1 · blinds 10/20 · home-limit\n"
        "Board: — · Pot: 60\n"
        "  Ann · 160 Ⓓ bet 40\n"
        "▶ Bob · 180 bet 20\n"
        "\n"
        "Hand #1: button Ann, blinds 10/20. Cards are dealt — press “My cards” to see yours.\n"
        "Ann posts the small blind 10.\n"
        "Bob posts the big blind 20.\n"
        "Ann raises to 40.\n"
        "▶ Bob to act: 20 to call (⏱ 60\xa0s).")
    changed = await service.handle(PLACE, ANN, "/lang ru")
    assert changed.error is None and changed.public == ["Язык чата: русский (ru)."]
    shown = await service.handle(OTHER, CAT, "/table")
    assert shown.error is None and shown.table is not None and shown.table.text == RUSSIAN_RAISE
    called = await service.press(OTHER, BOB, press_label(shown, "call"))
    assert called.table is not None and called.table.text == ("Холдем — раздача №1 · блайнды 10/20 · домашний лимит\n"
                                                               "Борд: J♥ 6♣ J♠ · Банк: 80\n"
                                                               "  Ann · 160 Ⓓ\n"
                                                               "▶ Bob · 160\n"
                                                               "\n"
                                                               "Раздача №1: баттон — Ann, блайнды 10/20. Карты "
                                                               "розданы — нажмите «Мои карты», чтобы посмотреть свои.\n"
                                                               "Ann ставит малый блайнд 10.\n"
                                                               "Bob ставит большой блайнд 20.\n"
                                                               "Ann: рейз до 40.\n"
                                                               "Bob: колл 20.\n"
                                                               "Флоп: J♥ 6♣ J♠\n"
                                                               "▶ Ход: Bob (⏱ 60\xa0с).")


async def test_a_restart_after_the_retelling_shows_the_other_table_in_the_new_language(
        store: Store, service: Service, clock: FakeClock) -> None:
    """`/table` is logged when it may retell: the table read back (snapshot and log) is the live one, so the next
    action after a restart goes on in the new language without another `/table` first."""
    await hand_at_the_other_table(service)
    assert (await service.handle(PLACE, ANN, "/lang ru")).error is None
    assert (await service.handle(OTHER, CAT, "/table")).table.text == RUSSIAN_RAISE
    live = json.loads(service.live_state(OTHER.table_id) or "null")
    stored = await service.store.read(lambda tx: service.stored_table(tx, OTHER.table_id))
    assert stored is not None and [*stored] == live, "the retold story is in the stored table too"
    restarted = await started_service(store, FakeClock(clock.now()), seed=7)  # no stop: its log replayed
    called = await restarted.handle(OTHER, BOB, "/call")
    assert called.error is None and called.table is not None
    assert called.table.text.split("\n")[6:10] == ["Ann ставит малый блайнд 10.", "Bob ставит большой блайнд 20.",
                                                   "Ann: рейз до 40.", "Bob: колл 20."]
    shown = await restarted.handle(OTHER, CAT, "/table")
    assert shown.table is not None and shown.table.text == called.table.text


async def test_a_story_told_in_two_languages_is_retold_after_the_chat_changes_back(service: Service) -> None:
    """A line told at the other table between two changes of the chat's language (nobody showed it again) is in the
    first new one: once the chat is back in English, `/table` there tells the whole story in English again."""
    raised = await hand_at_the_other_table(service)
    assert (await service.handle(PLACE, ANN, "/lang ru")).error is None
    called = await service.press(OTHER, BOB, press_label(raised, "call"))
    assert called.table is not None and called.table.text.endswith("Ann raises to 40.\n"
                                                                   "Bob: колл 20.\n"
                                                                   "Флоп: J♥ 6♣ J♠\n"
                                                                   "▶ Ход: Bob (⏱ 60\xa0с).")
    assert (await service.handle(PLACE, ANN, "/lang en")).error is None
    shown = await service.handle(OTHER, CAT, "/table")
    assert shown.table is not None and shown.table.text == ("Hold'em — hand #1 · blinds 10/20 · home-limit\n"
                                                            "Board: J♥ 6♣ J♠ · Pot: 80\n"
                                                            "  Ann · 160 Ⓓ\n"
                                                            "▶ Bob · 160\n"
                                                            "\n"
                                                            "Hand #1: button Ann, blinds 10/20. Cards are dealt — "
                                                            "press “My cards” to see yours.\n"
                                                            "Ann posts the small blind 10.\n"
                                                            "Bob posts the big blind 20.\n"
                                                            "Ann raises to 40.\n"
                                                            "Bob calls 20.\n"
                                                            "Flop: J♥ 6♣ J♠\n"
                                                            "▶ Bob to act (⏱ 60\xa0s).")


async def test_table_reads_no_history_when_the_story_is_in_the_chat_language(
        service: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    """A story told in the chat's language since its latest change is shown as it is: the hand's history is read
    (`retell`) only after a `/lang` that changed the language."""
    await hand_at_the_other_table(service)
    assert (await service.handle(PLACE, ANN, "/lang en")).error is None  # the language it already had

    def unread(*_: object) -> list[object]:
        raise AssertionError("the hand's history was read")

    monkeypatch.setattr(holdem_retell, "read_events", unread)
    shown = await service.handle(OTHER, CAT, "/table")
    assert shown.error is None and shown.table is not None
    assert shown.table.text.endswith("Ann raises to 40.\n▶ Bob to act: 20 to call (⏱ 60\xa0s).")


async def test_my_cards_at_another_table_of_the_chat_draws_its_hand_in_the_new_language(
        store: Store, service: Service, clock: FakeClock) -> None:
    """"🂠 My cards" draws the public table as it answers (`/cards`): after the chat's `/lang ru` at another table,
    its story is retold first, as `/table` does, and the retold story is the stored one too (a restart shows it)."""
    await hand_at_the_other_table(service)
    assert (await service.handle(PLACE, ANN, "/lang ru")).error is None
    mine = await service.view(OTHER, BOB)
    assert mine.table is not None and mine.table.text == RUSSIAN_RAISE
    assert mine.private == {"bob": ["Ваши карты: 4♦ 8♦"]}
    live = json.loads(service.live_state(OTHER.table_id) or "null")
    stored = await service.store.read(lambda tx: service.stored_table(tx, OTHER.table_id))
    assert stored is not None and [*stored] == live
    restarted = await started_service(store, FakeClock(clock.now()), seed=7)  # no stop: its log replayed
    assert (await restarted.handle(OTHER, CAT, "/table")).table.text == RUSSIAN_RAISE

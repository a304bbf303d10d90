"""Text made once and reused (messages parsed per language, pre-action labels per bet) never shows stale words: a
`/lang` change, a new bet, another table's hand or a renamed player shows in the very next table message."""

from __future__ import annotations

from bot.output import Actor, Place, Reply
from bot.service import Service
from tests.bot.conftest import ANN, BOB, CAT, PLACE

OTHER = Place("chat2", "chat2/table")


def pre_buttons(reply: Reply) -> list[tuple[str, str]]:
    """The pre-action buttons as (label, payload)."""
    assert reply.table is not None
    return [(button.label, button.payload) for button in reply.table.buttons if "|pre " in button.payload]


async def three_handed(service: Service, place: Place) -> Reply:
    for actor in (ANN, BOB, CAT):
        assert (await service.handle(place, actor, "/join 400")).error is None
    dealt = await service.handle(place, ANN, "/deal")
    assert dealt.table is not None and dealt.table.to_act == "ann"
    return dealt


async def test_pre_action_buttons_follow_the_language_the_bet_and_the_table(service: Service) -> None:
    dealt = await three_handed(service, PLACE)
    key = dealt.table.key  # type: ignore[union-attr]
    assert pre_buttons(dealt) == [("⏩ Check/fold", f"{key}|pre check_fold"), ("⏩ Check", f"{key}|pre check"),
                                  ("⏩ Call 10", f"{key}|pre call 20"), ("⏩ Call any", f"{key}|pre call_any")]
    raised = await service.handle(PLACE, ANN, "/raise")  # to 40: Ann has acted, Cat owes 20: nobody could check
    assert [label for label, _ in pre_buttons(raised)] == ["⏩ Check/fold", "⏩ Call 20", "⏩ Call any"]
    assert (await service.handle(PLACE, ANN, "/lang ru")).error is None
    russian = await service.handle(PLACE, BOB, "/table")
    assert [label for label, _ in pre_buttons(russian)] == ["⏩ Чек/пас", "⏩ Колл 20", "⏩ Колл любой"]
    # Another chat, in English, at the same bet in its second hand: its own words and its own hand's key.
    first = await three_handed(service, OTHER)
    assert first.table is not None and first.table.key == key
    assert (await service.handle(OTHER, ANN, "/fold")).error is None
    assert (await service.handle(OTHER, BOB, "/fold")).error is None
    other = await service.handle(OTHER, ANN, "/deal")
    assert other.table is not None and other.table.key == "h2" != key
    assert ("⏩ Call 10", "h2|pre call 20") in pre_buttons(other)
    again = await service.handle(PLACE, BOB, "/table")
    assert pre_buttons(again) == pre_buttons(russian)


async def test_a_renamed_player_shows_in_the_next_table_message(service: Service) -> None:
    dealt = await three_handed(service, PLACE)
    assert dealt.table is not None and "Bob" in dealt.table.text
    called = await service.handle(PLACE, ANN, "/call")
    assert called.table is not None and called.table.to_act == "bob"
    renamed = await service.handle(PLACE, Actor("bob", "Robert"), "/call")
    assert renamed.table is not None
    seats = renamed.table.text.split("\n\n")[0]
    assert "Robert · 380" in seats and "Bob" not in seats  # the story keeps what was said before ("Bob posts…")
    assert renamed.table.text.endswith("Robert calls 10.\n▶ Cat to act (⏱ 60\xa0s).")

"""A forum's topics, each a table, sharing their group's 20 requests a minute: one topic's hand ending leaves the
spacing while another topic plays."""

from __future__ import annotations

from bot.output import TableMessage
from bot.telegram.budget import Limits
from bot.telegram.ops import ChatQueue, PhotoOp, TableOp
from bot.telegram.render import place_of
from tests.telegram.fake_api import GROUP

CHAT = GROUP["id"]
LIMITS = Limits()
STEP = LIMITS.group[1] / (LIMITS.group[0] - LIMITS.group_burst + 1)
"""Seconds between a busy group's requests once its first few went back to back: its 20 a minute, spread evenly."""


def table_of(topic: int) -> str:
    return place_of(CHAT, topic).table_id


def state(topic: int, to_act: str | None, text: str = "Ann calls") -> TableOp:
    return TableOp(table_of(topic), CHAT, topic, TableMessage(f"h{topic}", text, (), to_act), "en")


def spent_queue() -> ChatQueue:
    """The group's queue just after its first three requests went back to back at 0 s: its budget spent until
    `STEP`; every table state edits a message already posted."""
    window = LIMITS.window(CHAT)
    for _ in range(LIMITS.group_burst):
        window.start()
        window.finish(0.0)
    return ChatQueue(CHAT, window, hold=LIMITS.hold, notice_wait=LIMITS.notice_wait, is_edit=lambda op: True)


def test_one_topics_ended_hand_keeps_the_groups_spacing_while_another_topic_plays() -> None:
    """Topic 7's hand plays (its state was just sent); topic 9's ends: the group still shares its budget with the
    actions coming in 7, so 9's end and picture wait their step. Once 7's hand ends too, nothing is coming: what
    waits goes as soon as the minute's count allows."""
    queue = spent_queue()
    queue.add_table(state(7, "tg:101"), now=0.0)
    queue.take(0.0)
    queue.add_table(state(9, None, "Bob wins 40"), now=0.5)
    queue.add(PhotoOp(CHAT, 9, b"png", "Bob wins"), now=0.5)
    assert not queue.settled
    assert queue.ready_in(0.5) == STEP - 0.5, "topic 7 plays on: the spacing stays"
    queue.add_table(state(7, None, "Ann wins 20"), now=1.0)
    assert queue.settled
    assert queue.ready_in(1.0) == 0, "no table of the group plays: the count alone binds"

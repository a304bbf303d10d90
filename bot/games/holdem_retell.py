"""A Hold'em hand's story told again: in the chat's new language after its `/lang` (`retell`), and with the table
drawn again on `/table`."""

from __future__ import annotations

from bot import commands as cmd
from bot.games.context import Action
from bot.games.holdem_table import HoldemTable
from bot.games.holdem_text import names_of
from bot.i18n import message
from bot.render import Voice, story
from bot.render import holdem as render
from bot.render.recorded import read_events

SAID = ("holdem.timed_out", "holdem.sat_out")
"""The lines a hand's story says beside its events that name one player (a time-out's): `retell` writes them in a
new language too."""


def retell(ctl: HoldemTable, act: Action) -> None:
    """After the chat's `/lang` during a hand: its story told again in the chat's new language (`story.retell`),
    from the hand's events as its history holds them, and its time-outs' lines (`SAID`), each player named as he
    is now; nothing to do when it was told in it already (`story.is_told_in`)."""
    hand = ctl._hand(act)
    if hand is None or story.is_told_in(act.state, act.language, act.chat_settings):
        return
    events = read_events(render.STORY_EVENTS, act.tx.history(act.place.table_id, f"h{hand.hand_number}"))
    names = names_of(act, hand)
    story.retell(act.state, act.language,
                 lambda language, name: render.narrate(Voice(language, name), events).lines,
                 lambda language, name: [message(language, key, {"player": name(player)}) for player in names
                                         for key in SAID], names)
    story.mark_told(act.state, act.language, act.chat_settings)


def show(ctl: HoldemTable, act: Action, command: cmd.Command) -> None:
    """`/table`: the table drawn again, its story first told again after the chat's `/lang` at another of its
    tables."""
    if ctl.decision(act) is None:  # nobody seated and no hand: told, not refused (a refusal drops the live table)
        act.tell(act.user, "holdem.nobody_seated")
        return
    retell(ctl, act)
    act.show_table(ctl.table_message(act))

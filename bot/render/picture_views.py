"""Table pictures from the games' data: which moments get a picture, and the public view model of each.

Controllers call one function per game (`holdem_picture`, `house_picture`, `private_picture`) and keep the drawing
it returns until the action commits; the rules about what is public live here: hole cards appear only once shown at
showdown, a house box's cards only once settled, the dealer's cards only as the game opens them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from bot.i18n import format_number
from bot.output import Picture
from bot.render import Voice, cards_text, signed
from bot.render.holdem import hand_label, title
from bot.render.picture import HandView, SeatView, TableView, render_hand, render_table
from engine import holdem as engine
from engine.common import Event
from engine.house.common import BoxStatus, HouseRound
from engine.house.events import CommunityCardsShown, DealerCardsShown, RoundEnded

SETTING = "pictures"
"""The table setting: `on` (the default) draws the showdown and a house round's reveal, `streets` every street
too (the flop, turn and river; a house round's deal), `off` keeps a table text-only."""
VALUES = ("on", "streets", "off")
SHOWN_BY_DEFAULT = frozenset({"showdown", "reveal", "settled"})
"""The moments `on` draws: the end of a hand or round shown, when the table message alone tells the streets."""

Drawing = tuple[TableView | HandView, str, str | None]
"""A picture still to draw: its view model, caption, and who may see it (None: the table)."""


def draw(drawings: list[Drawing]) -> list[Picture]:
    """Render pictures: called after the action committed, off the database thread (drawing takes milliseconds)."""
    return [Picture(render_table(view) if isinstance(view, TableView) else render_hand(view), caption, to)
            for view, caption, to in drawings]


def pictures_on(config: Mapping[str, Any]) -> bool:
    """Whether the table shows pictures (on unless the organizer set `pictures off`)."""
    return bool(config.get(SETTING, "on") != "off")


def draws(config: Mapping[str, Any], moment: str | None) -> bool:
    """Whether the table draws a picture of this moment (see `SETTING`)."""
    if moment is None or not pictures_on(config):
        return False
    return config.get(SETTING) == "streets" or moment in SHOWN_BY_DEFAULT


def _cards(cards: Iterable[object]) -> tuple[str, ...]:
    return tuple(str(card) for card in cards)


# --- Hold'em ------------------------------------------------------------------------------------------------


def holdem_moment(hand: engine.Hand, events: Iterable[Event]) -> str | None:
    """The moment these events make worth a picture: a street dealt (`flop`, `turn`, `river`) or `showdown`."""
    moment = None
    for event in events:
        if isinstance(event, engine.BoardDealt):
            moment = str(event.street)
        elif isinstance(event, engine.PotAwarded) and event.category:  # hands shown in turn: once, at the end
            moment = "showdown"
    return moment


def _winning_hands(voice: Voice, result: engine.HandResult) -> tuple[dict[str, str], str]:
    """At a showdown: each winner's hand name, and the footer naming the winners of each pot and their hand."""
    hands: dict[str, str] = {}
    lines: list[str] = []
    for pot in result.pots:
        if pot.category is None:
            continue
        name = hand_label(voice, pot.category)
        winners = tuple(player for player, chips in pot.winners.items() if chips) or tuple(pot.winners)
        hands.update(dict.fromkeys(winners, name))
        key = f"picture.winner_on_run.{pot.run}" if pot.run else "picture.winner" if len(winners) == 1 else \
            "picture.winners"  # a hand run twice: which board each was won on, not "Winner:" twice
        line = voice.t(key, players=", ".join(voice.name(player) for player in winners), hand=name)
        if line not in lines:
            lines.append(line)
    return hands, "; ".join(lines)


def holdem_view(voice: Voice, hand: engine.Hand) -> TableView:
    """The hand as everyone may see it: board, pot, stacks, bets, the button, whose turn; at the showdown every
    shown hand's cards, the winners' hands named on their seats and in the footer."""
    result = hand.result
    shown = result.shown if result is not None else {}
    winning, footer = _winning_hands(voice, result) if result is not None else ({}, "")
    bets = {} if hand.is_over else hand.bets
    stacks, folded = hand.stacks, hand.folded
    seats = []
    for player in hand.players:
        note = ""
        if player in folded:
            note = voice.t("holdem.folded")
        elif stacks[player] == 0 and not hand.is_over:
            note = voice.t("holdem.all_in")
        if result is not None and result.net.get(player, 0) > 0:
            note = f"+{result.net[player]}"
        if player in winning:
            note = f"{note} · {winning[player]}" if note else winning[player]
        seats.append(SeatView(name=voice.name(player), stack=stacks[player], bet=bets.get(player, 0), note=note,
                              is_button=player == hand.button, is_to_act=player == hand.to_act,
                              is_folded=player in folded, cards=_cards(shown.get(player, ()))))
    pot = sum(award.amount for award in result.pots) if result is not None else hand.pot_total
    if hand.to_act:
        footer = voice.t("picture.to_act", player=voice.name(hand.to_act))
    if hand.second_board:  # a hand run twice: the picture draws the first board, the footer names the second
        footer = "; ".join(filter(None, (voice.t("holdem.second_board", board=cards_text(hand.second_board)), footer)))
    return TableView(
        title=title(voice, hand),
        board=_cards(hand.board), board_slots=5, pot=pot, pot_label=voice.t("picture.pot"), seats=tuple(seats),
        footer=footer, language=voice.language,
    )


def holdem_picture(voice: Voice, config: Mapping[str, Any], hand: engine.Hand,
                   events: Iterable[Event]) -> Drawing | None:
    """A public picture to draw when the events reached the showdown (or dealt a street, with `pictures streets`);
    `config` is the table's."""
    moment = holdem_moment(hand, events)
    if not draws(config, moment):
        return None
    caption = voice.t("picture.caption_holdem", number=hand.hand_number, moment=voice.t(f"picture.moment.{moment}"))
    return holdem_view(voice, hand), caption, None


# --- house games ----------------------------------------------------------------------------------------------


def house_moment(round_: HouseRound, events: Iterable[Event]) -> str | None:
    """`deal` when cards were turned face up, `reveal` when the dealer showed his hand, `settled` at the end."""
    events = list(events)
    if any(isinstance(event, RoundEnded) for event in events):
        return "settled"
    if any(isinstance(event, DealerCardsShown) and event.qualifies is not None for event in events):
        return "reveal"
    if any(isinstance(event, (CommunityCardsShown, DealerCardsShown)) for event in events):
        return "deal"
    return None


def _dealer_cards(round_: HouseRound) -> tuple[str | None, ...]:
    return tuple(None if card is None else str(card) for card in round_.dealer_shown())


def house_view(voice: Voice, game: str, round_: HouseRound, number: int) -> TableView:
    """The round as everyone may see it: the dealer's open cards, community cards, the boxes, whose turn."""
    shown = round_.community_shown()
    seats = []
    for box in round_.boxes:
        bet = sum(box.bets.values())  # what it bet this round: a PAIRPLUS settled on the deal stays in it
        note = voice.t(f"house.status.{box.status.value}")
        if box.status is BoxStatus.SETTLED:
            net = box.net
            note += f" {format_number(voice.language, signed(net))}"
        folded = "fold" in box.history
        cards = _cards(box.cards) if round_.is_over and not folded else ()
        seats.append(SeatView(name=f"{voice.name(box.owner)} · {voice.t('house.box', box=box.index)}", bet=bet,
                              note=note, is_to_act=round_.to_act == (box.owner, box.index), is_folded=folded,
                              cards=cards))
    footer = ""
    if round_.to_act:
        footer = voice.t("house.to_act", player=voice.name(round_.to_act[0]), box=round_.to_act[1])
    return TableView(
        title=voice.t("house.title", game=voice.t(f"game.{game}"), number=number),
        board=_cards(shown), board_slots=5 if shown else 0, board_hidden=True,
        seats=tuple(seats), dealer=_dealer_cards(round_), dealer_label=voice.t("picture.dealer"), footer=footer,
        language=voice.language,
    )


def house_picture(voice: Voice, config: Mapping[str, Any], game: str, round_: HouseRound, number: int,
                  events: Iterable[Event]) -> Drawing | None:
    """A public picture to draw when the dealer revealed or the round was settled (or cards were turned up, with
    `pictures streets`); `config` is the table's."""
    moment = house_moment(round_, events)
    if not draws(config, moment):
        return None
    caption = voice.t("picture.caption_house", game=voice.t(f"game.{game}"), number=number,
                      moment=voice.t(f"picture.moment.{moment}"))
    return house_view(voice, game, round_, number), caption, None


# --- a player's own cards --------------------------------------------------------------------------------------


def private_picture(voice: Voice, config: Mapping[str, Any], user_id: str,
                    rows: list[tuple[str, tuple[str, ...]]]) -> Drawing | None:
    """A picture of a player's own cards that only he may see (None when pictures are off or he has none)."""
    if not rows or not pictures_on(config):
        return None
    title = voice.t("picture.your_cards")
    return HandView(title, tuple(rows)), title, user_id


def holdem_rows(voice: Voice, hand: engine.Hand, user_id: str) -> list[tuple[str, tuple[str, ...]]]:
    """A Hold'em player's hole cards, and the board when there is one."""
    rows = [(voice.t("picture.hole"), _cards(hand.hole_cards(user_id)))]
    if hand.board:
        rows.append((voice.t("picture.board"), _cards(hand.board)))
    return rows


def house_rows(voice: Voice, round_: HouseRound, user_id: str) -> list[tuple[str, tuple[str, ...]]]:
    """A house-game player's boxes whose cards he has been shown, one row each."""
    return [(voice.t("house.box", box=box.index), _cards(box.cards)) for box in round_.boxes
            if box.owner == user_id and round_.owner_sees(box)]

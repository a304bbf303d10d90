"""House-game text: the public table, a player's own boxes, and a line for each thing that happened."""

from __future__ import annotations

from collections.abc import Iterable

from bot.games.context import Action
from bot.i18n import format_number
from bot.render import cards_text, signed
from engine.common import Event
from engine.house.common import BoxStatus, HouseRound, Phase
from engine.house.events import (
    BetsPlaced,
    BoxActed,
    BoxCardsDealt,
    CardsDrawn,
    CommunityCardsShown,
    DealerCardsShown,
    DealerDrew,
    RoundEnded,
    StakesSettled,
)


def _dealer_public(round_: HouseRound) -> str:
    """The dealer's cards as the table sees them: face-down ones as ▢."""
    return " ".join("▢" if card is None else cards_text([card]) for card in round_.dealer_shown())


def table_text(act: Action, game: str, round_: HouseRound, number: int) -> str:
    """The public table: the round, the dealer's open cards, the community cards, every box and whose turn."""
    lines = [act.t("house.title", game=act.t(f"game.{game}"), number=number)]
    if round_.phase is Phase.BETTING:
        lines.append(act.t("house.betting_open"))
    dealer = _dealer_public(round_)
    if dealer:
        lines.append(act.t("house.dealer", cards=dealer))
    community = round_.community_shown()
    if community:
        lines.append(act.t("house.community", cards=cards_text(community)))
    to_act = round_.to_act
    for box in round_.boxes:
        stakes = " · ".join(f"{stake_label(act, name)} {format_number(act.language, chips)}"
                            for name, chips in box.stakes.items() if chips)
        status = act.t(f"house.status.{box.status.value}")
        if box.status is BoxStatus.SETTLED:
            status += f" {format_number(act.language, signed(box.net))}"
        marker = "▶ " if to_act == (box.owner, box.index) else "  "
        box_name = act.t("house.box", box=box.index)
        lines.append(f"{marker}{act.name(box.owner)} · {box_name} · {stakes or '—'} · {status}")
    if to_act:
        lines.append(act.t("house.to_act", player=act.name(to_act[0]), box=to_act[1]))
    return "\n".join(lines)


def private_boxes(act: Action, round_: HouseRound, user_id: str) -> str | None:
    """The player's own boxes with their cards (only sent to him)."""
    mine = [box for box in round_.boxes if box.owner == user_id]
    if not mine:
        return None
    lines = [act.t("house.your_boxes")]
    for box in mine:
        cards = cards_text(box.cards) if box.cards else act.t("house.not_dealt_yet")
        lines.append(f"{act.t('house.box', box=box.index)}: {cards}")
    return "\n".join(lines)


def narrate(act: Action, events: Iterable[Event]) -> None:
    """One public message with what happened, and the private cards to their owners only."""
    lines: list[str] = []
    for event in events:
        if isinstance(event, BoxCardsDealt):
            act.tell(event.player, "house.your_cards", box=event.box, cards=cards_text(event.cards))
        elif isinstance(event, CardsDrawn):
            act.tell(event.player, "house.your_new_cards", box=event.box, cards=cards_text(event.cards))
        elif isinstance(event, BetsPlaced):
            stakes = ", ".join(f"{stake_label(act, name)} {format_number(act.language, chips)}"
                               for name, chips in event.stakes.items())
            lines.append(act.t("house.bets_placed", player=act.name(event.player), box=event.box, stakes=stakes))
        elif isinstance(event, DealerCardsShown):
            if event.qualifies is None:
                lines.append(act.t("house.dealer_shows", cards=cards_text(event.cards)))
            else:
                verdict = act.t("house.qualifies" if event.qualifies else "house.no_game")
                lines.append(
                    act.t(
                        "house.dealer_reveals",
                        cards=cards_text(event.cards),
                        hand=hand_label(act, event.hand),
                        verdict=verdict,
                    )
                )
        elif isinstance(event, CommunityCardsShown):
            lines.append(act.t("house.community_shown", cards=cards_text(event.cards)))
        elif isinstance(event, BoxActed):
            lines.append(
                act.t(
                    f"house.acted.{event.action}",
                    player=act.name(event.player),
                    box=event.box,
                    cost=event.cost,
                    count=event.discarded_count,
                )
            )
        elif isinstance(event, DealerDrew):
            verdict = act.t("house.qualifies" if event.qualifies else "house.no_game")
            lines.append(
                act.t(
                    "house.dealer_drew",
                    discarded=cards_text([event.discarded]),
                    drawn=cards_text([event.drawn]),
                    hand=hand_label(act, event.hand),
                    verdict=verdict,
                )
            )
        elif isinstance(event, StakesSettled) and not event.final:
            # a side bet settled on the deal would give the box's hand away: only its owner hears of it
            act.tell(event.player, "house.side_settled", box=event.box, net=signed(sum(event.results.values())),
                     hand=hand_label(act, event.hand))
        elif isinstance(event, StakesSettled):
            net = sum(event.results.values())
            lines.append(
                act.t(
                    "house.settled",
                    player=act.name(event.player),
                    box=event.box,
                    outcome=act.t(f"house.outcome.{event.outcome}"),
                    net=signed(net),
                    hand=hand_label(act, event.hand),
                    cards=cards_text(event.cards) if event.cards and event.outcome != "folded" else "",
                )
            )
        elif isinstance(event, RoundEnded):
            results = ", ".join(f"{act.name(player)} {format_number(act.language, signed(net))}"
                                for player, net in event.nets.items())
            lines.append(act.t("house.round_over", results=results))
    act.say_text("\n".join(lines))


def stake_label(act: Action, name: str) -> str:
    """A stake's name (`ante` → "ANTE", «АНТЕ») in the chat's language; upper-cased when it has no message."""
    try:
        return act.t(f"stake.{name}")
    except KeyError:
        return name.upper()


def hand_label(act: Action, name: str) -> str:
    """A hand's name (`full_house` → "full house") in the chat's language; empty for none."""
    if not name:
        return ""
    try:
        return act.t(f"hand.{name}")
    except KeyError:
        return name.replace("_", " ")

"""House-game text: the public table, a player's own boxes, and a line for each thing that happened."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.games.context import Action
from bot.i18n import format_number
from bot.render import cards_text, hands, signed
from engine.common import Event
from engine.house.common import BoxStatus, HouseRound, Limits, Phase
from engine.house.events import (
    BetsPlaced,
    BoxActed,
    BoxCardsDealt,
    CardsDrawn,
    CommunityCardsShown,
    DealerCardsShown,
    DealerDrew,
    Payout,
    RoundEnded,
    StakesSettled,
)


def _dealer_public(round_: HouseRound) -> str:
    """The dealer's cards as the table sees them: face-down ones as ▢."""
    return " ".join("▢" if card is None else cards_text([card]) for card in round_.dealer_shown())


def table_text(act: Action, game: str, round_: HouseRound, number: int, story: Sequence[str] = ()) -> str:
    """The public table: the round, the dealer's open cards, the community cards, every box, the round's story
    (its latest lines, under the boxes after a blank line) and whose turn it is."""
    lines = [act.t("house.title", game=act.t(f"game.{game}"), number=number)]
    if round_.phase is Phase.BETTING:
        lines.append(act.t("house.betting_open", usage=ante_usage(act, round_.limits, round_.side_name)))
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
        line = f"{marker}{act.name(box.owner)} · {box_name} · {stakes or '—'} · {status}"
        if to_act == (box.owner, box.index):
            line += "".join(f" · {short}" for short in shortfall_texts(act, round_))
        lines.append(line)
    if story:
        lines += ["", *story]
    if to_act:
        lines.append(act.t("house.to_act", player=act.name(to_act[0]), box=to_act[1]))
    return "\n".join(lines)


def ante_usage(act: Action, limits: Limits, side_name: str) -> str:
    """`/ante chips [box 2] [pp chips]` with only the options this table has (Texas Poker: one box, no side bet)."""
    parts = [act.t("house.usage.ante")]
    if limits.max_boxes > 1:
        parts.append(act.t("house.usage.box"))
    if side_name:
        parts.append(act.t(f"house.usage.{side_name}"))
    return " ".join(parts)


def how_to_bet(act: Action, game: str, limits: Limits, side_name: str, blind_box: int | None) -> str:
    """How to bet at this table: the ANTE, and only the boxes, blind box and side bet it has."""
    hints = []
    if limits.max_boxes > 1:
        hints.append(act.t("house.hint.box"))
    if blind_box is not None and blind_box <= limits.max_boxes:
        hints.append(act.t("house.hint.blind", box=blind_box))
    if side_name:
        hints.append(act.t(f"house.hint.{side_name}"))
    added = act.t("house.hints", hints="; ".join(hints)) if hints else ""
    return act.t("house.how_to_bet", game=act.t(f"game.{game}"), hints=added)


def shortfall_texts(act: Action, round_: HouseRound) -> list[str]:
    """What the wallet keeps the box to act from doing, and by how much ("Bet needs 200, you have 90")."""
    if round_.to_act is None:
        return []
    wallet = round_.wallets.get(round_.to_act[0], 0)
    return [act.t("house.short", action=act.t(f"house.action.{option.name}"), cost=option.cost, wallet=wallet)
            for option in round_.shortfalls()]


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


def narrate(act: Action, events: Iterable[Event]) -> list[str]:
    """The story's lines for what happened (returned, for the table message); the private cards to their owners
    only; and the dealer's reveal and the settlement as one public message, for the chat to notice."""
    events = list(events)
    ending = any(isinstance(event, RoundEnded) for event in events)
    lines: list[str] = []
    notices: list[str] = []
    for event in events:
        before = len(lines)
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
            elif event.hand == "no_game":  # the hand's name is the verdict: say it once
                lines.append(act.t("house.dealer_reveals_no_game", cards=cards_text(event.cards)))
            else:
                verdict = act.t("house.qualifies" if event.qualifies else "house.no_game")
                lines.append(act.t("house.dealer_reveals", cards=cards_text(event.cards),
                                   hand=hands.describe(act, event.hand, event.ranks), verdict=verdict))
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
            discarded, drawn = cards_text([event.discarded]), cards_text([event.drawn])
            if event.hand == "no_game":
                lines.append(act.t("house.dealer_drew_no_game", discarded=discarded, drawn=drawn))
            else:
                verdict = act.t("house.qualifies" if event.qualifies else "house.no_game")
                lines.append(act.t("house.dealer_drew", discarded=discarded, drawn=drawn,
                                   hand=hands.describe(act, event.hand, event.ranks), verdict=verdict))
        elif isinstance(event, StakesSettled) and not event.final:
            # a side bet settled on the deal would give the box's hand away: only its owner hears of it now, and
            # the table when the box's round is settled
            act.tell(event.player, "house.side_settled", box=event.box, lines=_stake_lines(act, event.results,
                                                                                             event.payouts))
        elif isinstance(event, StakesSettled):
            lines.append(settled_text(act, event))
        elif isinstance(event, RoundEnded):
            results = ", ".join(f"{act.name(player)} {format_number(act.language, signed(net))}"
                                for player, net in event.nets.items())
            lines.append(act.t("house.round_over", results=results))
        if _is_notice(event, ending):
            notices += lines[before:]
    act.say_text("\n".join(notices))
    return lines


def _is_notice(event: Event, ending: bool) -> bool:
    """The moments a chat is told of in a message of their own: the dealer's reveal (and his draw) and the end
    of the round with each box's result (a box folded earlier was settled in the story)."""
    if isinstance(event, DealerCardsShown):
        return event.qualifies is not None
    if isinstance(event, StakesSettled):
        return event.final and ending
    return isinstance(event, (DealerDrew, RoundEnded))


def settled_text(act: Action, event: StakesSettled) -> str:
    """A box's public result: outcome and net, the hand in words with its cards (unless folded), then every stake
    line with what paid it, side bets settled on the deal included: "Ann, box 1: wins (+40) — pair of kings, ace
    kicker: K♠ K♦ A♣ 7♥ 2♦; ANTE 0 · BET +40 (pair of kings + second combination: ace-king, ×2)"."""
    net = sum(event.results.values()) + sum(event.earlier.values())
    text = act.t("house.settled", player=act.name(event.player), box=event.box,
                 outcome=act.t(f"house.outcome.{event.outcome}"), net=signed(net))
    if event.hand and event.cards and event.outcome != "folded":
        text += " — " + act.t("house.hand_cards", hand=hands.describe(act, event.hand, event.ranks),
                              cards=cards_text(event.cards))
    stakes = _stake_lines(act, {**event.earlier, **event.results}, (*event.earlier_payouts, *event.payouts))
    return f"{text}; {stakes}." if stakes else f"{text}."


def _stake_lines(act: Action, results: dict[str, int], payouts: Iterable[Payout]) -> str:
    """Each stake line's result, a won line with the hand that paid it and its multiple ("BET +40 (flush, ace
    high, ×4)"), joined by " · "."""
    paid: dict[str, list[Payout]] = {}
    for payout in payouts:
        paid.setdefault(payout.line, []).append(payout)
    out = []
    for line, net in results.items():
        by = paid.get(line) if net > 0 else None
        if by:
            names = [hands.describe(act, payout.hand, payout.ranks) for payout in by]
            what = names[0] if len(names) == 1 else act.t("house.second_combination", first=names[0],
                                                          second=names[1])
            out.append(act.t("house.line_paid", stake=stake_label(act, line), net=signed(net), hand=what,
                             multiple=sum(payout.multiple for payout in by)))
        else:
            out.append(f"{stake_label(act, line)} {signed(net)}")
    return " · ".join(out)


def stake_label(act: Action, name: str) -> str:
    """A stake's name (`ante` → "ANTE", «АНТЕ») in the chat's language; upper-cased when it has no message."""
    try:
        return act.t(f"stake.{name}")
    except KeyError:
        return name.upper()


def hand_label(act: Action, name: str) -> str:
    """A hand's name (`full_house` → "full house") in the chat's language; empty for none."""
    return hands.category_label(act, name)

"""House-game text: the public table, a player's own boxes, and a line for each thing that happened."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from bot.i18n import format_number
from bot.render import Narration, Told, Voice, cards_text, hands, signed
from engine.common import Event
from engine.house.actions import Shortfall
from engine.house.common import Box, BoxStatus, HouseRound, Limits, Phase
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

BOARD_SLOTS = 5
"""The community cards of a game that has them (Texas Poker), face up or down."""


def _dealer_public(round_: HouseRound) -> str:
    """The dealer's cards as the table sees them: face-down ones as ▢."""
    return " ".join("▢" if card is None else cards_text([card]) for card in round_.dealer_shown())


def table_text(voice: Voice, game: str, round_: HouseRound, number: int, story: Sequence[str] = (),
               seconds: int | None = None) -> str:
    """The public table: the round, the dealer's open cards, the community cards, every box, the round's story
    (its latest lines, under the boxes after a blank line) and whose turn it is, with the `seconds` a turn lasts."""
    lines = [voice.t("house.title", game=voice.t(f"game.{game}"), number=number)]
    if round_.phase is Phase.BETTING:
        lines.append(voice.t("house.betting_open", usage=ante_usage(voice, round_.limits, round_.side_name)))
    dealer = _dealer_public(round_)
    if dealer:
        lines.append(voice.t("house.dealer", cards=dealer))
    community = round_.community_shown()
    if community:  # those still face down after them, as the picture draws them (`picture_views.house_view`)
        hidden = " 🂠" * (BOARD_SLOTS - len(community))
        lines.append(voice.t("house.community", cards=cards_text(community) + hidden))
    to_act = round_.to_act
    for box in round_.boxes:
        stakes = _box_bets(voice, box, round_.side_name)
        status = voice.t(f"house.status.{box.status.value}")
        if box.status is BoxStatus.SETTLED:
            status += f" {format_number(voice.language, signed(box.net))}"
        marker = "▶ " if to_act == (box.owner, box.index) else "  "
        box_name = voice.t("house.box", box=box.index)
        line = f"{marker}{voice.name(box.owner)} · {box_name} · {stakes or '—'} · {status}"
        if to_act == (box.owner, box.index):
            line += "".join(f" · {short}" for short in shortfall_texts(voice, round_))
        lines.append(line)
    if story:
        lines += ["", *story]
    if to_act:
        lines.append(voice.t("house.to_act_timed" if seconds else "house.to_act", player=voice.name(to_act[0]),
                             box=to_act[1], seconds=seconds))
    return "\n".join(lines)


def _box_bets(voice: Voice, box: Box, side_name: str) -> str:
    """What the box bet on each line ("ANTE 10 · PAIRPLUS 5 · PLAY 10"), a line settled before the others (a PAIRPLUS on
    the deal) included; once the box's result is public, with what its side bet (`side_name`) won or lost, whenever
    it was settled ("PAIRPLUS 5 (+200)", "BONUS 10 (−10)"), and any other line settled before the end: before, it
    would give the box's cards away."""
    public = box.status is BoxStatus.SETTLED
    parts = []
    for name, chips in box.bets.items():
        part = f"{stake_label(voice, name)} {format_number(voice.language, chips)}"
        # a folded box's ANTE: its status says it; a played box's ANTE and BET: its net does
        result = box.early.get(name, box.settled_lines.get(name) if name == side_name else None)
        if public and name != "ante" and result is not None:
            part += f" ({format_number(voice.language, signed(result))})"
        parts.append(part)
    return " · ".join(parts)


def ante_usage(voice: Voice, limits: Limits, side_name: str, side_size: str | None = None) -> str:
    """`/ante chips [box 1-3] [pp chips]` with only the options this table has (Texas Poker: one box, no side bet)."""
    return f"/ante {ante_options(voice, limits, side_name, side_size)}"


def ante_options(voice: Voice, limits: Limits, side_name: str, side_size: str | None = None) -> str:
    """What `/ante` takes at this table (`chips [box 1-3] [pp chips]`): only the options it has. A side bet of one
    size (Caribbean Poker's bonus) is written with it, the table's (`[bonus 10]`), or with `side_size` when given (a
    template's placeholder)."""
    parts = [voice.t("house.usage.ante")]
    if limits.max_boxes > 1:
        parts.append(voice.t("house.usage.box", boxes=limits.max_boxes))
    if side_name:
        parts.append(voice.t(f"house.usage.{side_name}", typed=side_size or str(limits.max_side)))
    return " ".join(parts)


def how_to_bet(voice: Voice, game: str, limits: Limits, side_name: str, blind_box: int | None) -> str:
    """How to bet at this table: the ANTE, and only the boxes, blind box and side bet it has."""
    hints = []
    if limits.max_boxes > 1:
        hints.append(voice.t("house.hint.box"))
    if blind_box is not None and blind_box <= limits.max_boxes:
        hints.append(voice.t("house.hint.blind", box=blind_box))
    if side_name:
        # a side bet of one size (Caribbean Poker's bonus) is named with it, as it must be typed
        hints.append(voice.t(f"house.hint.{side_name}", typed=str(limits.max_side)))
    added = voice.t("house.hints", hints="; ".join(hints)) if hints else ""
    return voice.t("house.how_to_bet", game=voice.t(f"game.{game}"), hints=added)


def shortfall_texts(voice: Voice, round_: HouseRound) -> list[str]:
    """What the wallet keeps the box to act from doing, and what it needs ("Bet needs 200, you have 90"; a draw with
    the BET it must leave room for: "Buy card needs 30 with the BET, you have 25", "Swap (4 cards) needs 60 with
    the BET, you have 50")."""
    if round_.to_act is None:
        return []
    wallet = round_.wallets.get(round_.to_act[0], 0)
    return [shortfall_text(voice, short, wallet) for short in round_.shortfalls()]


def shortfall_text(voice: Voice, short: Shortfall, wallet: int) -> str:
    """What an action needs and what the wallet holds: "Swap (4 cards) needs 60 with the BET, you have 50"."""
    action = voice.t(f"house.action.{short.action}")
    if short.cards:
        action = voice.t("house.short_cards", action=action, count=short.cards)
    key = "house.short_with_bet" if short.kept else "house.short"
    return voice.t(key, action=action, cost=short.needed, wallet=wallet)


def private_boxes(voice: Voice, round_: HouseRound, user_id: str) -> str | None:
    """The player's own boxes with their cards and what a side bet settled on the deal did (only sent to him: he
    may have missed the message that told him, which Discord sends only to the player who pressed)."""
    mine = [box for box in round_.boxes if box.owner == user_id]
    if not mine:
        return None
    lines = [voice.t("house.your_boxes")]
    for box in mine:
        if round_.owner_sees(box):
            cards = cards_text(box.cards)
            side = {line: net for line, net in box.early.items() if line != "ante"}  # PAIRPLUS, settled on the deal
            if side:
                capped = round_.limits.max_payout if box.capped else None
                cards += " · " + voice.t("house.side_result", lines=_stake_lines(voice, side, box.early_payouts,
                                                                                  capped))
        else:
            later = "house.shown_at_showdown" if round_.is_blind(box.index) else "house.shown_on_its_turn"
            cards = voice.t(later if box.cards else "house.not_dealt_yet")  # a blind box has no turn of its own
        lines.append(f"{voice.t('house.box', box=box.index)}: {cards}")
    current = round_.current_box()
    if (current is not None and current.owner == user_id
            and any(option.max_cards for option in round_.legal_actions().options)):
        # the table's card buttons are public, so they name positions: here, privately, each position's card
        numbered = " · ".join(f"{position} {cards_text((card,))}" for position, card in enumerate(current.cards, 1))
        lines.append(voice.t("house.positions", box=current.index, cards=numbered))
    return "\n".join(lines)


def narrate(voice: Voice, events: Iterable[Event]) -> Narration:
    """The story's lines for what happened (for the table message); the private cards to their owners only; and
    the dealer's reveal and the settlement as one public notice, for the chat to notice."""
    events = list(events)
    ending = any(isinstance(event, RoundEnded) for event in events)
    narration = Narration()
    lines = narration.lines
    notices: list[str] = []
    for event in events:
        before = len(lines)
        if isinstance(event, BoxCardsDealt):
            narration.told.append(Told(event.player, "house.your_cards",
                                       {"box": event.box, "cards": cards_text(event.cards)}))
        elif isinstance(event, CardsDrawn):
            narration.told.append(Told(event.player, "house.your_new_cards",
                                       {"box": event.box, "cards": cards_text(event.cards)}))
        elif isinstance(event, BetsPlaced):
            stakes = ", ".join(f"{stake_label(voice, name)} {format_number(voice.language, chips)}"
                               for name, chips in event.stakes.items())
            lines.append(voice.t("house.bets_placed", player=voice.name(event.player), box=event.box, stakes=stakes))
        elif isinstance(event, DealerCardsShown):
            if event.qualifies is None:
                lines.append(voice.t("house.dealer_shows", cards=cards_text(event.cards)))
            elif event.hand == "no_game":  # the hand's name is the verdict: say it once
                lines.append(voice.t("house.dealer_reveals_no_game", cards=cards_text(event.cards)))
            else:
                if event.qualifies:
                    verdict = voice.t("house.qualifies")
                elif event.needs:
                    verdict = voice.t(f"house.no_game_below.{event.needs}",
                                      hand=hands.describe(voice, event.needs, event.needs_ranks))
                else:
                    verdict = voice.t("house.no_game")
                lines.append(voice.t("house.dealer_reveals", cards=cards_text(event.cards),
                                     hand=hands.describe(voice, event.hand, event.ranks), verdict=verdict))
        elif isinstance(event, CommunityCardsShown):
            lines.append(voice.t("house.community_shown", cards=cards_text(event.cards)))
        elif isinstance(event, BoxActed):
            lines.append(
                voice.t(
                    f"house.acted.{event.action}",
                    player=voice.name(event.player),
                    box=event.box,
                    cost=event.cost,
                    count=event.discarded_count,
                )
            )
        elif isinstance(event, DealerDrew):
            discarded, drawn = cards_text([event.discarded]), cards_text([event.drawn])
            if event.hand == "no_game":
                lines.append(voice.t("house.dealer_drew_no_game", discarded=discarded, drawn=drawn))
            else:
                verdict = voice.t("house.qualifies" if event.qualifies else "house.no_game")
                lines.append(voice.t("house.dealer_drew", discarded=discarded, drawn=drawn,
                                     hand=hands.describe(voice, event.hand, event.ranks), verdict=verdict))
        elif isinstance(event, StakesSettled) and not event.final:
            # a side bet settled on the deal or at a fold would give the box's hand away: only its owner hears of it
            # now (the ANTE a fold loses goes without saying), and the table when the round is settled
            side = {line: net for line, net in event.results.items() if line != "ante"}
            if side:
                narration.told.append(Told(event.player, "house.side_settled", {
                    "box": event.box, "lines": _stake_lines(voice, side, event.payouts, event.max_payout)}))
        elif isinstance(event, StakesSettled):
            lines.append(settled_text(voice, event))
        elif isinstance(event, RoundEnded):
            results = ", ".join(f"{voice.name(player)} {format_number(voice.language, signed(net))}"
                                for player, net in event.nets.items())
            lines.append(voice.t("house.round_over", results=results))
        if _is_notice(event, ending):
            notices += lines[before:]
    narration.notice = "\n".join(notices)
    return narration


STORY_EVENTS = (BetsPlaced, DealerCardsShown, CommunityCardsShown, BoxActed, DealerDrew, StakesSettled, RoundEnded)
"""The events that tell the story's lines (`narrate`): those of a round's history, narrated together, tell the lines
its actions told one by one (read back with `bot.render.recorded.read_events` to tell them again)."""


def _is_notice(event: Event, ending: bool) -> bool:
    """The moments a chat is told of in a message of their own: the dealer's reveal (and his draw) and the end
    of the round with each box's result (a folded box's too: the engine settles every box for the table at the
    end)."""
    if isinstance(event, DealerCardsShown):
        return event.qualifies is not None
    if isinstance(event, StakesSettled):
        return event.final and ending
    return isinstance(event, (DealerDrew, RoundEnded))


def settled_text(voice: Voice, event: StakesSettled) -> str:
    """A box's public result: outcome and net, the hand in words with its cards (unless folded), then every stake
    line with what paid it, side bets settled on the deal included: "Ann, box 1: wins (+40) — pair of kings, ace
    kicker: K♠ K♦ A♣ 7♥ 2♦; ANTE 0 · BET +40 (pair of kings + second combination: ace-king, ×2)". A win that its fees
    and lost side bets outweigh says so: "wins against the dealer, but ends down (−30)"; so does a loss its side bets
    outweigh: "loses to the dealer, but ends up (+10)".

    A folded box's cards are not listed, but a side bet the rule pays on them whether the box plays or folds (Three
    Card Poker's PAIRPLUS, Caribbean's bonus: RULES.md §4, §5) is paid naming the hand that won it ("folded (−5);
    PAIRPLUS +5 (a pair of nines, five kicker, ×1)"), as a card room's dealer pays a folded hand's Pair Plus face
    up: the payout must be shown, its multiple names the hand's category anyway, the round is over when the table
    reads it, and in a game against the house no other player's hand depends on it. A lost one names nothing."""
    net = sum(event.results.values()) + sum(event.earlier.values()) - sum(event.fees.values())
    outcome = voice.t(f"house.outcome.{event.outcome}")
    # fees (a lost side bet) outweigh the win, or a side bet the loss: "wins" or "loses" alone would mislead
    if event.outcome in ("won", "won_on_suit") and net <= 0:
        outcome = voice.t("house.outcome.won_down" if net else "house.outcome.won_even")
    elif event.outcome in ("lost", "lost_on_suit") and net >= 0:
        outcome = voice.t("house.outcome.lost_up" if net else "house.outcome.lost_even")
    text = voice.t("house.settled", player=voice.name(event.player), box=event.box, outcome=outcome,
                   net=signed(net))
    if event.hand and event.cards and event.outcome != "folded":
        text += " — " + voice.t("house.hand_cards", hand=hands.describe(voice, event.hand, event.ranks),
                                cards=cards_text(event.cards))
    stakes = _stake_lines(voice, {**event.earlier, **event.results}, (*event.earlier_payouts, *event.payouts),
                          event.max_payout, event.fees)
    return f"{text}; {stakes}." if stakes else f"{text}."


def _stake_lines(voice: Voice, results: dict[str, int], payouts: Iterable[Payout], max_payout: int | None,
                 fees: Mapping[str, int] | None = None) -> str:
    """Each stake line's result, a won line with the hand that paid it and its multiple ("BET +40 (flush, ace
    high, ×4)", a half payout with the whole it halves), then each fee the box paid ("exchange fee −10"), joined
    by " · ", so that they add up to the box's net; and when the table's maximum payout cut them (`max_payout`),
    that it did ("payout capped at the table's maximum of 10,000")."""
    paid: dict[str, list[Payout]] = {}
    for payout in payouts:
        paid.setdefault(payout.line, []).append(payout)
    out = []
    for line, net in results.items():
        by = paid.get(line) if net > 0 else None
        if by:
            names = [hands.describe(voice, payout.hand, payout.ranks) for payout in by]
            what = names[0] if len(names) == 1 else voice.t("house.second_combination", first=names[0],
                                                            second=names[1])
            out.append(voice.t("house.line_half" if by[0].half_of else "house.line_paid",
                               stake=stake_label(voice, line), net=signed(net), hand=what,
                               multiple=sum(payout.multiple for payout in by), whole=by[0].half_of))
        else:
            out.append(f"{stake_label(voice, line)} {format_number(voice.language, signed(net))}")
    out += [voice.t(f"house.fee.{reason}", net=signed(-amount)) for reason, amount in (fees or {}).items()]
    capped = voice.t("house.max_payout_applied", max=max_payout) if max_payout is not None else ""
    return "; ".join(part for part in (" · ".join(out), capped) if part)


def stake_label(voice: Voice, name: str) -> str:
    """A stake's name (`ante` → "ANTE", «АНТЕ») in the chat's language; upper-cased when it has no message."""
    try:
        return voice.t(f"stake.{name}")
    except KeyError:
        return name.upper()


def hand_label(voice: Voice, name: str) -> str:
    """A hand's name (`full_house` → "full house") in the chat's language; empty for none."""
    return hands.category_label(voice, name)

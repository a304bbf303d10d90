"""Hold'em (and Omaha) text: the public table, the buttons for the player to act, a player's hole cards, and the
hand's story."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from bot.command_parser import button_payload
from bot.i18n import format_number, text
from bot.output import Button
from bot.render import Narration, Told, Voice, cards_text, hands, story
from engine import holdem as engine
from engine.betting import BettingStructure, blinds
from engine.cards import Card
from engine.common import Event
from engine.hands import HandCategory
from engine.runs import ANSWER_SECONDS
from engine.text import inert


def seats_text(voice: Voice, state: Mapping[str, Any], variant: engine.Variant = engine.Variant.HOLDEM,
               stopped: str = "", comeback: str = "", record: str | None = None, *, alone: bool = False) -> str:
    """Between hands: who sits with how many chips (`state`: the table's snapshot), who won the last hand (until the
    next deal: this message takes the place of that hand's, whose story said it), then what the next hand waits
    for; `stopped`: why a tournament deals no hand now (its break or paused clock), "" when it deals; `comeback`: in
    a tournament down to one player, who may still come back and how, said instead of waiting for a second player to
    sit down (which a tournament does not offer); `record`: the `seats_record` when the caller wrote it already;
    `alone`: the table is in a private chat, where nobody else can sit down: what its player may play there instead."""
    lines = [seats_record(voice, state, variant) if record is None else record]
    waiting = _waiting(state)
    if waiting == "holdem.waiting_for_players" and not state.get("seats") and not state.get("tournament"):
        waiting = "holdem.nobody_seated"
    elif alone and waiting == "holdem.waiting_for_players" and not state.get("tournament"):
        waiting = "holdem.waiting_alone"
    if comeback and waiting == "holdem.waiting_for_players":
        lines.append(comeback)
    else:
        lines.append(stopped if stopped and waiting is None else voice.t(waiting or "holdem.between_hands"))
    return "\n".join(lines)


def seats_record(voice: Voice, state: Mapping[str, Any], variant: engine.Variant = engine.Variant.HOLDEM) -> str:
    """The seats between hands as the chat's record keeps them once the table moved on (`TableMessage.retired`):
    who sat with how many chips and who won the last hand, `seats_text` without what the next hand waited for."""
    lines = [voice.t("holdem.seats_title_omaha" if variant is engine.Variant.OMAHA else "holdem.seats_title")]
    # away at a cash table, a player skips hands; in a tournament he is dealt in and blinded out
    away = voice.t("holdem.sitting_out_tournament" if state.get("tournament") else "holdem.sitting_out")
    for seat in state.get("seats", []):
        status = away if seat["out"] else ""
        if seat.get("back") in ("ask", "wait"):  # returning at a cash table (see `bot.games.holdem_away`)
            status = voice.t("holdem.waiting_big_blind")
        lines.append(f"  {voice.name(seat['id'])} — {format_number(voice.language, seat['stack'])} {status}".rstrip())
    if last := state.get("last_hand"):
        lines.append(last_hand_line(voice, last))
    return "\n".join(lines)


def last_hand_line(voice: Voice, last_hand: Mapping[str, Any]) -> str:
    """Who won the finished hand `last_hand` (its `Hand.to_dict`) and how much, over all its pots ("Hand #12: Bob
    wins 30.")."""
    result = engine.HandResult.from_dict(last_hand["result"])
    won: dict[str, int] = {}
    for pot in result.pots:
        for player, chips in pot.winners.items():
            won[player] = won.get(player, 0) + chips
    winners = ", ".join(voice.t("holdem.last_won", player=voice.name(player), chips=chips)
                        for player, chips in won.items() if chips)
    return voice.t("holdem.last_hand", number=last_hand["hand_number"], winners=winners)


def _waiting(state: Mapping[str, Any]) -> str | None:
    """Why no hand can be dealt yet (the message that says so), or None when the next one can be."""
    tournament = state.get("tournament")
    if tournament and tournament["engine"].get("phase") == "registering":
        return "holdem.waiting_for_start"
    if sum(1 for seat in state.get("seats", []) if seat["stack"] > 0) < 2:
        return "holdem.waiting_for_players"
    return None


def idle_buttons(voice: Voice, state: Mapping[str, Any], key: str, decision: str,
                 offers: tuple[Button, ...] = (), *, stopped: bool = False) -> tuple[Button, ...]:
    """Between hands: deal the next hand (`decision`: the state the button acts on, see `button_payload`); no Deal
    button while registration is open, fewer than two players have chips, or the tournament is `stopped` (a break
    or a paused clock), when the text says what it waits for.
    `offers` are the game's own buttons between hands (a tournament's Rebuy and Add-on), shown in any case, as is
    "Show my cards" while the winner of an uncontested pot may still show."""
    shows = (Button(voice.t("button.show_won"), button_payload(key, "show", decision)),) if state.get(
        "won_uncontested") else ()
    if stopped or _waiting(state) is not None:
        return (*shows, *offers)
    return (*shows, Button(voice.t("button.deal"), button_payload(key, "deal", decision)), *offers)


def after_hand_buttons(voice: Voice, hand: engine.Hand, key: str, decision: str) -> tuple[Button, ...]:
    """The buttons of a hand just ended: "Show my cards" for the winner of an uncontested pot (anyone may press it;
    only he is obeyed), none after a showdown."""
    if hand.result is None or hand.result.went_to_showdown:
        return ()
    return (Button(voice.t("button.show_won"), button_payload(key, "show", decision)),)


@dataclass(slots=True)  # not frozen, though never changed: a frozen class of this many fields takes ~8 µs to make
class HandView:
    """What the public table shows of a hand at one moment, copied out of the live `Hand` (which goes on changing):
    the table's text and buttons may then be made later, only if an adapter shows them (see `TableMessage`)."""

    hand_number: int
    level: int
    structure: BettingStructure
    variant: engine.Variant
    board: tuple[Card, ...]
    second_board: tuple[Card, ...]
    pot_total: int
    current_bet: int
    players: tuple[str, ...]
    button: str
    stacks: dict[str, int]
    bets: dict[str, int]
    folded: frozenset[str]
    acted: tuple[str, ...]
    """The players who have acted on this street (see `engine.holdem.Hand.acted`)."""
    to_act: str | None
    owed: int
    """The chips the player to act must put in to call (0 when he may check, or nobody is to act)."""
    runs_asked: tuple[str, ...]
    showing: str | None
    is_over: bool

    # written out, not generated: see bot/compiled.py
    def __init__(self, hand_number: int, level: int, structure: BettingStructure, variant: engine.Variant,
                 board: tuple[Card, ...], second_board: tuple[Card, ...], pot_total: int, current_bet: int,
                 players: tuple[str, ...], button: str, stacks: dict[str, int], bets: dict[str, int],
                 folded: frozenset[str], acted: tuple[str, ...], to_act: str | None, owed: int,
                 runs_asked: tuple[str, ...], showing: str | None, is_over: bool) -> None:
        self.hand_number = hand_number
        self.level = level
        self.structure = structure
        self.variant = variant
        self.board = board
        self.second_board = second_board
        self.pot_total = pot_total
        self.current_bet = current_bet
        self.players = players
        self.button = button
        self.stacks = stacks
        self.bets = bets
        self.folded = folded
        self.acted = acted
        self.to_act = to_act
        self.owed = owed
        self.runs_asked = runs_asked
        self.showing = showing
        self.is_over = is_over


def hand_view(hand: engine.Hand) -> HandView:
    """The public table of `hand` as it is now."""
    to_act = hand.to_act
    return HandView(hand.hand_number, hand.level, hand.structure, hand.variant, hand.board, hand.second_board,
                    hand.pot_total, hand.current_bet, hand.players, hand.button, hand.stacks, hand.bets, hand.folded,
                    hand.acted, to_act, hand.legal_actions().call_amount if to_act else 0, hand.runs_asked,
                    hand.showing, hand.is_over)


def table_text(voice: Voice, hand: HandView, story: Sequence[str] = (), seconds: int | None = None) -> str:
    """The hand as everyone may see it: level, board, pot, each player's stack and bet, the button, the story of
    the street (its latest lines, under the seats after a blank line), and whose turn it is, with the `seconds` his
    turn lasts (the turn timer's: a fixed figure, so the message needs no edit to count it down)."""
    lines = [title(voice, hand)]
    board = cards_text(hand.board) if hand.board else "—"
    lines.append(voice.t("holdem.board", board=board, pot=hand.pot_total))
    if hand.second_board:
        lines.append(voice.t("holdem.second_board", board=cards_text(hand.second_board)))
    bets, stacks, folded = hand.bets, hand.stacks, hand.folded
    for player in hand.players:
        marks = []
        if player == hand.button:
            marks.append("Ⓓ")
        if player in folded:
            marks.append(voice.t("holdem.folded"))
        elif stacks[player] == 0 and not hand.is_over:
            marks.append(voice.t("holdem.all_in"))
        if bets.get(player) and not hand.is_over:
            marks.append(voice.t("holdem.bet", chips=bets[player]))
        turn = "▶ " if player == hand.to_act else "  "
        stack = format_number(voice.language, stacks[player])
        lines.append(f"{turn}{voice.name(player)} · {stack} {' '.join(marks)}".rstrip())
    if story:
        lines += ["", *story]
    if hand.to_act:  # a call that takes his whole stack (short of the bet or just matching it) is said all-in
        all_in = hand.owed > 0 and hand.owed >= hand.stacks[hand.to_act]
        lines.append(voice.t(
            ("holdem.to_act_all_in_timed" if all_in else "holdem.to_act_owes_timed" if hand.owed
             else "holdem.to_act_timed") if seconds
            else ("holdem.to_act_all_in" if all_in else "holdem.to_act_owes" if hand.owed else "holdem.to_act"),
            player=voice.name(hand.to_act), chips=hand.owed, seconds=seconds))
    elif hand.runs_asked:
        lines.append(voice.t("holdem.runs_waiting", players=", ".join(voice.name(p) for p in hand.runs_asked)))
    elif hand.showing:
        lines.append(voice.t("holdem.show_or_muck", player=voice.name(hand.showing)))
    elif hand.is_over:
        lines.append(voice.t("holdem.hand_over"))
    return "\n".join(lines)


def title(voice: Voice, hand: engine.Hand | HandView) -> str:
    """The hand's heading: its game, number, blinds and betting structure."""
    small, big = hand.structure.blinds(hand.level)
    key = "holdem.title_omaha" if hand.variant is engine.Variant.OMAHA else "holdem.title"
    return voice.t(key, number=hand.hand_number, small=small, big=big,
                   structure=label(voice, "structure", hand.structure.name))


def action_buttons(voice: Voice, hand: HandView, key: str, decision: str,
                   legal: engine.LegalActions | None) -> tuple[Button, ...]:
    """The buttons for what the player to act may do, drawn from the engine's legal actions alone (`legal`, None
    when nobody is to act); each acts only on `decision` (the step it was drawn at), "my cards" on any message of
    the hand. Bets and raises come in the order min-raise, ½ pot, pot, all-in, each with its total; no two buttons do
    the same thing: a call or a raise that puts in the whole stack says "(all-in)" and has no All-in button beside
    it."""
    buttons = [Button(voice.t("button.my_cards"), button_payload(key, "cards"), private=True)]
    if hand.runs_asked:  # any player asked may answer, in any order: the buttons act on the hand, not on a step
        return (*buttons, Button(voice.t("button.run_once"), button_payload(key, "run once")),
                Button(voice.t("button.run_twice"), button_payload(key, "run twice")))
    if hand.showing:
        return (*buttons, Button(voice.t("button.show"), button_payload(key, "show", decision)),
                Button(voice.t("button.muck"), button_payload(key, "muck", decision)))
    if hand.to_act is None or legal is None:
        return tuple(buttons)
    sized = legal.max_to > legal.min_to  # only a free size has ½ pot and pot buttons, drawn from the bet and the pot
    spot = (legal.can_fold, legal.can_check, legal.call_amount, legal.can_bet, legal.can_raise, legal.min_to,
            legal.max_to, legal.all_in)
    choices = _choices(voice.language, spot, hand.current_bet if sized else 0, hand.pot_total if sized else 0)
    return (*buttons, *(Button(label, button_payload(key, command, decision)) for label, command in choices))


Spot = tuple[bool, bool, int, bool, bool, int, int, int]
"""What a player's buttons are drawn from, of his `LegalActions`: can fold, can check, call amount, can bet, can
raise, min to, max to, all-in (`action_buttons` makes it, `_choices` reads it back by these names)."""


@lru_cache(maxsize=4096)
def _choices(language: str, spot: Spot, current_bet: int, pot: int) -> tuple[tuple[str, str], ...]:
    """The labels and commands of the buttons for the legal actions `spot` (see `action_buttons`): the same for every
    player at every table in the same spot, so written once rather than at each action. Cached by a tuple, not by the
    `LegalActions`: its player would make every player's spots apart, and its hash and equality are Python functions
    (`dataclass`'s) where compiled code hashes a tuple in C."""
    can_fold, can_check, call_amount, can_bet, can_raise, min_to, max_to, all_in = spot
    choices = []
    if can_fold:
        choices.append((text(language, "button.fold"), "fold"))
    if can_check:
        choices.append((text(language, "button.check"), "check"))
    if call_amount:
        word = "button.call_all_in" if 0 < all_in <= call_amount else "button.call"
        choices.append((text(language, word, chips=call_amount), "call"))
    if not (can_bet or can_raise):
        return tuple(choices)
    command = "bet" if can_bet else "raise"
    shove = all_in > 0 and max_to > min_to  # the all-in is a button of its own
    for word, amount in _raise_targets(min_to, max_to, call_amount, current_bet, pot, command):
        if shove and amount == max_to:
            continue
        if all_in and amount == max_to:
            word += "_all_in"
        choices.append((text(language, word, chips=amount), f"{command} {amount}"))
    if shove:
        choices.append((text(language, "button.all_in", chips=all_in), "allin"))
    return tuple(choices)


def _raise_targets(min_to: int, max_to: int, call_amount: int, current_bet: int, pot: int,
                   command: str) -> list[tuple[str, int]]:
    """The bet or raise totals worth a button, each with its message: the minimum, then (when the size is free) half
    the pot and the pot after the call (a pot-sized raise is the call plus the pot it makes), each kept within the
    legal bounds (`min_to`, `max_to`); a total equal to an earlier one is left out."""
    targets = [(f"button.{command}", min_to)]
    if max_to > min_to:
        after_call = pot + call_amount
        targets += [("button.half_pot", current_bet + after_call // 2), ("button.pot", current_bet + after_call)]
    chosen: dict[int, str] = {}
    for word, amount in targets:
        chosen.setdefault(min(max(amount, min_to), max_to), word)
    return [(word, amount) for amount, word in chosen.items()]


def hole_cards_text(voice: Voice, hand: engine.Hand, user_id: str) -> str:
    """A player's own cards (and the board, for context)."""
    cards = cards_text(hand.hole_cards(user_id))
    if hand.board:
        return voice.t("holdem.your_cards_board", cards=cards, board=cards_text(hand.board))
    return voice.t("holdem.your_cards", cards=cards)


_SHOWN_EVENTS = (engine.HandsShown, engine.HandMucked, engine.CardsShown)
"""Events that make a batch a showdown (as does a pot won with a hand)."""
_NOTICED_EVENTS = (*_SHOWN_EVENTS, engine.PotAwarded)
"""At a showdown, the lines the chat should notice: the hands shown and the pots won."""


def narrate(voice: Voice, events: Iterable[Event], shown: engine.HandsShown | None = None) -> Narration:
    """The story's lines for what happened (for the table message); each player's hole cards to him alone; and, at
    a showdown, the hands shown and the pots won as one public notice, for the chat to notice. `shown`: the hands
    already turned up at a showdown played in turn (`Hand.shown_so_far`), which the pots won are described by."""
    events = list(events)
    narration = Narration()
    lines = narration.lines
    notices: list[str] = []
    showdown = any(isinstance(event, _SHOWN_EVENTS) or (isinstance(event, engine.PotAwarded) and event.category)
                   for event in events)
    for event in events:
        if isinstance(event, engine.HoleCardsDealt):
            narration.told.append(Told(event.player, "holdem.your_cards", {"cards": cards_text(event.cards)}))
            continue
        if isinstance(event, engine.HandsShown):  # hands shown in turn add up (on the same board)
            shown = event if shown is None or shown.run != event.run else engine.HandsShown(
                cards={**shown.cards, **event.cards}, categories={**shown.categories, **event.categories},
                ranks={**shown.ranks, **event.ranks}, run=event.run)
        line = _pot_line(voice, event, shown) if isinstance(event, engine.PotAwarded) else _line(voice, event)
        if line:
            lines.append(line)
            if showdown and isinstance(event, _NOTICED_EVENTS):
                notices.append(line)
    narration.notice = "\n".join(notices)
    return narration


def narrate_later(voice: Voice, events: list[Event], shown: engine.HandsShown | None = None
                  ) -> tuple[Narration, list[story.Line]]:
    """As `narrate`, but the story's lines are written only when read (see `story.Later`): the narration to tell now
    (each player's hole cards; its lines empty) and the lines for the story. A showdown is narrated now, its lines
    with its notice. `voice` must not reach a transaction: it names the players with names captured now."""
    if any(isinstance(event, _SHOWN_EVENTS) or (isinstance(event, engine.PotAwarded) and event.category)
           for event in events):
        narration = narrate(voice, events, shown)
        lines: list[story.Line] = list(narration.lines)
        narration.lines = []
        return narration, lines
    narration = Narration()
    later: list[story.Line] = []
    for event in events:
        if isinstance(event, engine.HoleCardsDealt):
            narration.told.append(Told(event.player, "holdem.your_cards", {"cards": cards_text(event.cards)}))
        elif isinstance(event, engine.PotAwarded):  # won uncontested: no hand to describe
            later.append(story.Later(_pot_line, voice, event, None))
        elif isinstance(event, _LINE_EVENTS):
            later.append(story.Later(_line, voice, event))
    return narration, later


def begins_hand(events: Iterable[Event]) -> bool:
    """Whether these events start a hand: its story then starts with them."""
    return any(isinstance(event, engine.HandStarted) for event in events)


_LINE_EVENTS = (engine.HandStarted, engine.BlindPosted, engine.PlayerFolded, engine.PlayerChecked, engine.PlayerCalled,
                engine.PlayerBet, engine.PlayerRaised, engine.ItemPawned, engine.UncalledBetReturned, engine.BoardDealt,
                engine.HandsShown, engine.RabbitHunted, engine.HandMucked, engine.CardsShown, engine.RunsOffered,
                engine.RunsChosen, engine.RunsSettled)
"""The events `_line` writes a line for (every other event but `PotAwarded` has none)."""
STORY_EVENTS = (*_LINE_EVENTS, engine.PotAwarded)
"""The events that tell the story's lines: those of a hand's history, narrated together, tell the lines its
actions told one by one (read back with `bot.render.recorded.read_events` to tell them again)."""


def _line(voice: Voice, event: Event) -> str:
    name = voice.name
    if isinstance(event, engine.HandStarted):
        small, big = blinds(event.level)
        return voice.t("holdem.started", number=event.hand_number, button=name(event.button), small=small, big=big)
    if isinstance(event, engine.BlindPosted):
        return voice.t(f"holdem.blind_{event.blind}", player=name(event.player), chips=event.amount)
    if isinstance(event, engine.PlayerFolded):
        return voice.t("holdem.did_fold", player=name(event.player))
    if isinstance(event, engine.PlayerChecked):
        return voice.t("holdem.did_check", player=name(event.player))
    if isinstance(event, engine.PlayerCalled):
        return voice.t(_all_in("holdem.did_call", event.is_all_in), player=name(event.player), chips=event.amount)
    if isinstance(event, engine.PlayerBet):
        return voice.t(_all_in("holdem.did_bet", event.is_all_in), player=name(event.player), chips=event.amount)
    if isinstance(event, engine.PlayerRaised):
        return voice.t(_all_in("holdem.did_raise", event.is_all_in), player=name(event.player), chips=event.to)
    if isinstance(event, engine.ItemPawned):
        return voice.t("holdem.did_pawn", player=name(event.player), item=inert(event.item), chips=event.value)
    if isinstance(event, engine.UncalledBetReturned):
        return voice.t("holdem.uncalled", player=name(event.player), chips=event.amount)
    if isinstance(event, engine.BoardDealt):
        line = voice.t(f"holdem.street.{event.street!s}", cards=cards_text(event.cards),
                       board=cards_text(event.board))
        return _on_run(voice, line, event.run)
    if isinstance(event, engine.HandsShown):
        shown = "; ".join(f"{name(player)}: {cards_text(cards)} ({_said(voice, event, player)})"
                          for player, cards in event.cards.items())
        return _on_run(voice, voice.t("holdem.showdown", shown=shown), event.run)
    if isinstance(event, engine.RabbitHunted):
        return voice.t("holdem.rabbit" if event.board else "holdem.rabbit_preflop", player=name(event.player),
                       number=event.hand_number, board=cards_text(event.board), cards=cards_text(event.cards))
    if isinstance(event, engine.HandMucked):
        return voice.t("holdem.did_muck", player=name(event.player))
    if isinstance(event, engine.CardsShown):
        return voice.t("holdem.did_show", player=name(event.player), cards=cards_text(event.cards))
    if isinstance(event, engine.RunsOffered):
        return voice.t("holdem.runs_offered", seconds=ANSWER_SECONDS)
    if isinstance(event, engine.RunsChosen):
        return voice.t("holdem.runs_chose_twice" if event.twice else "holdem.runs_chose_once",
                       player=name(event.player))
    if isinstance(event, engine.RunsSettled):
        return voice.t("holdem.runs_twice" if event.count == 2 else "holdem.runs_once")
    return ""


def _on_run(voice: Voice, line: str, run: int) -> str:
    """A line of a hand run twice, marked with its board ("First board — Flop: …")."""
    return voice.t(f"holdem.on_run.{run}", line=line) if run else line


def _said(voice: Voice, shown: engine.HandsShown, player: str) -> str:
    """A shown hand in a card room's words ("two pair, kings and sevens, ace kicker")."""
    ranks = shown.ranks.get(player, ())
    return hands.describe(voice, hands.five_card_name(shown.categories[player], ranks), ranks)


def _pot_line(voice: Voice, event: engine.PotAwarded, shown: engine.HandsShown | None) -> str:
    """Who won a pot and with what; at a showdown where the runner-up held the same category, what decided it; a
    split pot says the hands were equal."""
    name = voice.name
    pot = voice.t("holdem.main_pot") if event.pot_index == 0 else voice.t("holdem.side_pot", number=event.pot_index)
    if len(event.winners) > 1:
        winners = ", ".join(f"{name(player)} {format_number(voice.language, chips)}"
                            for player, chips in event.winners.items())
    else:
        winners = ", ".join(name(player) for player in event.winners)
    return _on_run(voice, _pot_words(voice, event, shown, pot, winners), event.run)


def _pot_words(voice: Voice, event: engine.PotAwarded, shown: engine.HandsShown | None, pot: str,
               winners: str) -> str:
    name = voice.name
    if not event.category:
        return voice.t("holdem.pot_won", pot=pot, chips=event.amount, winners=winners)
    winner = next(iter(event.winners))
    if shown is None or winner not in shown.categories:
        hand = hand_label(voice, event.category)
    else:
        hand = _said(voice, shown, winner)
    if len(event.winners) > 1:
        return voice.t("holdem.pot_split", pot=pot, chips=event.amount, winners=winners, hand=hand)
    runner_up = _runner_up(event, shown)
    if shown is not None and runner_up is not None and shown.categories[runner_up] == event.category:
        decided = hands.decided(voice, event.category, name(winner), shown.ranks.get(winner, ()), name(runner_up),
                                shown.ranks.get(runner_up, ()))
        if decided:
            return voice.t("holdem.pot_won_decided", pot=pot, chips=event.amount, winners=winners, hand=hand,
                           decided=decided)
    return voice.t("holdem.pot_won_with", pot=pot, chips=event.amount, winners=winners, hand=hand)


def _runner_up(event: engine.PotAwarded, shown: engine.HandsShown | None) -> str | None:
    """The best hand shown among the pot's players who did not win it (None when nobody else showed)."""
    if shown is None:
        return None
    others = [player for player in event.eligible if player not in event.winners and player in shown.categories]
    return max(others, default=None, key=lambda player: (HandCategory[hands.category_key(
        shown.categories[player]).upper()], shown.ranks.get(player, ())))


def _all_in(message: str, is_all_in: bool) -> str:
    """The message for an action, or its all-in form ("Bob calls 60, all-in.") when it put in the whole stack."""
    return f"{message}_all_in" if is_all_in else message


def label(voice: Voice, kind: str, name: str) -> str:
    """An engine name (`home-limit`) in the chat's language from the `<kind>.<name>` message, else the name itself."""
    try:
        return voice.t(f"{kind}.{name}")
    except KeyError:
        return name


def hand_label(voice: Voice, name: str) -> str:
    """A hand category's name in the chat's language."""
    return hands.category_label(voice, name)

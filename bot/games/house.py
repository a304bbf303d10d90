"""The house-game controller: ANTE on boxes, the deal, box-by-box decisions and settlement against the dealer."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from bot import commands as cmd
from bot.command_parser import whole_number
from bot.games.context import UNREADABLE, Action, Refusal, revive_into
from bot.games.house_buttons import buttons, decision_tag
from bot.games.house_settings import bet_seconds, configure, table_rules, turn_seconds
from bot.games.house_void import give_back
from bot.i18n import message
from bot.output import TableMessage
from bot.render import Voice, story
from bot.render import house as render
from bot.render import picture_views as picture
from bot.render.recorded import read_events
from engine.cards import Card, CardError, Deck
from engine.common import Event, RuleError, all_moves
from engine.house import GAMES
from engine.house.actions import ActionOption, Shortfall
from engine.house.common import HouseRound, Phase
from engine.reasons import Reason
from engine.text import quote_input

new_deck: Callable[[random.Random], Deck] = Deck
"""Where a round's deck comes from: a new deck shuffled by the table's random source. A variable, not a call of
`Deck` itself, so that a test stacking the deck reaches the compiled build too (compiled code calls a class or a
function directly, whatever a module's name for it becomes; a variable it reads anew)."""

_COMMAND_ACTIONS: dict[type[cmd.Command], tuple[str, ...]] = {
    cmd.Fold: ("fold",),
    cmd.Play: ("play", "bet"),
    cmd.Bet: ("bet", "play"),
    cmd.Call: ("play", "bet"),
    cmd.Buy: ("buy",),
    cmd.Exchange: ("exchange", "re_exchange"),
    cmd.DealerGame: ("dealer_game",),
    cmd.Decline: ("decline",),
}
"""The decisions each command may mean, in order: the first the box can take now is taken (`/bet` and `/play` both
mean Texas Poker's BET or the other games' PLAY)."""

_USED: tuple[type[cmd.Command], ...] = (cmd.Ante, cmd.Deal, cmd.Select, cmd.Table, cmd.Join, cmd.Leave, cmd.Setting,
                                        cmd.AddBot, *_COMMAND_ACTIONS)
"""The commands a house table answers (`HouseController.handle`); any other game command is not used here."""


class HouseController:
    """Plays one house game (`texas`, `russian`, `caribbean`, `three-card`) at a table, against the bot as dealer.

    State: `round` (the engine round's dict, None between rounds), `number` (the current or last round's, from the
    table's counter, which Hold'em hands share) and `story` (the round's latest lines, see `bot.render.story`). Local
    engine accounts map to the ledger as `player:<id>` → the player's wallet, `box:<id>:<n>` → `box:<table>:<id>:<n>`,
    `house` → `house:<chat>`.
    """

    def __init__(self, game: str) -> None:
        self.game = game
        self.round_type = GAMES[game]
        self.side_bet: str | None = str(self.round_type.side_name)

    # --- the Controller protocol ----------------------------------------------------------------------------

    def current_key(self, act: Action) -> str | None:
        """`r<number>` while a round is in play."""
        return _round_key(act) if act.state.get("round") else None

    def decision(self, act: Action) -> tuple[str, str] | None:
        """The round and what its buttons act on now (see `decision_tag`), while a round is in play."""
        round_ = self._round(act)
        if round_ is None:
            return None
        return _round_key(act), decision_tag(round_, self._step(act))

    def stale_decision(self, act: Action, decision: str, command: cmd.Command) -> Refusal | None:
        """An old button of a box's decision taken since (`decision`, `b1s4`): its presser's own, pressed for what he
        did then, "already done" (a double click); his own of another choice, that the decision is over; another
        player's, that it was that player's box. None for a decision this round did not take (Deal's `bets`)."""
        taken = act.state.get("decided", {}).get(decision)
        if taken is None:
            return None
        owner, action = taken
        box = int(decision[1:].partition("s")[0])
        if owner != act.user:
            return act.refuse("house.stale_not_yours", player=act.name(owner), box=box)
        if action in _COMMAND_ACTIONS.get(type(command), ()):
            return act.refuse("already_done")
        return act.refuse("house.stale_decision", box=box)

    def is_busy(self, act: Action) -> bool:
        """Chips are on boxes while a round is in play."""
        return bool(act.state.get("round"))

    def uses(self, command: type[cmd.Command]) -> bool:
        """Bets, the deal, the decisions this game has (RULES.md: `/dealergame` is Russian Poker's, `/buy` no part of
        Caribbean Poker), seating in the sense a house table has it, its settings (and /addbot, to say that it is
        Hold'em's)."""
        meanings = next((names for kind, names in _COMMAND_ACTIONS.items() if issubclass(command, kind)), None)
        if meanings is not None:
            return any(name in self.round_type.actions for name in meanings)
        return issubclass(command, _USED)

    def exchange_positions(self) -> tuple[int, ...]:
        """A box's cards, 1 to its last (two at Texas Poker, RULES.md §2; five at Russian and Caribbean Poker), where
        the game exchanges (Caribbean Poker's second exchange takes one of them); none at Three Card Poker."""
        if not {"exchange", "re_exchange"} & set(self.round_type.actions):
            return ()
        return tuple(range(1, self.round_type.box_cards + 1))

    def usage(self, command: type[cmd.Command], config: dict[str, Any], language: str) -> str | None:
        """`/ante` with only the boxes and the side bet this table has; None for the other commands."""
        if command is not cmd.Ante:
            return None
        limits = table_rules(self.round_type, config).limits
        return render.ante_options(Voice(language), limits, self.round_type.side_name)

    def handle(self, act: Action, command: cmd.Command) -> None:
        """Bets, the deal and decisions."""
        if not self.uses(type(command)):
            raise act.wrong_game(command.name, self.game)
        if isinstance(command, cmd.Ante):
            self._ante(act, command)
        elif isinstance(command, cmd.Deal):
            self._deal(act)
        elif isinstance(command, cmd.Select):
            self._select(act, command)
        elif isinstance(command, cmd.Table) and self._round(act) is None:
            act.tell(act.user, "house.no_round")  # no table message between rounds: told (a refusal drops the table)
        elif isinstance(command, (cmd.Join, cmd.Table)):
            self.retell(act)  # the chat's `/lang` at another of its tables
            act.show_table(self.table_message(act))
            if isinstance(command, cmd.Join):
                if command.chips is not None:  # RULES.md: house games play from the wallet; there is no buy-in
                    act.tell(act.user, "house.join_no_buy_in", typed=str(command.chips))
                rules = self._rules(act)
                blind_box = getattr(rules, "blind_box", None)
                with act.privately(act.user):
                    act.reply.tell(act.user, render.how_to_bet(act.voice, self.game, rules.limits,
                                                               self.round_type.side_name, blind_box))
        elif isinstance(command, cmd.Leave):
            act.tell(act.user, "house.leave")
        elif isinstance(command, cmd.Setting):
            configure(act, self.game, self._rules(act), command)
        elif type(command) in _COMMAND_ACTIONS:
            self._decide(act, command)
        elif isinstance(command, cmd.AddBot):
            raise act.refuse("odds.bot_holdem_only")

    def on_timer(self, act: Action, key: str, payload: dict[str, Any]) -> bool:
        """Bets close (deal), or a box ran out of time (fold / decline); False when the timer is stale (its round is
        over, its box has acted)."""
        round_ = self._round(act)
        if round_ is None or payload.get("round") != act.state.get("number"):
            return False
        if payload.get("kind") == "close_bets" and round_.phase is Phase.BETTING:
            self._deal(act, by_timer=True)
            return True
        if payload.get("kind") == "turn" and round_.to_act is not None and payload.get("step") == self._step(act):
            player, box = round_.to_act
            names = round_.legal_actions().names
            action = "decline" if "decline" in names else "fold"
            self._apply(act, round_, player, action, [], [act.t("house.timed_out", player=act.name(player), box=box)])
            return True
        return False

    def resume(self, act: Action) -> bool:
        """A saved round that cannot be read back is voided: every box's chips go back to their owner. False when it
        reads back (nothing to do)."""
        try:
            self._round(act)
        except UNREADABLE:
            self._void(act)
            return True
        return False

    def revive(self, state: dict[str, Any]) -> bool:
        """The stored round (if any) read back into a live round; False when it does not read back."""
        return revive_into(state, "round", self.round_type.from_dict)

    def table_message(self, act: Action) -> TableMessage | None:
        """The round's public view with the buttons for the box to act."""
        round_ = self._round(act)
        if round_ is None:
            return None
        key = self.current_key(act) or ""
        seconds = turn_seconds(act.config) if round_.to_act else None  # the turn timer's, shown
        drawn = buttons(act, round_, key, self._step(act), self._marked(act, round_))
        return TableMessage(key, render.table_text(act.voice, self.game, round_, act.state["number"],
                                                   story.shown(act.state), seconds),
                            tuple(drawn), self._to_act(round_))

    def private_view(self, act: Action, user_id: str) -> str | None:
        """The player's own boxes and cards."""
        round_ = self._round(act)
        return render.private_boxes(act.voice, round_, user_id) if round_ is not None else None

    def private_picture(self, act: Action, user_id: str) -> None:
        """A picture of the player's own boxes' cards for him alone, when pictures are on."""
        round_ = self._round(act)
        if round_ is not None:
            rows = picture.house_rows(act.voice, round_, user_id)
            if (drawing := picture.private_picture(act.voice, act.config, user_id, rows)) is not None:
                act.drawings.append(drawing)

    def retell(self, act: Action) -> None:
        """After the chat's `/lang` during a round: its story told again in the chat's new language (`story.retell`),
        from the round's events as its history holds them, and its boxes' time-out lines; nothing to do when it was
        told in it already (`story.is_told_in`)."""
        round_ = self._round(act)
        if round_ is None or story.is_told_in(act.state, act.language, act.chat_settings):
            return
        events = read_events(render.STORY_EVENTS, act.tx.history(act.place.table_id, _round_key(act)))
        names = {box.owner: act.name(box.owner) for box in round_.boxes}
        story.retell(act.state, act.language,
                     lambda language, name: render.narrate(Voice(language, name), events).lines,
                     lambda language, name: [message(language, "house.timed_out", {"player": name(box.owner),
                                                                                   "box": box.index})
                                             for box in round_.boxes], names)
        story.mark_told(act.state, act.language, act.chat_settings)

    # --- commands ---------------------------------------------------------------------------------------------

    def _ante(self, act: Action, command: cmd.Ante) -> None:
        side_name = self.round_type.side_name
        if command.side_kind is not None and side_name and command.side_kind != side_name:  # `bonus` at Three Card
            raise act.refuse("house.other_side_bet", asked=act.t(f"stake.{command.side_kind}"),
                             stake=act.t(f"stake.{side_name}"))
        round_ = self._round(act)
        if round_ is not None and round_.phase is not Phase.BETTING:
            raise act.refuse("house.round_in_play")
        new = round_ is None
        if round_ is None:
            round_ = self.round_type.new(self._rules(act))
        try:
            if command.side == 0:  # named: none where the table's range starts at 0, else refused with the range
                round_.verify_side(0)
            events = round_.place_bets(act.user, command.box, command.amount, side=command.side or 0,
                                       balance=self._spendable(act, act.user))
        except RuleError as error:
            raise act.rule_refusal(error) from None
        if new:  # numbered once its first box is placed: a refused ANTE counts no round
            act.state["number"] = act.next_number()
        if len(round_.boxes) == 1:
            act.arm(self._timer_key(act), bet_seconds(act.config), kind="close_bets",
                    round=act.state["number"])
        self._commit(act, round_, events, restart=new)
        if new:
            story.mark_told(act.state, act.language, act.chat_settings)

    def _deal(self, act: Action, *, by_timer: bool = False) -> None:
        round_ = self._round(act)
        if round_ is None:
            raise act.refuse("house.no_bets")
        if not by_timer and round_.phase is Phase.BETTING and act.user not in round_.wallets and not act.is_organizer:
            raise act.refuse("house.deal_bettors_only")
        try:
            events = round_.deal(new_deck(act.rng))
        except RuleError as error:
            raise act.rule_refusal(error) from None
        self._commit(act, round_, events)

    def _my_decision(self, act: Action) -> HouseRound:
        """The round in play when one of the actor's boxes is to decide, else the refusal saying why not."""
        round_ = self._round(act)
        if round_ is None:  # none yet, or the last one settled: "not dealt yet" would promise a deal
            raise act.refuse("house.no_round")
        if round_.phase is Phase.BETTING:
            raise act.refuse("house.not_dealt")
        to_act = self._to_act(round_)
        if to_act != act.user:
            if not any(box.owner == act.user for box in round_.boxes):  # his turn will not come in this round
                raise act.refuse("house.no_box")
            raise act.refuse("not_your_turn", player=act.name(to_act) if to_act else "—")
        return round_

    def _decide(self, act: Action, command: cmd.Command) -> None:
        round_ = self._my_decision(act)
        round_.wallets[act.user] = self._spendable(act, act.user)  # another table may have spent from the wallet
        names = round_.legal_actions().names
        short = [shortfall.action for shortfall in round_.shortfalls()]  # refused below with what it needs
        wanted = _COMMAND_ACTIONS[type(command)]
        action = next((name for name in wanted if name in names), None) or next(
            (name for name in wanted if name in short), None)
        if action is None:
            raise _not_now(act, names)
        if isinstance(command, cmd.Bet) and command.amount is not None:
            option = round_.legal_actions().get(action)
            if option is not None and option.cost != command.amount:  # the box's BET has one size: not another
                raise act.refuse("house.bet_fixed", amount=option.cost, typed=command.amount)
        cards: list[str] = []
        if isinstance(command, cmd.Exchange):
            cards = self._chosen_cards(act, round_, command.cards)
            if (option := round_.legal_actions().get(action)) is not None:
                _verify_card_count(act, round_, option, len(cards))
        self._apply(act, round_, act.user, action, cards)

    def _select(self, act: Action, command: cmd.Select) -> None:
        """Toggle cards to exchange: no chip moves, but the marks are kept with the decision, so that whatever redraws
        the table before it is taken (another player's "My cards", a refusal) draws them as they were. A bare `select`
        from a card's button unmarks the last card (pressed again, "already done"); a typed bare /select is told what
        /select does and changes nothing, whatever is marked."""
        round_ = self._my_decision(act)
        legal = round_.legal_actions()
        drawing = next((option for option in legal.options if option.max_cards), None)
        if drawing is None:
            raise _not_now(act, legal.names)
        positions = sorted(set(command.positions))
        if not positions and not command.by_button:
            box = round_.current_box()
            assert box is not None
            raise act.refuse("house.select_usage", count=len(box.cards))
        self._chosen_cards(act, round_, tuple(map(str, command.positions)))  # each a card of the box, or refused
        if len(positions) > drawing.max_cards:  # a mark beyond what the exchange takes would leave no exchange button
            _verify_card_count(act, round_, drawing, len(positions))
        if list(self._marked(act, round_)) == positions:  # a double click: the marks are these already
            raise act.refuse("already_done")
        act.state["marked"] = {"decision": self._marks_key(act, round_), "positions": positions}
        act.show_table(self.table_message(act))

    def _marked(self, act: Action, round_: HouseRound) -> tuple[int, ...]:
        """The card positions the player to act has marked for an exchange in this decision (none in a later one)."""
        marked = act.state.get("marked")
        if not marked or marked["decision"] != self._marks_key(act, round_):
            return ()
        return tuple(marked["positions"])

    def _marks_key(self, act: Action, round_: HouseRound) -> str:
        return f"{act.state.get('number', 0)}:{decision_tag(round_, self._step(act))}"

    # --- helpers ------------------------------------------------------------------------------------------------

    def _apply(self, act: Action, round_: HouseRound, player: str, action: str, cards: list[str],
               said: list[str] | None = None) -> None:
        decision = decision_tag(round_, self._step(act))
        try:
            events = round_.act(player, action, cards)
        except RuleError as error:
            raise _rule_refusal(act, error) from None
        act.state.setdefault("decided", {})[decision] = [player, action]  # for its old buttons (`stale_decision`)
        self._commit(act, round_, events, said)

    def _spendable(self, act: Action, player: str) -> int:
        """What the player may bet at this table now: his wallet (less what other tables keep) and what this table
        keeps for his boxes."""
        return act.balance(act.wallet(player)) + act.balance(act.held(player))

    def _keep_held(self, act: Action, player: str, chips: int, key: str) -> None:
        """Keep `chips` of the player's wallet for his boxes here (moved to or back from the held account), as much
        of them as he has: a draw on one box may leave a later one short (RULES.md §3), which the box then says."""
        held = act.held(player)
        kept = act.balance(held)
        change = min(chips, kept + act.balance(act.wallet(player))) - kept
        if change > 0:
            act.move(act.wallet(player), held, change, Reason.KEPT, key)
        elif change < 0:
            act.move(held, act.wallet(player), -change, Reason.GIVEN_BACK, key)

    def _chosen_cards(self, act: Action, round_: HouseRound, tokens: tuple[str, ...]) -> list[str]:
        box = round_.current_box()
        assert box is not None
        chosen = []
        for token in tokens:
            position = whole_number(token)
            if position is not None:
                if not 1 <= position <= len(box.cards):
                    raise act.refuse("house.bad_position", position=quote_input(token), count=len(box.cards))
                if str(box.cards[position - 1]) in chosen:
                    raise act.refuse("house.position_twice", position=position)
                chosen.append(str(box.cards[position - 1]))
            else:
                try:
                    Card.parse(token)
                except CardError:  # said with the box's own positions: a Texas Poker box has two cards, not five
                    raise act.refuse("house.bad_card", card=quote_input(token), count=len(box.cards)) from None
                chosen.append(token)
        return chosen

    def _commit(self, act: Action, round_: HouseRound, events: list[Event], said: list[str] | None = None, *,
                restart: bool = False) -> None:
        """Write the events' moves and history, tell the story (`said` first: a time-out; `restart` for a new
        round), save the round and re-arm the turn timer."""
        key = _round_key(act)
        moves = all_moves(events)
        for player in dict.fromkeys(move.source.removeprefix("player:") for move in moves
                                    if move.source.startswith("player:")):
            self._keep_held(act, player, 0, key)  # what was kept for his BET pays it (or what he pays now)
        act.apply_moves(moves, lambda name: self._account(act, name), key)
        for player in round_.wallets:
            self._keep_held(act, player, 0 if round_.is_over else round_.held(player), key)
        act.record(key, events)
        story.add(act.state, [*(said or []), *act.tell_narration(render.narrate(act.voice, events))], restart=restart)
        if (drawing := picture.house_picture(act.voice, act.config, self.game, round_, act.state["number"],
                                             events)) is not None:
            act.drawings.append(drawing)
        if restart:
            act.state.pop("decided", None)
        if round_.is_over:
            act.state["round"] = None
            act.state.pop("marked", None)
            act.state.pop("decided", None)
            act.disarm(self._timer_key(act))
            act.show_table(TableMessage(key, render.table_text(act.voice, self.game, round_, act.state["number"],
                                                               story.shown(act.state))))
            story.clear(act.state)
            return
        act.state["round"] = round_  # kept alive in the live table; written with `to_dict` when a snapshot is taken
        act.state["step"] = self._step(act) + 1
        if round_.phase is not Phase.BETTING:
            act.arm(self._timer_key(act), turn_seconds(act.config), kind="turn",
                    round=act.state["number"], step=act.state["step"])
        act.show_table(self.table_message(act))

    def _void(self, act: Action) -> None:
        """Void the round whole, every chip paid into it given back (`give_back`), and say so."""
        give_back(act, _round_key(act), self._account(act, "box:"), self._account(act, "house:"))
        act.state["round"] = None
        act.state.pop("decided", None)
        story.clear(act.state)
        act.disarm(self._timer_key(act))
        act.say("house.voided")

    def _account(self, act: Action, local: str) -> str:
        kind, _, rest = local.partition(":")
        if kind == "player":
            return act.wallet(rest)
        if kind == "box":
            return f"box:{act.place.table_id}:{rest}"
        if kind == "house":
            return f"house:{act.place.chat_id}"
        raise ValueError(f"unknown engine account {local!r}")

    def _round(self, act: Action) -> HouseRound | None:
        """The round in play: the live object, read from the snapshot's dict once (then kept in the state)."""
        data = act.state.get("round")
        if not data or not isinstance(data, dict):
            return data or None
        round_: HouseRound = self.round_type.from_dict(data)
        act.state["round"] = round_
        return round_

    def _rules(self, act: Action) -> Any:
        return table_rules(self.round_type, act.config)

    def _step(self, act: Action) -> int:
        return int(act.state.get("step", 0))

    def _timer_key(self, act: Action) -> str:
        return f"house:{act.place.table_id}"

    def _to_act(self, round_: HouseRound) -> str | None:
        return round_.to_act[0] if round_.to_act else None


def _round_key(act: Action) -> str:
    """The current or last round's key (`r12`: its number, from the table's counter): its history's and its buttons'
    (see `bot.command_parser.is_round_key`)."""
    return f"r{act.state.get('number', 0)}"


def _rule_refusal(act: Action, error: RuleError) -> Refusal:
    """A decision's rule error as a refusal; one the wallet alone refuses says what it needs, as the box's line on
    the table does ("Swap (4 cards) needs 60 with the BET, you have 50"), in the actor's language."""
    short = error.params.get("short")
    if isinstance(short, Shortfall):
        with act.privately(act.actor.user_id if act.actor else None):
            text = render.shortfall_text(act.voice, short, error.params["balance"])
        error = RuleError(error.code, error.message, **{**error.params, "short": text})
    return act.rule_refusal(error)


def _verify_card_count(act: Action, round_: HouseRound, option: ActionOption, count: int) -> None:
    """Refuse an exchange of `count` cards that the option does not take, saying how many it does ("Swap again
    takes 1 card, not 2"), in the actor's language; a count only the wallet refuses is left to say what it needs."""
    if option.min_cards <= count <= option.max_cards or round_.shortfall(option.name, count) is not None:
        return
    key = "house.card_count.exact" if option.min_cards == option.max_cards else "house.card_count"
    with act.privately(act.user):
        name = act.t(f"house.action.{option.name}")
    raise act.refuse(key, action=name, min=option.min_cards, max=option.max_cards, chosen=count)


def _not_now(act: Action, names: tuple[str, ...]) -> Refusal:
    """The refusal of a decision the box cannot take now, naming those it can."""
    with act.privately(act.user):
        return act.refuse("house.not_now", choices=", ".join(act.t(f"house.action.{name}") for name in names))

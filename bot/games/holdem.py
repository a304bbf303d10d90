"""The Hold'em controller (Texas Hold'em, or Pot-Limit Omaha as its variant): dealing hands, the players' actions
and time-outs, and committing what they did; what else a table does is in the `holdem_*` modules beside it (seats,
settings, options, showdown, timers, the table message, the story retold, the end of a hand), which it calls, some
through methods of its own that delegate to them (those that the other modules reach through
`bot.games.holdem_table.HoldemTable`)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from bot import commands as cmd
from bot.games import holdem_away as absence
from bot.games import holdem_preactions as preactions
from bot.games import holdem_retell as retelling
from bot.games import holdem_seats as seats
from bot.games import holdem_settings as settings
from bot.games import holdem_showdown as showdown
from bot.games import holdem_spent as spent
from bot.games import holdem_straddle as straddling
from bot.games import holdem_timebank as timebank
from bot.games import holdem_timers as timers
from bot.games import practice as bots
from bot.games import tournament as tour
from bot.games import tournament_play as tour_play
from bot.games.context import UNREADABLE, Action, Refusal, revive_into
from bot.games.holdem_end import finish
from bot.games.holdem_text import decision_tag, later_buttons, later_text, names_of, seats_message
from bot.games.holdem_void import void
from bot.output import TableMessage
from bot.render import Voice, story
from bot.render import holdem as render
from bot.render import picture_views as picture
from engine import holdem as engine
from engine.betting import STRUCTURES
from engine.cards import Deck
from engine.common import Event, RuleError, all_moves
from engine.seating import next_button
from engine.tournament import Phase

TIMEOUTS_BEFORE_SITTING_OUT = 2
ABSENT_SECONDS = 2
"""How long the turn of a tournament player blinded out (`holdem_away.is_blinded_out`) lasts before it passes (check
or fold), used only for a hand whose snapshot has no engine `absent` mark on his seat: one dealt by a version before
the engine knew absent players (the version that dealt a sitting-out player in and passed his turn after this
pause). A hand dealt now marks him absent (`Hand.start`'s `absent`), and the engine folds his hand the moment his
turn comes, so his turn never reaches the table or a timer. Kept so that such a hand, resumed, plays on as it did."""

new_deck: Callable[[random.Random], Deck] = Deck
"""Where a hand's deck comes from: a new deck shuffled by the table's random source. A variable, not a call of
`Deck` itself, so that a test stacking the deck reaches the compiled build too (compiled code calls a class or a
function directly, whatever a module's name for it becomes; a variable it reads anew)."""


class HoldemController:
    """Texas Hold'em (or Pot-Limit Omaha, `variant`) at a table: a cash game from the players' wallets, or the table
    of a tournament.

    State: `seats` (clockwise: id, stack between hands, `out` when sitting out, `timeouts` in a row, `leaving`),
    `button` (seat index), `number` (the current or last hand's, from the table's counter), `hand` (the engine
    hand's dict while one is played), `story` (the hand's latest lines, see `bot.render.story`), `step` (actions so
    far, and purchases between hands, so a stale time-out or button does nothing) and `tournament` (see
    `bot.games.tournament_play`). Engine accounts map to the
    ledger as `stack:<id>` → `stack:<table>:<id>`, `pot` → `pot:<table>`, `bank` → the tournament bank.
    `last_hand` keeps the finished hand's dict (its deck) for the rabbit hunt until the next hand is dealt;
    `won_uncontested` (whether that hand's winner may still show) and `automuck_off` belong to show or muck (see
    `bot.games.holdem_showdown`).
    """

    side_bet: str | None = None  # no house to bet beside

    def usage(self, command: type[cmd.Command], config: dict[str, Any], language: str) -> str | None:
        """Hold'em's commands take what their general usage says."""
        return None

    def __init__(self, variant: engine.Variant = engine.Variant.HOLDEM) -> None:
        self.variant = variant
        self.defaults = {**settings.DEFAULTS, "structure": settings.VARIANT_STRUCTURES[variant][0],
                         "max_seats": min(settings.DEFAULTS["max_seats"], variant.max_players)}

    # --- the Controller protocol ----------------------------------------------------------------------------

    def current_key(self, act: Action) -> str | None:
        """`h<number>` while a hand is played."""
        return f"h{act.state.get('number', 0)}" if act.state.get("hand") else None

    def decision(self, act: Action) -> tuple[str, str] | None:
        """The hand (the last one between hands) and the step its buttons are drawn for, while there is a table."""
        if not act.state.get("hand") and not act.state.get("seats"):
            return None
        return f"h{act.state.get('number', 0)}", decision_tag(act.state.get("step", 0))

    def is_busy(self, act: Action) -> bool:
        """Chips are on the table while anyone is seated or a tournament runs."""
        return bool(act.state.get("seats")) or bool(act.state.get("tournament"))

    def uses(self, command: type[cmd.Command]) -> bool:
        """Seating, dealing, betting actions, settings, the showdown's and the tournament's commands."""
        return command in _HANDLERS or issubclass(command, (*tour.COMMANDS, *_ACTIONS, *showdown.COMMANDS))

    def handle(self, act: Action, command: cmd.Command) -> None:
        """Seating, dealing, betting actions, settings and the tournament commands."""
        act.state.setdefault("seats", [])
        handler = _HANDLERS.get(type(command))
        if handler is not None:
            handler(self, act, command)
        elif isinstance(command, tour.COMMANDS):
            tour.handle(self, act, command)
        elif isinstance(command, _ACTIONS):
            self._act(act, command)
        elif isinstance(command, showdown.COMMANDS):
            showdown.handle(self, act, command)
        else:
            raise act.wrong_game(command.name, self.variant.value)

    def on_timer(self, act: Action, key: str, payload: dict[str, Any]) -> bool:
        """A turn ran out, the next hand is due, the tournament clock has something to say (`holdem_timers`)."""
        return timers.on_timer(self, act, key, payload)

    def retell(self, act: Action) -> None:
        """The hand's story in the chat's new language, after its `/lang` (`holdem_retell`)."""
        retelling.retell(self, act)

    def resume(self, act: Action) -> bool:
        """A hand whose snapshot cannot be read back is voided and every chip in it returned; computer players left
        alone at a cash table between hands stand up (see `revive`). False when there was nothing to do."""
        try:
            self._hand(act)
        except UNREADABLE:
            void(self, act)
            return True
        if not bots.stand_up_alone(self, act):
            return False
        act.show_table(self.table_message(act))
        return True

    def revive(self, state: dict[str, Any]) -> bool:
        """The stored hand (if any) read back into a live `Hand`; False when it does not read back, or when only
        computer players sit at a cash table between hands (an older version, or a crash, left them so): `resume`
        then stands them up. With a hand in play they play it out on their timers and stand up when it ends."""
        return revive_into(state, "hand", engine.Hand.from_dict) and not bots.left_alone(state)

    def table_message(self, act: Action, hand: engine.Hand | None = None,
                      names: dict[str, str] | None = None) -> TableMessage | None:
        """The hand's public view with the buttons for the player to act (or the seats between hands, none once the
        last player stood up); `names`: the hand's players' names when the caller read them already."""
        hand = hand or self._hand(act)
        key, decision = self.decision(act) or (f"h{act.state.get('number', 0)}", decision_tag(act.state.get("step", 0)))
        if hand is None:
            return seats_message(self, act, key, decision)
        view = render.hand_view(hand)
        player = view.to_act  # his turn's time, unless a bot's (a moment) or his time bank runs (its own line)
        seconds = None if not player or bots.is_bot(player) or act.state.get("bank_run") else self._turn_limit(
            act, player)
        text = later_text(act, view, names or names_of(act, hand), timebank.bank_line(act),
                           tour_play.pawn_line(act, hand), seconds=seconds)
        return TableMessage(key, text, later_buttons(act, hand, view, key, decision), view.to_act or view.showing)

    def private_view(self, act: Action, user_id: str) -> str | None:
        """The player's hole cards."""
        hand = self._hand(act)
        if hand is None or user_id not in hand.players:
            return None
        return render.hole_cards_text(act.voice, hand, user_id)

    def private_picture(self, act: Action, user_id: str) -> None:
        """A picture of the player's hole cards (and the board) for him alone, when pictures are on."""
        hand = self._hand(act)
        if hand is not None and user_id in hand.players:
            rows = picture.holdem_rows(act.voice, hand, user_id)
            if (drawing := picture.private_picture(act.voice, act.config, user_id, rows)) is not None:
                act.drawings.append(drawing)

    # --- seats --------------------------------------------------------------------------------------------------

    def config(self, act: Action, name: str) -> Any:
        """A table setting, or its default."""
        return act.config.get(name, self.defaults[name])

    def seat(self, act: Action, user_id: str) -> dict[str, Any] | None:
        """The player's seat, if he sits here."""
        seats: list[dict[str, Any]] = act.state["seats"]
        for seat in seats:
            if seat["id"] == user_id:
                return seat
        return None

    def not_playing(self, act: Action) -> Refusal:
        """Why the actor takes no part in the hand (or may not deal): seated but not dealt in, not seated, or knocked
        out of the table's tournament (told so, and how he may still come back: `tour_play.out_refusal`)."""
        if self.seat(act, act.user) is not None:
            return act.refuse("holdem.not_in_hand")
        return tour_play.out_refusal(act) or act.refuse("not_seated")

    def no_hand(self, act: Action) -> Refusal:
        """Why a hand's command finds no hand in play: on a tournament's break or with its clock paused, that (no
        hand is dealt before the clock goes on, /deal neither); before its start, what deals its first hand
        (/tournament start, not /deal); to a player not seated, that he is not (he could not /deal either)."""
        tournament = tour_play.load(act)
        if tour_play.stops_play(act, tournament):
            return tour_play.no_play_refusal(self, act, tournament)
        if tournament is not None and tournament.phase is Phase.REGISTERING:
            return act.refuse("holdem.no_hand_registering")
        if self.seat(act, act.user) is None:
            return act.refuse("not_seated")
        return act.refuse("holdem.no_hand")

    def stack_account(self, act: Action, user_id: str) -> str:
        """The ledger account of a player's chips at this table."""
        return f"stack:{act.place.table_id}:{user_id}"

    # seats taken and given up, for the modules that reach them through `HoldemTable` (the tournament, the options…)

    def sit(self, act: Action, user_id: str, chips: int) -> None:
        """Give the player the next seat with `chips` (already on the table's stack account: `holdem_seats`)."""
        seats.sit(self, act, user_id, chips)

    def remove_seat(self, act: Action, seat: dict[str, Any]) -> None:
        """Take a seat away, the button keeping its place (`holdem_seats`)."""
        seats.remove_seat(self, act, seat)

    def cash_out(self, act: Action, seat: dict[str, Any]) -> int:
        """A cash table's player leaves with his stack, gone home; the chips he left with (`holdem_seats`)."""
        return seats.cash_out(self, act, seat)

    def _stand_up(self, act: Action, seat: dict[str, Any]) -> None:
        """A cash table's player stands up, said with the chips he leaves with (`holdem_seats.stand_up`)."""
        seats.stand_up(self, act, seat)

    # --- hands --------------------------------------------------------------------------------------------------

    def _deal(self, act: Action, command: cmd.Command) -> None:
        if act.state.get("hand"):
            raise act.refuse("holdem.hand_in_play")
        if self.seat(act, act.user) is None:
            raise self.not_playing(act)
        self.start_hand(act, quiet=False)

    def can_deal(self, act: Action) -> bool:
        """Two players are dealt in, one of them a person (practice bots do not play alone); players waiting for the
        big blind count when the game would otherwise stop (see `absence.waiting_to_deal`)."""
        eligible = self.eligible(act)
        if len(eligible) < 2:  # `waiting_to_deal` adds none otherwise
            eligible += absence.waiting_to_deal(self, act)
        return len(eligible) >= 2 and bots.has_human(eligible)

    def eligible(self, act: Action) -> list[dict[str, Any]]:
        """Seats that are dealt in: with chips and not sitting out — in a tournament even those sitting out, whose
        blinds are posted and hands folded for them as in a card room, so an absent player cannot stall it."""
        return [seat for seat in act.state["seats"] if self._dealt_in(act, seat)]

    def _dealt_in(self, act: Action, seat: dict[str, Any]) -> bool:
        if act.state.get("tournament"):
            return bool(seat["stack"] > 0)
        return bool(seat["stack"] > 0 and not seat["out"] and not absence.is_waiting(seat))

    def start_hand(self, act: Action, *, quiet: bool) -> None:
        """Deal the next hand when two players can play (and, in a tournament, the clock is not on a break)."""
        if not self.can_deal(act):
            if not quiet:  # two or more dealt in, yet none can be dealt: no person among them
                raise act.refuse("holdem.need_two" if len(self.eligible(act)) < 2 else "odds.bots_need_person")
            return
        in_tournament = bool(act.state.get("tournament"))
        dealt_at = tour_play.deal_level(self, act) if in_tournament else None  # the clock read once for the deal
        level = (dealt_at.limit if dealt_at else None) if in_tournament else self.config(act, "level")
        if level is None:
            if not quiet:
                raise tour_play.no_play_refusal(self, act)
            return
        seats = act.state["seats"]
        absence.deal_in_rather_than_stop(self, act)
        button = self._next_button(act)
        absence.deal_in_waiting(self, act, button)
        straddle = straddling.straddles_now(self, act)
        players = [engine.SeatPlayer(seat["id"], seat["stack"], not self._dealt_in(act, seat)) for seat in seats]
        structure = STRUCTURES[self.config(act, "structure")]
        act.state["number"] = act.next_number()
        pawn = dealt_at.pawns if dealt_at else tour_play.NO_PAWNS
        rules = showdown.rules(self, act, [player.id for player in players if not player.sitting_out])
        absent = [seat["id"] for seat in seats if seat["out"]]  # a tournament's, dealt in and blinded out
        deck = new_deck(act.rng)
        try:
            hand, events = engine.Hand.start(players, button, level, structure, deck, act.state["number"],
                                             pawn_rules=pawn, straddle=straddle, posting=absence.posting(act),
                                             absent=absent, variant=self.variant, rules=rules,
                                             level_number=dealt_at.number if dealt_at else None)
        except RuleError as error:  # more players than one deck deals (a table set up before the seat cap)
            raise act.rule_refusal(error) from None
        timebank.refill_banks(self, act, list(hand.players), level, dealt_at.index if dealt_at else None)
        act.state.pop("pre_pressed", None)
        if dealt_at is not None:
            act.state["tournament"]["pawns_spent"] = dealt_at.pawns_spent
        spent.forget(act)
        act.state["button"] = button
        act.state["big_blind"] = hand.big_blind  # heads-up next, he does not post it again (`next_button`)
        act.state.pop("last_hand", None)
        showdown.forget_uncontested(act)
        act.state["turn_seconds"] = self.config(act, "turn_seconds")  # the hand keeps it (see `settings`)
        self._commit(act, hand, events)
        story.mark_told(act.state, act.language, act.chat_settings)

    def _turn_limit(self, act: Action, player: str) -> int:
        """The seconds a player's turn lasts (its timer's, and what the table message shows): the hand's turn time,
        or `ABSENT_SECONDS` for a tournament's blinded-out player, whose turn reaches the table only in a hand dealt
        before the engine marked him absent (his turn checks or folds soon)."""
        return ABSENT_SECONDS if absence.is_blinded_out(act, self.seat(act, player)) else self._turn_seconds(act)

    def _turn_seconds(self, act: Action) -> int:
        """The turn time of the hand in play: the setting as it was when the hand was dealt."""
        return int(act.state.get("turn_seconds") or self.config(act, "turn_seconds"))

    def _next_button(self, act: Action) -> int:
        seats = act.state["seats"]
        big_blind = next((index for index, seat in enumerate(seats) if seat["id"] == act.state.get("big_blind")), None)
        return next_button([self._dealt_in(act, seat) for seat in seats], act.state.get("button", -1), big_blind)

    def _act(self, act: Action, command: cmd.Command) -> None:
        if isinstance(command, cmd.Pawn):
            tour_play.verify_pawning(act)  # a cash table, or a tournament without pawning: whoever asks, whenever
        hand = self._hand(act)
        if hand is None:
            raise self.no_hand(act)
        if act.user not in hand.players:
            raise self.not_playing(act)
        if hand.runs_asked:
            raise act.refuse("holdem.betting_over_runs")
        if hand.to_act != act.user:
            raise act.refuse("not_your_turn", player=act.name(hand.to_act or hand.showing or ""))
        action = self._engine_action(act, hand, command)
        if isinstance(action, engine.Pawn):
            tour_play.verify_pawn(self, act, action.item)
        try:
            events = hand.act(act.user, action)
        except RuleError as error:
            raise act.rule_refusal(error) from None
        seat = self.seat(act, act.user)
        if seat is not None and not isinstance(action, engine.Pawn):
            seat["timeouts"] = 0
        self._commit(act, hand, events)

    def _engine_action(self, act: Action, hand: engine.Hand, command: cmd.Command) -> engine.Action:
        legal = hand.legal_actions()
        if isinstance(command, cmd.Fold):
            return engine.Fold()
        if isinstance(command, cmd.Check):
            return engine.Check()
        if isinstance(command, cmd.Call):
            return engine.Check() if legal.can_check and not legal.call_amount else engine.Call()
        if isinstance(command, cmd.AllIn):
            return engine.AllIn()
        if isinstance(command, cmd.Pawn):
            return engine.Pawn(command.item)
        assert isinstance(command, (cmd.Bet, cmd.Raise))
        amount = command.amount if command.amount is not None else legal.min_to
        if legal.can_bet and not legal.can_raise:
            return engine.Bet(amount)
        return engine.RaiseTo(amount)

    def _time_out(self, act: Action) -> None:
        hand = self._hand(act)
        assert hand is not None and hand.to_act is not None
        player = hand.to_act
        events = hand.act(player, hand.timeout_action())
        seat = self.seat(act, player)
        if absence.is_blinded_out(act, seat):  # his hand passes without a word
            self._commit(act, hand, events)
            return
        name = act.name(player)
        story.name_said(act.state, player, name)  # his sitting out's line may outlive his fold's (`story.retell`)
        said = [act.t("holdem.timed_out", player=name)]
        sat_out = None
        if seat is not None:
            seat["timeouts"] += 1
            if seat["timeouts"] >= TIMEOUTS_BEFORE_SITTING_OUT and not seat["out"]:  # not away already (cash)
                # he is not there: a tournament folds his hand at his next turn in this one, at once, as a card
                # room takes the hand of a player gone from the table as dead (the events, if it is his turn)
                events += absence.mark_away(self, act, seat, at_once=True)
                sat_out = act.t("holdem.sat_out", player=name)
        self._commit(act, hand, events, said, sat_out)

    def _commit(self, act: Action, hand: engine.Hand, events: list[Event], said: list[str] | None = None,
                after_own: str | None = None) -> None:
        """Write the moves and the history, tell the story (`said` first: a time-out; `after_own` right after the
        line of the player's own action: he sits out once his time-out's fold is told), save or finish the hand,
        and re-arm the timers."""
        key = f"h{hand.hand_number}"
        timebank.settle_bank(self, act)
        events = [*events, *showdown.answer_for_bots(hand)]
        act.apply_moves(all_moves(events), lambda name: self._account(act, name), key)
        act.record(key, events)
        names = names_of(act, hand)  # once for the story's lines and the table's text, both written when read
        said_before = len(act.reply.public)
        narration, lines = render.narrate_later(Voice(act.language, names.__getitem__), events, hand.shown_so_far())
        told = [*(said or []), *act.tell_narration(narration), *lines]
        if after_own is not None:
            told.insert(len(said or ()) + 1, after_own)
        dealt = render.begins_hand(events)
        story.add(act.state, told, restart=dealt, head=hand.street is engine.Street.PREFLOP)
        bots.drop_private(act)
        if (drawing := picture.holdem_picture(act.voice, act.config, hand, events)) is not None:
            act.drawings.append(drawing)
        tour_play.record_pawns(self, act, events)
        act.state["step"] = act.state.get("step", 0) + 1
        if hand.is_over:
            if dealt:  # over at its deal: its table is read first, then its result and what follows it
                act.reply.before_table = said_before
            finish(self, act, hand, key, names)
            return
        act.state["hand"] = hand  # kept alive in the live table; written with `to_dict` when a snapshot is taken
        if (waiting := showdown.waiting_timer(self, act, hand)) is not None:
            act.arm(self._timer(act), waiting[1], kind=waiting[0], step=act.state["step"])
        elif bots.is_bot(hand.to_act):
            act.arm(self._timer(act), bots.BOT_SECONDS, kind="bot", step=act.state["step"])
        else:
            act.arm(self._timer(act), self._turn_limit(act, hand.to_act or ""), kind="turn", step=act.state["step"])
        if not act.replaying:  # nobody reads a replayed action's table message
            act.show_table(self.table_message(act, hand, names))

    def spend_buttons(self, act: Action) -> None:
        """Between hands, after a change a button must not repeat (a rebuy, an add-on: buying again is allowed): the
        step advances, as an action's does in a hand, so the buttons drawn before it are answered "already done" to
        the buyer and a double click buys once (for the other players they still act, see `bot.games.holdem_spent`).
        In a hand the step is the hand's (its turn timer names it) and stays: the buttons drawn between hands are an
        older hand's already."""
        if not act.state.get("hand"):
            spent.spend(act)

    def still_acts(self, act: Action, key: str, decision: str) -> bool:
        """Whether a button drawn between hands before someone else's rebuy or add-on still acts for the presser."""
        return spent.still_acts(act, key, decision)

    def _maybe_schedule_next(self, act: Action) -> None:
        if not act.state.get("hand") and self.can_deal(act):
            act.arm(self._timer(act), self.config(act, "next_hand_seconds"), kind="next")

    def _account(self, act: Action, local: str) -> str:
        kind, _, rest = local.partition(":")
        if kind == "stack":
            return self.stack_account(act, rest)
        if kind == "pot":
            return f"pot:{act.place.table_id}"
        if kind == "bank":
            return tour_play.bank_account(act)
        raise ValueError(f"unknown engine account {local!r}")

    def _timer(self, act: Action) -> str:
        return f"holdem:{act.place.table_id}"

    def _hand(self, act: Action) -> engine.Hand | None:
        """The hand in play: the live object, read from the snapshot's dict once (then kept in the state)."""
        data = act.state.get("hand")
        if not data or isinstance(data, engine.Hand):
            return data or None
        hand = act.state["hand"] = engine.Hand.from_dict(data)
        return hand


_ACTIONS = (*cmd.BETTING, cmd.Pawn)

_HANDLERS = {
    cmd.Join: seats.join,
    cmd.Leave: seats.leave,
    cmd.Deal: HoldemController._deal,
    cmd.Setting: settings.configure,
    cmd.Table: retelling.show,
    cmd.AddBot: bots.add_bot,
    cmd.Away: absence.away,
    cmd.Back: absence.back,
    cmd.Straddle: straddling.straddle,
    cmd.Pre: preactions.pre_action,
    cmd.Rabbit: showdown.rabbit,
}

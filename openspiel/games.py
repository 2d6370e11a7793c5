"""Both games as OpenSpiel Python games (``pyspiel``): the game, its states and observers.

A state wraps the game's **omniscient** engine (``GameRules.omniscient``: every card known,
chance answered from outside), so that OpenSpiel's chance nodes are the game's own:

- a **deal** of ``k`` cards is ``k`` chance nodes in a row, each drawing one card kind from
  what the draw pile holds (probability: its count over the pile's size); the engine is told
  the ``k`` cards once they are drawn;
- a **fair choice** (who begins, a duel's tie) is one chance node over the seats it names;
- what needs no chance (a hand shown to one seat, a named card searched for in the deck: the
  omniscient engine knows the answer) is answered at once.

Actions are :class:`~condottiere.openspiel.vocabulary.GameSpec` numbers (a move's place in the
game's fixed move list). The returns are the game's own result: ``1/k`` to each of ``k``
winners, 0 to the others (nothing to anyone in a draw).

What each seat knows: the **observation** is its view now (the game's public state and its
hand, from the seat's own engine, which the state keeps in step; as a string, JSON; as a
tensor, :attr:`GameSpec.encode`). The **information state** is everything the seat has
witnessed, in order: every move (moves are public), the cards dealt to it and how many to
each other seat, the fair choices, the hands shown to it, the decks searched. It has perfect
recall; its tensor is the view's tensor with the number of steps witnessed.

:meth:`State.resample_from_infostate` (what OpenSpiel's ``ISMCTSBot`` asks) samples an open
table consistent with a seat's knowledge with the game's own ``determinise``. The chance of
such a sample is answered from its own seed: it has no chance nodes, its witnessed history
goes on with the moves only, and it has no observation (a sample's hands are invented).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found,unused-ignore]

from condottiere.interface import (
    Choice,
    Deal,
    HandHolds,
    SearchDeck,
    SeatToMove,
    ShowHand,
    TableRules,
    game_named,
)
from condottiere.openspiel.vocabulary import GameSpec, Tensor, pile_contents, spec_for

__all__ = [
    "CAPTAINS",
    "CONDOTTIERE",
    "CaptainsSpielGame",
    "CondottiereSpielGame",
    "State",
    "register",
]

CONDOTTIERE = "condottiere"
"""The short name of Condottiere in OpenSpiel (parameters ``edition``, ``players``,
``options``)."""
CAPTAINS = "condottieri_captains"
"""The short name of Condottieri Captains in OpenSpiel (parameters ``players``, ``options``)."""
MAX_GAME_LENGTH = {CONDOTTIERE: 4_000, CAPTAINS: 12_000}
"""A bound on actions (chance included) that no game reaches."""

_GAME_NAMES = {CONDOTTIERE: "condottiere", CAPTAINS: "captains"}


def _game_type(short_name: str) -> pyspiel.GameType:
    rules = game_named(_GAME_NAMES[short_name])
    editions = rules.editions.values()
    parameters: dict[str, Any] = {"players": 3, "options": ""}
    if len(rules.editions) > 1:
        parameters["edition"] = rules.default_edition
    return pyspiel.GameType(
        short_name=short_name,
        long_name=rules.title,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(v.max_seats for v in editions),
        min_num_players=min(v.min_seats for v in editions),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


class CondottiereSpielGame(pyspiel.Game):  # type: ignore[misc]
    """One of the two games, for the parameters OpenSpiel gives (a table's rules)."""

    short_name = CONDOTTIERE

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        short_name = self.short_name
        name = _GAME_NAMES[short_name]
        rules = game_named(name)
        players = int(params.get("players", 3))
        edition = str(params.get("edition", rules.default_edition))
        options = tuple(sorted(o for o in str(params.get("options", "")).split(",") if o))
        table = TableRules(name, edition, players, options)
        rules.check(table)
        self.spec = spec_for(table)
        self.rules = rules
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.spec.moves),
            max_chance_outcomes=max(len(self.spec.cards), players),
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=MAX_GAME_LENGTH[short_name],
        )
        super().__init__(_game_type(short_name), info, params)

    def new_initial_state(self) -> State:
        return State(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None,
        params: dict[str, Any] | None = None,
    ) -> Observer:
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self.spec, self.rules, perfect_recall=recall)


class State(pyspiel.State):  # type: ignore[misc]
    """A game under way, on the omniscient engine (or, resampled, an open-table sample)."""

    def __init__(
        self, game: CondottiereSpielGame, engine: Any = None,
        witnessed: list[list[str]] | None = None,
    ) -> None:
        super().__init__(game)
        self._spec: GameSpec = game.spec
        self._held = _Held(
            engine if engine is not None else game.rules.omniscient(game.spec.table)
        )
        players = self._spec.table.seats
        self.witnessed = witnessed if witnessed is not None else [[] for _ in range(players)]
        """Per seat, what it has seen happen, in order (its information state's history)."""
        self._drawn: list[str] = []
        """The cards of the deal under way drawn so far."""
        self._seats = _SeatEngines()
        """Per seat asked for its view: its own engine and how many events it has followed."""
        self._settle()

    @property
    def engine(self) -> Any:
        """The game's engine under this state (not to be changed)."""
        return self._held.engine

    @property
    def _engine(self) -> Any:
        return self._held.engine

    # ------------------------------------------------------------------ OpenSpiel's API

    def current_player(self) -> int:
        waiting = self._engine.waiting
        if isinstance(waiting, SeatToMove):
            return waiting.seat
        if isinstance(waiting, Deal | Choice):
            return int(pyspiel.PlayerId.CHANCE)
        return int(pyspiel.PlayerId.TERMINAL)

    def is_terminal(self) -> bool:
        return self._engine.waiting is None

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self._spec.action_of(str(move)) for move in self._engine.legal_moves())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        waiting = self._engine.waiting
        if isinstance(waiting, Choice):
            return [(seat, 1 / len(waiting.seats)) for seat in waiting.seats]
        left = self._pile_left()
        total = sum(left.values())
        return [(i, left[card] / total) for i, card in enumerate(self._spec.cards) if left[card]]

    def _apply_action(self, action: int) -> None:
        engine = self._engine
        waiting = engine.waiting
        if isinstance(waiting, Choice):
            engine.resolve(action)
            self._tell_all(f"{waiting.purpose}: seat {action}")
        elif isinstance(waiting, Deal):
            self._drawn.append(self._spec.cards[action])
            if len(self._drawn) == waiting.count:
                cards, self._drawn = self._drawn, []
                engine.resolve(cards)
                for seat, seen in enumerate(self.witnessed):
                    seen.append(
                        f"dealt {' '.join(sorted(cards))}" if seat == waiting.seat
                        else f"{len(cards)} cards dealt to seat {waiting.seat}"
                    )
        else:
            mover = engine.to_act
            text = self._spec.moves[action]
            move = engine.parse_move(text)
            flow = engine.card_flow(move)
            shown = sorted(engine.hand(mover)) if flow.whole_hand else sorted(flow.shown)
            engine.play(move)
            self._tell_all(f"seat {mover}: {text}" + (f" showing {' '.join(shown)}" if shown
                                                      else ""))
        self._settle()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if isinstance(self._engine.waiting, Choice):
                return f"seat {action} chosen"
            return f"card {self._spec.cards[action]}"
        return self._spec.moves[action]

    def returns(self) -> list[float]:
        outcome = self._engine.outcome
        players = self._spec.table.seats
        if outcome is None or not outcome.winners:
            return [0.0] * players
        share = 1 / len(outcome.winners)
        return [share if seat in outcome.winners else 0.0 for seat in range(players)]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> State:
        rng = random.Random(int(probability_sampler() * 2**53))
        sample = self._engine.seen_by(player_id).determinise(rng)
        return State(self.get_game(), sample, [list(seen) for seen in self.witnessed])

    def __str__(self) -> str:
        engine = self._engine
        hands = [list(engine.hand(seat)) for seat in range(self._spec.table.seats)]
        return json.dumps({"hands": hands, "drawn": self._drawn, "moves": self.witnessed[0]})

    def view(self, seat: int) -> Any:
        """``seat``'s view now, from its own engine (kept in step with this state's)."""
        engine = self._engine
        try:
            record = engine.record()
        except ValueError:
            raise ValueError("a resampled state has no seat view: its hands were sampled") from None
        events = record.pop("events")
        kept = self._seats.engines.get(seat)
        if kept is None:
            own, followed = type(engine).observe(record, seat), 0
        else:
            own, followed = kept
        own.follow(events[followed:])
        self._seats.engines[seat] = (own, len(events))
        return own.view(seat)

    # ------------------------------------------------------------------ the engine's chance

    def _pile_left(self) -> Counter[str]:
        waiting = self._engine.waiting
        assert isinstance(waiting, Deal)
        pile = self._engine.pending_draws()[0].pile
        left = Counter(pile_contents(self._engine, pile))
        left.subtract(self._drawn)
        return left

    def _settle(self) -> None:
        """Answer at once the chance that needs none: a hand shown, a deck searched, a hand
        proved to hold a card of a set."""
        engine = self._engine
        while True:
            waiting = engine.waiting
            if isinstance(waiting, ShowHand):
                cards = sorted(engine.hand(waiting.seat))
                engine.resolve(cards)
                for seat, seen in enumerate(self.witnessed):
                    seen.append(
                        f"seat {waiting.seat} shows {' '.join(cards)}" if seat == waiting.viewer
                        else f"seat {waiting.seat} shows its hand to seat {waiting.viewer}"
                    )
            elif isinstance(waiting, SearchDeck):
                there = waiting.card in pile_contents(engine, waiting.pile)
                engine.resolve((waiting.card,) if there else ())
                self._tell_all(
                    f"seat {waiting.seat} searches the deck for {waiting.card}: "
                    + ("found" if there else "not there")
                )
            elif isinstance(waiting, HandHolds):
                engine.resolve(None)
                self._tell_all(f"seat {waiting.seat} proves its hand holds one of the set")
            else:
                return

    def _tell_all(self, text: str) -> None:
        for seen in self.witnessed:
            seen.append(text)


class _Held:
    """The engine under a state, copied with the game's own ``copy`` when OpenSpiel clones
    the state (a deep copy of an engine's internals is neither needed nor safe)."""

    __slots__ = ("engine",)

    def __init__(self, engine: Any) -> None:
        self.engine = engine

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(self.engine.copy())


class _SeatEngines:
    """The seats' own engines of a state, made again when asked after a clone."""

    def __init__(self) -> None:
        self.engines: dict[int, tuple[Any, int]] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _SeatEngines:
        return _SeatEngines()


class Observer:
    """OpenSpiel's observer of a seat: its view (and, with perfect recall, its history)."""

    def __init__(self, spec: GameSpec, rules: Any, *, perfect_recall: bool) -> None:
        self._spec = spec
        self._rules = rules
        self._recall = perfect_recall
        self.tensor: Tensor = np.zeros(spec.tensor_size + int(perfect_recall), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: State, player: int) -> None:
        self.tensor[: self._spec.tensor_size] = self._spec.encode(state.view(player), player)
        if self._recall:
            self.tensor[-1] = len(state.witnessed[player])

    def string_from(self, state: State, player: int) -> str:
        if self._recall:
            return "\n".join((f"seat {player}", *state.witnessed[player]))
        view = state.view(player)
        seen = {"seat": player, "hand": list(view.hand), "public": self._rules.public_state(view)}
        return json.dumps(seen, sort_keys=True, default=str)


class CaptainsSpielGame(CondottiereSpielGame):
    """Condottieri Captains, for the parameters OpenSpiel gives."""

    short_name = CAPTAINS


def register() -> None:
    """Register both games with ``pyspiel`` (once per process)."""
    for game in (CondottiereSpielGame, CaptainsSpielGame):
        if game.short_name not in pyspiel.registered_names():
            pyspiel.register_game(_game_type(game.short_name), game)

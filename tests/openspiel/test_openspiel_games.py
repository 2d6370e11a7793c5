"""Both games as OpenSpiel Python games pass OpenSpiel's own checks: its random simulation with
consistency checks (legal actions, chance outcomes that sum to one, returns, information state
and observation strings and tensors for every seat), serialization of a game under way, and
a game of OpenSpiel's own ISMCTS bot. Skipped, saying why, where ``open-spiel`` (the optional
extra ``openspiel``) is not installed."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="open-spiel is not installed (pip install 'condottiere[openspiel]')"
)

import numpy as np  # noqa: E402  (open-spiel's own dependency: after the skip)

from condottiere.openspiel import CAPTAINS, CONDOTTIERE  # noqa: E402  (after the skip)


@pytest.mark.parametrize(
    ("name", "serialize"),
    [
        (f"{CONDOTTIERE}(edition=zman-duel,players=2)", True),
        (f"{CONDOTTIERE}(edition=zman,players=3)", True),
        (f"{CONDOTTIERE}(edition=ffg,players=4,options=sieges)", False),
        (f"{CAPTAINS}(players=3)", False),
    ],
)
def test_openspiels_random_simulation_checks_pass(name: str, serialize: bool) -> None:
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=1, serialize=serialize, verbose=False)


def _random_state(game: object, actions: int, seed: int) -> object:
    rng = random.Random(seed)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    for _ in range(actions):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_a_captains_game_under_way_serializes_and_comes_back_the_same() -> None:
    game = pyspiel.load_game(f"{CAPTAINS}(players=3)")
    state = _random_state(game, 150, seed=2)
    text = pyspiel.serialize_game_and_state(game, state)
    again_game, again = pyspiel.deserialize_game_and_state(text)
    assert str(again_game) == str(game)
    assert str(again) == str(state)
    assert again.information_state_string(1) == state.information_state_string(1)
    assert list(again.observation_tensor(0)) == list(state.observation_tensor(0))


def test_the_seats_information_differs_and_never_shows_another_hand() -> None:
    game = pyspiel.load_game(f"{CONDOTTIERE}(edition=zman,players=3)")
    state = _random_state(game, 40, seed=5)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    views = [state.observation_string(seat) for seat in range(3)]
    assert len(set(views)) == 3
    known = [state.information_state_string(seat).splitlines() for seat in range(3)]
    own_deals = [line for line in known[0] if line.startswith("dealt ")]
    assert own_deals and not set(own_deals) & set(known[1] + known[2])
    assert any(line.startswith("10 cards dealt to seat 0") for line in known[1])


def test_the_returns_are_the_games_own_winners() -> None:
    game = pyspiel.load_game(f"{CONDOTTIERE}(edition=zman-duel,players=2)")
    state = _random_state(game, 100_000, seed=3)
    assert state.is_terminal()
    winners = state.engine.outcome.winners
    assert state.returns() == [1 / len(winners) if s in winners else 0.0 for s in range(2)]


def test_openspiels_ismcts_bot_plays_a_move_through_resampled_states() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(f"{CONDOTTIERE}(edition=zman-duel,players=2)")
    state = _random_state(game, 20, seed=4)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    rng = np.random.RandomState(7)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, max_simulations=8,
                           random_state=rng, allow_inconsistent_action_sets=True)
    assert bot.step(state) in state.legal_actions()

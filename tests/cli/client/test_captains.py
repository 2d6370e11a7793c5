"""Condottieri Captains in the client: its screen found through the registry and drawn by the
shell (the board with the city state, the captains and their TFR, a battle step by step, an
offer; every seat's row; the hand with the usable cards lit and their keys; a seat's whole
table; the phase explained on the help page), and whole offline games of 2, 3 and 5 seats
played to the end with the client's keys, every panel and the whole screen fitting 80x24."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from condottiere.cli.client.commands import parse
from condottiere.cli.client.model import TableModel, Tone
from condottiere.cli.client.views import (
    board_lines,
    hand_lines,
    help_lines,
    log_lines,
    plain,
    rows_lines,
    status_line,
)
from condottiere.games import captains
from condottiere.games.captains import Game, Phase
from condottiere.games.captains.screen import SCREEN
from condottiere.interface import game_named
from condottiere.interface.screen import Line, cells
from tests.cli.client.scenes import model_of_game
from tests.cli.client.screen import screen_of
from tests.cli.client.test_seam import imports

BOARD_WIDTH, BOARD_HEIGHT = SCREEN.board_size
ROWS_WIDTH = 80 - BOARD_WIDTH - 1
ASKED = frozenset(Phase) - {Phase.CHANCE, Phase.OVER}
"""Every phase that asks a seat for a move."""


def model_of(game: Game, seat: int) -> TableModel:
    """What seat ``seat``'s client shows of ``game``: fed the engine that seat runs."""
    return model_of_game(game.seen_by(seat), seat)


def styled(lines: list[Line], text: str) -> str:
    """The style of the fragment of ``lines`` that holds ``text``."""
    return next(style for line in lines for style, part in line if text in part)


def assert_fits(lines: list[Line], width: int, height: int) -> None:
    assert len(lines) <= height, plain(lines)
    for line in lines:
        assert cells("".join(text for _, text in line)) <= width, plain([line])


def battle() -> Game:
    """Milan's Gonzaga (Pikemen) attacks Pisa, whose Faggiuola blocks; Milan played Ambush
    and Pisa, holding Reserve, is to answer."""
    game = Game.setup(
        2, cities=["milan", "pisa"], hands=[["ambush"], ["reserve"]],
        armies=[{"gonzaga": ["pikemen"]}, {"faggiuola": []}], turns=[1, 1], seed=0,
        deck=["rally"],
    )
    for move in ("done", "pay", "done", "attack gonzaga 1", "block faggiuola", "play ambush"):
        game.play(move)
    return game


def beaten_with_two_troops() -> Game:
    """A 2-seat game whose first battle is under way, Milan's Gonzaga attacking Pisa's
    Faggiuola who blocks: Gonzaga wins with Rally (11 to 10) and loses without it (8 to 10),
    and each captain holds two kinds of troop, so the beaten one's owner is asked which he
    loses (Pisa, when Ada played Rally: not the seat whose turn it is)."""
    game = Game.setup(
        2, cities=["milan", "pisa"], hands=[[], []], turns=[1, 1], seed=4, deck=["rally"],
        armies=[{"gonzaga": ["pikemen", "crossbowmen"]},
                {"faggiuola": ["heavy-cavalry", "heavy-cavalry", "pikemen"]}],
    )
    for move in ("done", "pay", "done", "attack gonzaga 1", "block faggiuola"):
        game.play(move)
    return game


def test_the_client_finds_the_captains_screen_through_the_registry() -> None:
    model = model_of(Game.new(3, seed=1), 0)
    assert model.screen() is game_named("captains").screen() is SCREEN
    assert model.verbs() == SCREEN.verbs and "offer" in model.verbs()
    assert parse("attack gonzaga 1", model.verbs()).verb == "move"


def test_the_captains_screen_needs_no_terminal_library() -> None:
    folder = Path(captains.__file__).parent / "screen"
    modules = sorted(folder.glob("*.py"))
    assert len(modules) >= 5
    for path in modules:
        assert not any(m.startswith(("prompt_toolkit", "condottiere.cli")) for m in imports(path))


def test_the_beaten_captains_owner_picks_the_troop_he_loses_with_the_number_keys() -> None:
    game = beaten_with_two_troops()
    game.play("play rally")
    while game.phase is not Phase.LOSS:
        game.play("pass")
    assert game.to_act == 1
    model = model_of(game, 1)
    assert model.my_turn
    assert model.banner().headline == "Your turn: choose the troop your beaten captain loses"
    board = plain(board_lines(model, BOARD_WIDTH, BOARD_HEIGHT))
    assert " 1 dismiss Heavy Cavalry from Faggiuola" in board
    assert " 2 dismiss Pikemen from Faggiuola" in board
    assert model.choices().space is None
    assert model.choose_numbered(2) == "dismiss pikemen faggiuola"
    assert model.effect("dismiss pikemen faggiuola") == "Faggiuola TFR 8 -> 7"
    assert parse("dismiss heavy-cavalry faggiuola", model.verbs()).verb == "move"
    waiting = model_of(game, 0)
    assert not waiting.my_turn
    assert waiting.banner().headline == "Bob is choosing a troop to lose"


def test_a_bare_refuse_is_a_move_and_refuse_with_a_name_answers_a_joiner() -> None:
    verbs = SCREEN.verbs
    assert parse("refuse", verbs).verb == "move"
    assert parse("refuse bob", verbs).verb == "refuse"
    assert parse("admit bob", verbs).verb == "admit"


def test_a_battle_shows_both_sides_tfr_step_by_step_and_the_cards_played() -> None:
    model = model_of(battle(), 1)
    assert model.banner().headline == "Your turn: play a battle card or pass"
    assert model.banner().tone is Tone.TURN
    board = plain(board_lines(model, BOARD_WIDTH, BOARD_HEIGHT))
    assert "Battle: A ada attacks B you" in board
    assert "A Gonzaga TFR 5 +Milan 2 +Ambush 5 = 12" in board
    assert "B Faggiuola TFR 3 +Pisa 2 = 5" in board
    assert " Your captains  upkeep 2" in board and "Faggiuola 3" in board
    hand = hand_lines(model, 80, 2)
    assert plain(hand) == " Hand (1/5)  1[Reserve B+4]"
    assert "class:playable" in styled(hand, "Reserve")
    assert model.choices().space == "pass" and model.choose_numbered(1) == "play reserve"
    assert model.effect("play reserve") == "you 5 -> 9 against 12"
    assert "class:chosen" in styled(hand_lines(model, 80, 2), "Reserve")
    assert "Enter: play reserve (you 5 -> 9 against 12)" in plain([status_line(model, 80)])


def test_the_attacked_seat_sees_who_attacks_with_what_and_its_blocks_on_the_keys() -> None:
    attacked = Game.setup(
        2, cities=["milan", "pisa"], hands=[[], ["reserve", "carmagnola"]],
        armies=[{"gonzaga": ["pikemen"]}, {"faggiuola": []}], turns=[1, 1], seed=0,
        ducats=[10, 10], deck=["rally"],
    )
    for move in ("done", "pay", "done", "attack gonzaga 1"):
        attacked.play(move)
    assert attacked.phase is Phase.BLOCK
    model = model_of(attacked, 1)
    assert model.banner().headline == ("Your turn: ada attacks with Gonzaga (5): block, or not")
    board = plain(board_lines(model, BOARD_WIDTH, BOARD_HEIGHT))
    assert "B no block yet" in board
    assert " 1 block with Faggiuola (3)" in board
    assert " 2 Carmagnola into play for 4 ducats" in board
    assert model.choices().space == "no-block"
    assert model.effect("no-block") == "ada takes one of your provinces"
    assert model.effect("block faggiuola") == "TFR 5 against 7"


def test_an_offer_shows_what_is_given_and_asked_and_the_keys_accept_or_refuse() -> None:
    game = Game.setup(2, cities=["milan", "pisa"], hands=[["pikemen"], []], seed=0,
                      deck=["duchy"])
    for move in ("done", "done", "offer 1 give pikemen get 3d"):
        game.play(move)
    model = model_of(game, 1)
    assert model.banner().headline == (
        "Your turn: ada offers Pikemen for 3 ducats: accept or refuse"
    )
    board = plain(board_lines(model, BOARD_WIDTH, BOARD_HEIGHT))
    for told in ("Offer: A ada to B you", "gives Pikemen", "asks  3 ducats", " 1 accept",
                 " 2 refuse"):
        assert told in board, board
    assert model.choose_numbered(1) == "accept"
    assert model.effect("accept") == "you get Pikemen, give 3 ducats"
    assert model.choose_numbered(2) == "refuse"
    waiting = model_of(game, 0)
    assert waiting.banner().headline == "Bob is answering an offer"
    assert "Offer: A you to B bob" in plain(board_lines(waiting, BOARD_WIDTH, BOARD_HEIGHT))


def test_the_hand_lights_the_usable_cards_with_the_keys_that_choose_them() -> None:
    game = Game.setup(2, cities=["genoa", "pisa"], hands=[["gonzaga", "pikemen"], []], seed=0,
                      deck=["duchy"])
    model = model_of(game, 0)
    hand = hand_lines(model, 80, 2)
    assert plain(hand) == " Hand (3/5)  [Pikemen S+1] 1[Duchy R] 2[Gonzaga C4]"
    assert "class:playable" not in styled(hand, "Pikemen"), "no captain to attach it to"
    assert "class:playable" in styled(hand, "Duchy")
    assert "class:playable" in styled(hand, "Gonzaga")
    assert model.choose_numbered(2) == "captain gonzaga"
    assert model.effect("captain gonzaga") == "Gonzaga (TFR 4) into play for free"
    assert model.effect("emergency gonzaga") == "Gonzaga (TFR 4) into play for 4 ducats"
    board = plain(board_lines(model, BOARD_WIDTH, BOARD_HEIGHT))
    assert board.splitlines()[0] == " Genoa 5 provinces · 35 ducats · +5 a turn"
    assert "Neighbours: B bob · first turn: no attack" in board


def test_a_long_hand_is_shortened_to_fit_its_two_lines() -> None:
    hand = ["pavesarii-shield-bearers", "devastate-enemy-territory", "back-against-obstacle",
            "concentration-of-force", "determined-resistance", "careful-reconnaissance",
            "besiege-important-city", "malatesta-da-verruchio", "francesco-sforza"]
    game = Game.setup(2, cities=["venice", "pisa"], hands=[hand, []], seed=0, deck=["duchy"])
    model = model_of(game, 0)
    lines = hand_lines(model, 80, 2)
    assert_fits(lines, 80, 2)
    text = plain(lines)
    assert text.count("[") == len(hand) + 1 and "C5]" in text and "Hand (10/5)" in text


def test_the_city_states_are_picked_on_the_board_with_the_number_keys() -> None:
    game = Game.new(3, seed=2)
    seat = game.to_act
    assert seat is not None
    game.play(game.legal_moves()[0])  # the first seat to pick takes Milan
    chooser = game.to_act
    assert chooser is not None and chooser != seat
    model = model_of(game, chooser)
    assert model.banner().headline == "Your turn: pick your city state"
    board = plain(board_lines(model, BOARD_WIDTH, BOARD_HEIGHT))
    assert " 1 Venice" in board and "Milan" in board and " 1 Milan" not in board
    assert model.choose_numbered(1) == "city venice"
    assert model.effect("city venice") == "starts with 2 extra cards"


def test_a_seats_whole_table_is_explained_with_the_cards_seen_of_its_hand() -> None:
    game = Game.setup(
        2, cities=["milan", "pisa"], hands=[["spies"], ["ambush", "gonzaga"]], seed=0,
        armies=[{"faggiuola": ["heavy-cavalry", "crafty"]}, {}], revenues=[["duchy"], []],
        deck=["rally"],
    )
    for move in ("done", "pay", "event spies 1"):
        game.play(move)
    model = model_of(game, 0)
    model.why = 1
    text = plain(log_lines(model, 80, 6))
    assert text.splitlines()[0].startswith(" Why is bob's row worth 5 provinces?")
    assert "Pisa (+2 when defending)" in text
    assert "2 cards in hand, seen: Ambush, Gonzaga" in text
    model.why = 0
    text = plain(log_lines(model, 80, 6))
    assert "revenue cards: Duchy · +6 ducats a turn" in text
    assert "Faggiuola 3 + Heavy Cavalry 2 + Crafty 1 = TFR 6 (upkeep 3)" in text
    assert "seen:" not in text


def test_the_help_page_explains_the_phase_under_way() -> None:
    game = Game.setup(2, cities=["milan", "pisa"], hands=[["gonzaga"], []], seed=0,
                      deck=["duchy"])
    model = model_of(game, 0)
    model.help = True
    text = plain(help_lines(model, 80, 400))
    assert "This phase: recruit" in text
    first_screen = plain(help_lines(model, 80, 24))
    assert "This phase: recruit" in first_screen, "the phase's help comes before the keys"
    assert "put one captain into play for free" in text
    assert "Condottieri Captains for 2 players" in text
    assert "C captain (level), S troop" in text


class Table:
    """An offline game (a new one of ``seats`` from ``seed``, or ``game``) with the engine each
    seat runs, kept up with the open table."""

    def __init__(self, seats: int, seed: int, game: Game | None = None) -> None:
        self.game = Game.new(seats, seed=seed) if game is None else game
        header = self.game.record()
        self.seen = [Game.observe(header, seat) for seat in range(seats)]
        self.followed = 0
        self.catch_up()

    def catch_up(self) -> None:
        events = self.game.record()["events"]
        for engine in self.seen:
            engine.follow(events[self.followed :])
        self.followed = len(events)

    def model(self, seat: int) -> TableModel:
        return model_of_game(self.seen[seat].copy(), seat)


def choose_with_keys(model: TableModel, rng: random.Random) -> str:
    """A move put on the command line by the keys a player would press: a number, Space, or
    → a few times."""
    choices = model.choices()
    assert choices.moves
    keys = ["arrows"] + ["number"] * bool(choices.numbered) + ["space"] * bool(choices.space)
    key = rng.choice(keys)
    if key == "number":
        chosen = model.choose_numbered(rng.randint(1, len(choices.numbered)))
    elif key == "space":
        chosen = model.choose_move(choices.space)
    else:
        for _ in range(rng.randint(1, 12)):
            chosen = model.step_choice(+1)
    assert chosen is not None and model.suggestion() == chosen
    return chosen


def test_whole_games_of_2_3_and_5_seats_are_played_to_the_end_with_the_keys_at_80x24() -> None:
    asked: set[Phase] = set()
    games: list[tuple[int, int, Game | None]] = [(2, 1, None), (3, 2, None), (5, 3, None)]
    games.append((2, 4, beaten_with_two_troops()))
    for seats, seed, setup in games:
        rng = random.Random(seed)
        table = Table(seats, seed, setup)
        drawn: set[Phase] = set()
        while table.game.to_act is not None:
            seat = table.game.to_act
            model = table.model(seat)
            phase = table.seen[seat].phase
            asked.add(phase)
            assert model.my_turn and model.banner().headline.startswith("Your turn: ")
            move = choose_with_keys(model, rng)
            assert move in {str(m) for m in table.seen[seat].legal_moves()}
            assert isinstance(model.effect(move), str)
            assert_fits(board_lines(model, BOARD_WIDTH, BOARD_HEIGHT), BOARD_WIDTH, BOARD_HEIGHT)
            assert_fits(rows_lines(model, ROWS_WIDTH, BOARD_HEIGHT), ROWS_WIDTH, BOARD_HEIGHT)
            assert_fits(hand_lines(model, 80, 2), 80, 2)
            if phase not in drawn:
                drawn.add(phase)
                screen = screen_of(model, 80, 24)
                assert len(screen) == 24 and all(cells(line) <= 80 for line in screen)
                assert screen[0].startswith(" Your turn: ") and " Hand (" in "\n".join(screen)
                assert f"Enter: {move}"[:60] in screen[-1], screen[-1]
                rows = "\n".join(line[BOARD_WIDTH + 1 :] for line in screen[3:12])
                assert rows.count("\n") >= seats and "city prov duc hand TFR" in rows, rows
            other = (seat + 1) % seats
            assert not table.model(other).my_turn
            table.game.play(table.game.parse_move(move))
            table.catch_up()
        assert table.game.phase is Phase.OVER
        for seat in range(seats):
            model = table.model(seat)
            ending = model.ending()
            assert ending is not None and ending.lines[-1].startswith("Provinces: ")
            assert model.banner().tone is Tone.OVER
            domain = plain(board_lines(model, BOARD_WIDTH, BOARD_HEIGHT)).splitlines()[0]
            assert domain.endswith(" · defeated") == (seat in table.game.defeated), domain
        screen = "\n".join(screen_of(table.model(0), 80, 24))
        assert "Game over" in screen and "Provinces: " in screen
    assert asked == ASKED, f"phases never asked: {sorted(ASKED - asked)}"


@pytest.mark.parametrize("seats", [5, 8])
def test_every_panel_fits_80x24_with_many_seats_and_long_names(seats: int) -> None:
    table = Table(seats, seed=seats)
    rng = random.Random(seats)
    names = tuple(f"{'W' * 30}{seat}" for seat in range(seats))
    for _ in range(150):
        seat = table.game.to_act
        if seat is None:
            break
        model = model_of_game(table.seen[seat].copy(), seat, names=names)
        choose_with_keys(model, rng)
        screen = screen_of(model, 80, 24) if _ % 25 == 0 else []
        assert all(cells(line) <= 80 for line in screen)
        assert_fits(rows_lines(model, ROWS_WIDTH, BOARD_HEIGHT), ROWS_WIDTH, BOARD_HEIGHT)
        rows = plain(rows_lines(model, ROWS_WIDTH, BOARD_HEIGHT))
        assert rows.count("\n") == seats
        table.game.play(table.game.parse_move(str(model.suggestion())))
        table.catch_up()


def test_the_board_lists_the_hand_with_whole_names_and_what_an_event_does() -> None:
    hand = ["prolong-war", "crossbowmen", "ambush", "campaign-season-over", "heavy-cavalry",
            "pikemen", "gonzaga", "republican-regime", "spies"]
    game = Game.setup(2, cities=["milan", "pisa"], hands=[hand, []], seed=0, deck=["duchy"])
    model = model_of(game, 0)
    shortened = plain(hand_lines(model, 80, 2))
    assert "Prolong War" not in shortened, "the hand's own line shortens the names at 80"
    board = plain(board_lines(model, 44, 20)).splitlines()
    listed = board[board.index(" In hand") + 1 :]
    assert "  Prolong War B" in listed and "  Heavy Cavalry S+2" in listed
    assert any(line.startswith("  Campaign Season Over E: an opponent") for line in listed)

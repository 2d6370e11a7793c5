"""The client's drawing: each panel from real engines (the shell's own, and Condottiere's
screen through the shell), and the whole screen through the prompt_toolkit layout at 80x24
(and larger, and with hostile names)."""

from __future__ import annotations

import pytest

from condottiere.bots import GreedyBot, play_out
from condottiere.cli.client.views import (
    board_lines,
    hand_lines,
    help_lines,
    log_lines,
    plain,
    rows_lines,
    status_line,
)
from condottiere.games.condottiere import REGIONS, Game
from condottiere.games.condottiere.cards import card_name
from condottiere.games.condottiere.screen.board import MAP_WIDTH
from condottiere.games.condottiere.summary import rules_summary
from condottiere.peer.driver import TableEvent
from tests.cli.client.scenes import model_of_game
from tests.cli.client.screen import cells, screen_of
from tests.cli.client.test_model import battle


def bishop_battle() -> Game:
    """A battle with a Bishop (removing the 10s), the Favor placed, a Spring, a Drummer, a
    Heroine and a Spy: every step of a strength."""
    game = Game.setup(
        "zman", players=3, first=0, battle="Firenze",
        hands=[["10", "6", "drummer", "heroine", "2"], ["5", "bishop", "3", "1"],
               ["4", "spring", "spy", "2", "1"]],
    )
    for move in ("play 10", "play 5", "play 4", "play 6", "play bishop", "favor Roma",
                 "play spring", "play drummer", "play 3", "play spy", "play heroine"):
        game.play(move)
    return game


def test_the_map_draws_every_region_with_its_owner_the_favor_and_the_battle() -> None:
    control = {"Torino": 0, "Milano": 0, "Venezia": 1, "Napoli": 2, "Siena": 2}
    game = Game.setup("zman", players=3, first=0, battle="Urbino", control=control,
                      favor="Lucca")
    model = model_of_game(game, names=("ada", "bob", "cyd"))
    text = plain(board_lines(model, MAP_WIDTH, 8))
    marks = {0: "A", 1: "B", 2: "C"}
    for region in REGIONS:
        if region in control:
            assert f"{region} {marks[control[region]]}" in text, region
        elif region == "Lucca":
            assert "Lucca *" in text
        else:
            assert f"{region} ·" in text, region
    assert "[Urbino ·]" in text
    assert text.splitlines()[-1].startswith(" regions: A2 B1 C2 · win: 3 connected or 5")
    assert text.index("Torino") < text.index("Firenze") < text.index("Napoli")


def test_a_breakdown_on_screen_matches_the_engines_step_by_step() -> None:
    game = bishop_battle()
    model = model_of_game(game)
    for seat in range(3):
        model.why = seat
        text = plain(log_lines(model, 80, 12))
        steps = game.breakdown(seat)
        assert steps[-1].total == game.strength(seat)
        assert f"row worth {game.strength(seat)}?" in text.splitlines()[0]
        for step in steps:
            assert any(
                line.strip().startswith(step.label) and line.endswith(f"{step.total:>4}")
                for line in text.splitlines()
            ), (step, text)
    rows = plain(rows_lines(model, 50, 8))
    assert "you" in rows and f" {game.strength(0):>3} 6 Drummer Heroine" in rows


def test_the_hand_marks_the_playable_cards_with_the_keys_that_choose_them() -> None:
    model = model_of_game(bishop_battle(), seat=1)
    assert plain(hand_lines(model, 80, 2)) == " Hand (1)  1[1]"
    model.choose_numbered(1)
    assert status_line(model, 80) == [
        ("class:command", " Enter: play 1 (strength: yours 8 -> 9) · Esc: cancel")
    ]


def test_a_duel_shows_the_battles_won_instead_of_a_map() -> None:
    game = Game.new("zman-duel", players=2, seed=5)
    text = plain(board_lines(model_of_game(game), MAP_WIDTH, 8))
    assert text.splitlines()[0] == " Battles won  (first to 3 battles wins)"
    assert "Torino" not in text and "cards left in each deck" in text


def test_the_end_screen_shows_the_winners_how_they_won_and_how_to_verify() -> None:
    game = play_out(Game.new("zman", players=3, seed=4), [GreedyBot(s) for s in range(3)])
    model = model_of_game(game)
    assert "Writing the record..." in plain(log_lines(model, 80, 12))
    model.record = "/data/records/game.cdr"
    text = plain(log_lines(model, 80, 12))
    assert text.splitlines()[0].startswith(" Game over")
    assert " The record is kept; check it yourself: condottiere verify" in text.splitlines()
    assert "   /data/records/game.cdr" in text.splitlines()
    assert "Record hash: " + "ab" * 32 in text
    assert status_line(model, 80)[0][1].strip().startswith("q leave")
    assert " check it yourself: condottiere verify /data/records/game.cdr" in plain(
        log_lines(model, 100, 12)
    )


def test_at_80_columns_a_long_record_path_is_shown_whole_and_the_keys_say_how_to_stop() -> None:
    game = play_out(Game.new("zman", players=3, seed=4), [GreedyBot(s) for s in range(3)])
    model = model_of_game(game)
    model.record = "/home/ada/.local/share/condottiere/play/records/20261125-101710-28b0d500.cdr"
    lines = plain(log_lines(model, 80, 12)).splitlines()
    assert all(len(line) <= 80 for line in lines)
    assert "".join(line.strip() for line in lines if line.startswith("   /")) == model.record
    playing = model_of_game(battle())
    assert plain([status_line(playing, 80)]).endswith("· ^C stop")


def test_the_help_page_holds_the_rules_summary_of_the_edition_played() -> None:
    model = model_of_game(Game.new("ffg", players=3, seed=1))
    text = plain(help_lines(model, 100, 200))
    for rule in rules_summary("ffg", 3):
        assert rule.split(".")[0][:60] in " ".join(text.split())
    model.scroll = 1000
    assert plain(help_lines(model, 100, 10)).splitlines()[-1].strip() != ""


def test_the_log_shows_the_latest_lines_and_scrolls_back() -> None:
    events = tuple(TableEvent("move", f"line {n}", 1) for n in range(30))
    model = model_of_game(Game.new("zman", players=3, seed=1), events=events)
    assert plain(log_lines(model, 80, 5)).splitlines()[-1] == " line 29"
    model.scroll = 10
    assert plain(log_lines(model, 80, 5)).splitlines()[-1] == " line 19"


@pytest.mark.parametrize(("width", "height"), [(80, 24), (132, 43)])
def test_the_whole_screen_fits_the_terminal(width: int, height: int) -> None:
    game = bishop_battle()
    lines = screen_of(model_of_game(game), width, height)
    assert len(lines) == height and all(cells(line) <= width for line in lines)
    text = "\n".join(lines)
    assert "Your turn" not in lines[0] and "Bob is playing in the battle for Firenze" in lines[0]
    for region in REGIONS:
        assert region in text
    assert "Hand (1)  [2]" in text
    assert "Battle for Firenze · Spring" in text


def test_long_wide_and_hostile_names_never_break_the_screen() -> None:
    names = ("A" * 40, "漢字の名前" * 4, "\x1b[31mred", "e\u0301\u0301", "🂡🂡🂡", "z")
    game = play_out(Game.new("zman", players=6, seed=2), [GreedyBot(s) for s in range(6)])
    events = (TableEvent("chat", "x" * 500 + "\x1b[2J", 2),)
    model = model_of_game(game, names=names, events=events)
    for width, height in ((80, 24), (100, 30)):
        lines = screen_of(model, width, height)
        assert all(cells(line) <= width for line in lines)
        assert not any("\x1b" in line for line in lines)


def test_every_card_of_a_row_is_named_or_abbreviated_to_fit() -> None:
    game = bishop_battle()
    narrow = plain(rows_lines(model_of_game(game), 32, 8))
    wide = plain(rows_lines(model_of_game(game), 60, 8))
    assert "Drm Her" in narrow and f"{card_name('drummer')} {card_name('heroine')}" in wide

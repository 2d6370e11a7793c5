"""The client's model: what happens now, the seats, the choices and what the game's screen
draws of them (the hand, the map), the end of the game, and what the peer layer reports (a
deal under way, a cheat caught), from real engines and real tables."""

from __future__ import annotations

import dataclasses

import pytest

from condottiere.bots import GreedyBot, play_out
from condottiere.cli.client.model import Answer, Presence, TableModel, Tone
from condottiere.cli.client.views import (
    board_lines,
    hand_lines,
    lobby_lines,
    plain,
    status_line,
)
from condottiere.crypto import Identity
from condottiere.games.condottiere import REGIONS, Game
from condottiere.games.condottiere.board import ADJACENT, connected_groups
from condottiere.interface import OutcomeKind
from condottiere.interface.screen import Choices
from condottiere.peer.controller import snapshot_of
from condottiere.peer.driver import Halt, MemoryKeeper, Table, TableEvent
from condottiere.peer.entries import LogEntry, Reason, make_entry
from condottiere.peer.lobby import TableSpec
from condottiere.peer.steps import StepKind
from condottiere.peer.steps.audit import AUDIT
from condottiere.peer.steps.keys import DEALINGS
from condottiere.peer.steps.leavers import REKEY, STAND_IN
from condottiere.peer.steps.moves import HAND_SHOWN
from condottiere.v1 import log_pb2
from tests.cli.client.scenes import model_of_game, model_of_table, snapshot_of_game
from tests.peer.tables import Harness


def battle() -> Game:
    """Three seats fighting for Firenze; seat 0 to play."""
    return Game.setup(
        "zman", players=3, first=0, battle="Firenze", control={"Milano": 1, "Roma": 2},
        hands=[["10", "6", "drummer", "heroine", "scarecrow"], ["10", "5", "3"], ["2", "4"]],
    )


def region_styles(model: TableModel) -> dict[str, str]:
    """Each region of the map as the shell draws it, with the style of its name."""
    return {
        text: style
        for line in board_lines(model, 80, 8)
        for style, text in line
        if text in REGIONS
    }


def chosen_cards(model: TableModel) -> list[str]:
    """The cards of the drawn hand under the cursor."""
    return [text for line in hand_lines(model, 80, 2) for style, text in line
            if "class:chosen" in style]


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_banner_says_whose_turn_it_is_what_they_must_decide_and_since_when() -> None:
    game = battle()
    mine = model_of_game(game, seat=0)
    assert mine.banner().headline == "Your turn in the battle for Firenze: play a card or pass"
    assert mine.banner().tone is Tone.TURN
    clock = Clock()
    theirs = TableModel(clock=clock)
    theirs.update(snapshot_of_game(game, 1, since=90.0), game, (), {})
    banner = theirs.banner()
    assert banner.headline == "Ada is playing in the battle for Firenze"
    assert banner.tone is Tone.WAIT and theirs.waited(banner) == 10.0
    assert "Battle marker: A ada" in banner.detail


def test_a_seat_the_peer_cannot_reach_is_shown_as_waited_for_with_the_reason() -> None:
    game = battle()
    model = TableModel()
    model.update(snapshot_of_game(game, 1), game, (), {"127.0.0.1:5000": "nobody answers there"})
    assert model.banner().headline == "Ada is playing in the battle for Firenze"
    assert model.banner().detail.startswith("No link to ada's peer (nobody answers there)")
    assert model.seat(0) is not None and model.seat(0).link == "nobody answers there"  # type: ignore[union-attr]


def test_each_seat_is_marked_by_a_letter_of_its_own_when_initials_clash() -> None:
    model = model_of_game(battle(), names=("ada", "Alan", "bob"))
    assert [(info.seat, info.mark, info.you) for info in model.seats()] == [
        (0, "A", True), (1, "L", False), (2, "B", False),
    ]


def test_seats_that_share_a_name_get_names_of_their_own() -> None:
    played = (TableEvent("move", "seat 0 (bot) plays 3", 0),
              TableEvent("move", "seat 1 (bot) plays 4", 1))
    model = model_of_game(battle(), events=played, names=("bot", "bot", "bea"))
    assert [(info.name, info.mark) for info in model.seats()] == [
        ("bot", "B"), ("bot 2", "O"), ("bea", "E"),
    ]
    assert [line.text for line in model.log()] == ["bot plays 3", "bot 2 plays 4"]


def test_in_a_battle_the_choices_are_the_cards_of_the_hand_then_pass() -> None:
    game = battle()
    game.play("play 10")
    game.play("pass")
    game.play("play 2")  # seat 0 again: a Scarecrow may take its 10 back
    model = model_of_game(game)
    assert model.choices() == Choices(
        ("play 6", "play heroine", "play drummer", "play scarecrow 10", "pass"),
        ("play 6", "play heroine", "play drummer", "play scarecrow 10"),
        "pass",
    )
    assert plain(hand_lines(model, 80, 2)) == " Hand (4)  1[6] 2[Heroine] 3[Drummer] 4[Scarecrow]"
    assert model.choose_numbered(4) == "play scarecrow 10"
    assert chosen_cards(model) == ["[Scarecrow]"]
    assert model.step_choice(+1) == "pass"
    assert chosen_cards(model) == []
    assert model.step_choice(+1) == "play 6"  # around again
    assert model.choose_numbered(9) is None
    assert model.choose_move(model.choices().space) == "pass"


def test_the_effect_of_a_card_is_the_strength_it_gives_and_a_region_its_borders() -> None:
    model = model_of_game(battle())
    assert model.effect("play drummer") == "no change in strength"
    assert model.effect("play 10") == "strength: yours 0 -> 10"
    assert model.effect("pass") == "you are out of this battle"
    assert model.effect("battle Siena") == "borders Firenze, Roma"
    assert model.effect("play 7") == ""


def test_choosing_a_battle_lists_the_free_regions_in_the_maps_reading_order() -> None:
    game = Game.setup("zman", players=3, first=0, control={"Milano": 1}, favor="Roma")
    model = model_of_game(game)
    assert model.banner().headline == "Your turn: choose where the next battle is fought"
    choices = model.choices().moves
    assert choices[:3] == ("battle Torino", "battle Mantova", "battle Venezia")
    assert len(choices) == 15 and "battle Roma" not in choices and "battle Milano" not in choices
    assert model.choices().numbered == () and model.choices().space is None
    model.choose(choices.index("battle Siena"))
    styles = region_styles(model)
    assert "class:chosen" in styles["Siena"] and "class:choosable" in styles["Lucca"]
    assert "class:choosable" not in styles["Roma"]
    board = plain(board_lines(model, 80, 8))
    assert "[Siena ·]" in board and "Roma *" in board and "Milano B" in board
    assert "class:seat.1" in styles["Milano"]


def test_the_end_says_who_won_and_how() -> None:
    game = play_out(Game.new("zman", players=3, seed=4), [GreedyBot(s) for s in range(3)])
    model = model_of_game(game)
    ending = model.ending()
    outcome = game.outcome
    assert ending is not None and outcome is not None and model.banner().tone is Tone.OVER
    assert outcome.kind is OutcomeKind.VICTORY
    (winner,) = outcome.winners
    name = model.who(winner)
    assert ending.lines[0] == f"{name[0].upper()}{name[1:]} won: {outcome.how}."
    regions = [r for r, owner in game.control.items() if owner == winner]
    group = max(connected_groups(regions), key=len)
    if len(group) >= 3:
        assert outcome.how == f"{len(group)} connected regions"
        assert all(ADJACENT[r] & group for r in group)
    assert ending.lines[-1].startswith("Regions: you ")
    assert f"{name} {len(regions)} ({', '.join(sorted(regions))})" in ending.lines[-1]


def test_a_duel_ends_with_battles_won() -> None:
    game = play_out(Game.new("zman-duel", players=2, seed=3), [GreedyBot(1), GreedyBot(2)])
    ending = model_of_game(game, seat=1).ending()
    assert ending is not None and game.outcome is not None
    assert game.outcome.how in ending.lines[0]
    assert ending.lines[-1].startswith("Battles won: ")
    assert region_styles(model_of_game(game)) == {}


def test_a_seat_put_out_is_told_the_others_play_on_and_what_it_can_still_do() -> None:
    halt = Halt("this seat was put out: ada silent at step 40 for 120 s; the others play on "
                "without it", None, 1)
    model = model_of_game(battle(), seat=1, halt=halt)
    banner = model.banner()
    assert banner.headline == "You are out of the game: " + halt.detail
    assert "The others play on without you" in banner.detail and "press q" in banner.detail
    assert "cannot go on" not in banner.detail and "watch" not in banner.detail
    ending = model.ending()
    assert ending is not None and ending.title == "You are out of the game"
    assert "The others play on without you." in ending.lines


def test_another_seat_that_halts_the_table_is_not_told_as_this_players_own() -> None:
    halt = Halt("abandoned: seat 2 (cyd) left (a second seat gone); the record is kept",
                None, 2)
    model = model_of_game(battle(), seat=1, halt=halt)
    assert model.banner().headline.startswith("The table has stopped: abandoned")


def test_a_cheat_caught_by_the_peer_layer_stops_the_screen_with_who_and_what() -> None:
    halt = Halt("seat 2 (cyd) cheated: bad-proof: a share does not verify", None, 2,
                Reason.BAD_PROOF)
    model = model_of_game(battle(), halt=halt)
    banner = model.banner()
    assert banner.tone is Tone.ALERT
    assert banner.headline == "The table has stopped: " + halt.detail
    assert "signed evidence" in banner.detail
    ending = model.ending()
    assert ending is not None and ending.lines[0] == halt.detail


def test_an_equivocation_at_a_real_table_is_shown_with_the_cheat_and_its_proof() -> None:
    harness = Harness("zman", 3, seed=5)
    harness.deliver()
    equivocate(harness, cheat=1)
    model = model_of_table(harness, seat=0)
    assert model.banner().tone is Tone.ALERT
    assert "seat 1 (seat1) cheated: equivocation" in model.banner().headline
    assert any(line.kind == "halt" and "cheated" in line.text for line in model.log())
    ending = model.ending()
    assert ending is not None and "signed entries that prove it" in ending.lines[1]


def equivocate(harness: Harness, cheat: int) -> None:
    """Seat ``cheat`` signs two different entries with one sequence number, and sends one to
    each of two other seats (as in the peer layer's own test)."""
    table = harness.tables[cheat]
    log = table.logs.log(table.me)
    others = [seat for seat in range(len(harness.tables)) if seat != cheat][:2]
    for seat in others:
        entry = make_entry(table.identity, table.table_id, len(log), log[-1].hash, step=0,
                           heads=(), body=log_pb2.Chat(text=f"to seat {seat}"))
        harness.tables[seat].receive(entry.signed)
    harness.deliver()


class StalledShuffle(Harness):
    """Seat 1's shuffle never arrives."""

    def blocked(self, table: Table, entry: LogEntry) -> bool:
        return entry.kind == "shuffle" and entry.author == self.tables[1].me


def test_a_shuffle_under_way_shows_who_is_shuffling_and_how_far_the_chain_is() -> None:
    harness = StalledShuffle("zman", 3, seed=2)
    harness.deliver()
    model = model_of_table(harness, seat=0)
    banner = model.banner()
    assert banner.headline == "Shuffling the deck"
    assert banner.detail.startswith("Seat 1 (seat1) to shuffle deck 1: re-encrypting"), banner
    assert banner.progress is not None and banner.progress[0] < banner.progress[1]


@pytest.mark.parametrize(
    ("kind", "text", "headline"),
    [
        (HAND_SHOWN, "seat 1 (bob) to show a hand to seat 0 (ada)", "Showing a hand"),
        (STAND_IN, "seat 1 (bob) to stand in for a seat that left",
         "Standing in for a seat that left"),
        (REKEY, "seat 1 (bob) to re-key deck 1 without a seat that left",
         "Re-keying a deck"),
        (DEALINGS, "the backups of the keys of seat 1 (bob)", "Backing up the keys"),
        (AUDIT, "the audit secrets of seat 1 (bob)", "Auditing the game"),
    ],
)
def test_the_top_line_says_what_the_table_waits_for_at_every_protocol_step(
    kind: StepKind, text: str, headline: str
) -> None:
    game = battle()
    shown = snapshot_of_game(game, 0)
    assert shown.waiting is not None
    waiting = dataclasses.replace(shown.waiting, kind=kind, seats=(1,), text=text)
    model = TableModel()
    model.update(dataclasses.replace(shown, waiting=waiting), game, (), {})
    banner = model.banner()
    assert banner.headline == headline
    assert banner.detail.startswith(text[0].upper() + text[1:] + ": "), banner
    assert banner.tone is Tone.WAIT


def test_a_table_that_is_not_full_yet_says_how_to_join_it_and_who_is_there() -> None:
    spec = TableSpec("ffg", 3, ("sieges",), "Friday", "ada", "")
    ada = Identity.generate()
    table = Table.create(ada, spec, MemoryKeeper())
    model = TableModel()
    model.address, model.on_lan = "192.168.1.5:4000", True
    model.fingerprint = ada.public.fingerprint()
    model.update(snapshot_of(table, 0.0), None, tuple(table.events), {})
    assert model.banner().headline == "Waiting for players to join: 1 of 3 here"
    assert "fingerprint" in model.banner().detail
    assert model.scene() is None and model.choices() == Choices()
    lobby = plain(lobby_lines(model, 80, 12)).splitlines()
    assert lobby[0] == " Table 'Friday' · Condottiere · 3 seats"
    assert lobby[1].startswith(" Edition Fantasy Flight") and lobby[1].endswith(
        "(ffg) · house rules: sieges")
    assert lobby[3].split() == ["-", "ada", "(you)", ada.public.fingerprint(), "joined"]
    assert "2 seats free" in lobby[4]
    assert lobby[5] == " Join by name:    condottiere play --join Friday"
    assert lobby[6] == " Join by address: condottiere play --join 192.168.1.5:4000"
    assert all(len(line) <= 80 for line in lobby)


@pytest.mark.parametrize("text", ["\x1b[2J\x1b[H pwned", "tab\there", "bell\x07"])
def test_text_from_the_network_is_shown_as_printable_characters_only(text: str) -> None:
    model = model_of_game(battle(), events=(TableEvent("chat", f"bob: {text}", 1),))
    shown = model.log()[0].text
    assert shown.isprintable() and shown.startswith("bob: ")
    assert sorted(region_styles(model)) == sorted(REGIONS)


def test_after_a_bishop_its_player_places_the_favor_on_a_region_the_map_offers() -> None:
    game = Game.setup("zman", players=2, first=0, battle="Firenze",
                      hands=[["bishop", "5"], ["3", "spy"]])
    game.play("play bishop")
    model = model_of_game(game)
    assert model.banner().headline == "Your turn: place the Favor (after your Bishop)"
    assert model.choices().moves[0] == "favor Torino"
    assert model.step_choice(-1) == "favor Napoli"
    styles = region_styles(model)
    assert "class:chosen" in styles["Napoli"] and "class:choosable" in styles["Roma"]
    assert "class:choosable" not in styles["Firenze"]


def test_a_hand_without_mercenaries_may_be_discarded_or_kept() -> None:
    game = Game.setup("zman", players=2, first=0, battle="Firenze",
                      hands=[["10", "spy"], ["3", "heroine", "spy"]])
    for move in ("play 10", "play 3", "pass", "pass"):
        game.play(move)
    model = model_of_game(game)
    assert model.banner().headline == (
        "Your turn: discard your hand (it holds no mercenary) or keep it"
    )
    assert model.choices() == Choices(("discard", "keep"))
    assert model.choose_numbered(1) is None  # the number keys choose cards in a battle only
    assert plain(hand_lines(model, 80, 2)) == " Hand (1)  [Spy]"


def test_the_move_menu_is_offered_on_an_empty_line_only_when_tab_asks_for_it() -> None:
    """prompt_toolkit runs a completion again once the line was sent and emptied: that one
    must offer nothing, or the last turn's menu stays over the log."""
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from condottiere.cli.client.commands import MoveCompleter

    model = model_of_game(battle())
    completer = MoveCompleter(model)
    rerun = completer.get_completions(Document(""), CompleteEvent(text_inserted=False))
    assert list(rerun) == []
    tab = completer.get_completions(Document(""), CompleteEvent(completion_requested=True))
    assert [c.text for c in tab] == [str(move) for move in model.view.legal_moves]  # type: ignore[union-attr]
    typed = completer.get_completions(Document("pa"), CompleteEvent(text_inserted=True))
    assert [c.text for c in typed] == ["pass"]
    whole = completer.get_completions(Document("pass"), CompleteEvent(text_inserted=True))
    assert list(whole) == [], "a move typed in full leaves no menu of one over the log"


# ------------------------------------------------------------------ admission


def asked_table(*names: str) -> tuple[TableModel, list[Identity]]:
    """ada's three-seat table that is not open, with a joiner asking for a seat under each
    of ``names``, as ada's screen shows it."""
    from tests.peer.test_lobby import join_of

    ada = Identity.generate()
    table = Table.create(ada, TableSpec("zman", 3, (), "Friday", "ada", ""), MemoryKeeper())
    table.lobby.open = False
    joiners = [Identity.generate() for _ in names]
    for joiner, name in zip(joiners, names, strict=True):
        table.lobby.add_join(join_of(table.lobby, joiner, name))
    model = TableModel()
    model.fingerprint = ada.public.fingerprint()
    model.update(snapshot_of(table, 0.0), None, tuple(table.events), {})
    return model, joiners


def test_a_joiner_who_asks_for_a_seat_is_a_lobby_row_with_its_fingerprint_and_takes_no_seat(
) -> None:
    model, (bob,) = asked_table("bob")
    banner = model.banner()
    assert banner.headline == "1 player asks for a seat (1 of 3 here): admit or refuse them"
    assert banner.tone is Tone.TURN and "'admit NAME'" in banner.detail
    lobby = model.lobby()
    assert lobby is not None and lobby.free == 2
    assert [(row.name, row.fingerprint, row.presence) for row in lobby.asking] == [
        ("bob", bob.public.fingerprint(), Presence.ASKING)]
    shown = plain(lobby_lines(model, 80, 12)).splitlines()
    assert shown[4].split() == ["-", "bob", bob.public.fingerprint(), "asks", "for", "a", "seat"]
    assert "2 seats free" in shown[5]


def test_the_keys_pick_a_joiner_who_asks_and_turn_admit_into_refuse_and_back() -> None:
    model, (bob, cy) = asked_table("bob", "cy")
    first, second = (f"admit {joiner.public.fingerprint()}" for joiner in (bob, cy))
    assert model.answering() is None and model.other_answer() is None
    assert model.step_asking(+1) == first
    assert model.step_asking(+1) == second
    assert model.other_answer() == f"refuse {cy.public.fingerprint()}"
    assert model.step_asking(+1) == f"refuse {bob.public.fingerprint()}"  # the answer is kept
    assert model.other_answer() == first
    assert model.step_asking(-1) == second
    held = model.answering()
    assert held is not None and held == (Answer.ADMIT, model.asking()[1])
    drawn = lobby_lines(model, 80, 12)
    picked = [line for line in drawn if any("reverse" in style for style, _ in line)]
    assert [plain([line]).split()[1] for line in picked] == ["cy"]
    assert plain(picked).endswith("asks for a seat: admit?")
    assert plain([status_line(model, 80)]).startswith(
        f" Enter: admit cy ({cy.public.fingerprint()})")


def test_a_joiner_is_named_by_name_or_fingerprint_and_two_of_one_name_by_fingerprint_only(
) -> None:
    model, (_, other, _) = asked_table("bob", "Bob", "cy")
    assert model.joiner("CY") == model.asking()[2]
    assert model.joiner("bob") is None  # two joiners are called bob
    assert model.joiner(other.public.fingerprint()) == model.asking()[1]
    assert model.joiner("dan") is None


def test_nobody_asks_at_an_open_table_and_the_keys_explain_rows_as_before() -> None:
    from tests.peer.test_lobby import join_of

    ada = Identity.generate()
    table = Table.create(ada, TableSpec("zman", 3, (), "Friday", "ada", ""), MemoryKeeper())
    table.lobby.add_join(join_of(table.lobby, Identity.generate(), "bob"))
    model = TableModel()
    model.update(snapshot_of(table, 0.0), None, tuple(table.events), {})
    lobby = model.lobby()
    assert lobby is not None and lobby.asking == () and lobby.free == 1
    assert model.answers() == () and model.step_asking(+1) is None


def test_the_lobby_shows_the_seat_freed_and_why_and_the_ready_banner_tells_the_deadline(
) -> None:
    from tests.peer.test_unready import Lobby as UnreadyLobby
    from tests.peer.test_unready import Unready

    harness = UnreadyLobby("zman", 3, seed=2, kinds={2: Unready})
    creator = harness.tables[0]
    model = TableModel()
    model.fingerprint = creator.identity.public.fingerprint()
    model.update(snapshot_of(creator, 0.0), None, tuple(creator.events), {})
    banner = model.banner()
    assert banner.headline == "Waiting for seat2 to be ready", banner.headline
    assert "not ready within 60 s is freed for the next player who asks" in banner.detail
    harness.add_joiner("carol", Unready)  # so that the table stays in the lobby
    harness.state_silent(but=lambda table: table is harness.tables[2])
    model.update(snapshot_of(creator, 0.0), None, tuple(creator.events), {})
    shown = plain(lobby_lines(model, 120, 14))
    # a freed seat's words name the creator's decision (protocol 6: each peer follows its own)
    assert "freed: seat 2 (seat2) silent at the start for 10000 s; signed by seat 0" \
        " (not ready in time)" in shown, shown
    assert "carol" in shown


def test_a_forced_move_waiting_to_be_sent_says_why_it_waits() -> None:
    from dataclasses import replace

    from condottiere.cli.client.model import FORCED_WAIT
    from tests.cli.client.scenes import snapshot_of_game

    game = battle()
    model = TableModel()
    seat = game.to_act
    assert seat is not None
    model.update(replace(snapshot_of_game(game, seat), forced=True), game, (), {})
    banner = model.banner()
    assert banner.headline == "Your only legal move is played for you"
    assert banner.detail == FORCED_WAIT and "timing" in banner.detail


def test_a_cards_number_key_stays_when_the_cards_before_it_are_played() -> None:
    model = model_of_game(battle())
    here, there = "Your turn in the battle for Milano", "Your turn in the battle for Roma"
    assert model._keep_keys(here, ("play 2", "play 3", "play 5")) == ("play 2", "play 3", "play 5")
    assert model._keep_keys(here, ("play 2", "play 5")) == ("play 2", "", "play 5")
    assert model._keep_keys(here, ("play 5", "play 6")) == ("", "", "play 5", "play 6")
    assert model._keep_keys(there, ("play 5", "play 6")) == ("play 5", "play 6"), "a new battle"
    many = tuple(f"play {n}" for n in range(1, 10))
    assert model._keep_keys(there, ("play 10", "play 5")) == ("play 5", "", "play 10")
    assert model._keep_keys(there, many) == many, "past 9 keys: numbered afresh"


def test_the_help_page_gives_the_top_lines_in_full() -> None:
    from condottiere.cli.client.views import banner_lines, help_lines

    halt = Halt("this seat was put out: seat 1 (bob) silent at a step it passed for 120 s; "
                "signed by seats 0, 2 and 3; the others play on without it", None, 1)
    model = model_of_game(battle(), seat=1, halt=halt)
    top = plain(banner_lines(model, 80))
    assert "the others play on without it" not in top, "cut at 80 columns"
    page = " ".join(line.strip() for line in plain(help_lines(model, 80, 60)).splitlines())
    assert halt.detail in page and "press q to leave" in page

"""The rule decisions of engine/RULES.md that no scenario suite above covers."""

from __future__ import annotations

from collections.abc import Sequence

from condottiere.games.condottiere import REGIONS, Game
from condottiere.games.condottiere.chance import SeededChance
from condottiere.interface import Deal


def _moves(game: Game) -> set[str]:
    return {str(move) for move in game.legal_moves()}


def test_sieges_lets_the_marker_holder_open_a_battle_in_a_controlled_region() -> None:
    hands = [["10"], ["5"]]
    plain = Game.setup("ffg", 2, hands=hands, control={"Milano": 1})
    sieges = Game.setup("ffg", 2, hands=hands, control={"Milano": 1}, options=("sieges",))
    assert "battle Milano" not in _moves(plain)
    assert "battle Milano" in _moves(sieges)


def test_a_tied_siege_leaves_the_owner_in_control_and_the_token_goes_clockwise() -> None:
    game = Game.setup("ffg", 3, hands=[["5"], ["5"], []], control={"Milano": 1},
                      battle="Milano", first=1, options=("sieges",))
    game.play("play 5")  # seat 1, the owner
    game.play("play 5")  # seat 0 (seat 2 has no cards)
    assert game.control["Milano"] == 1
    assert game.battle_marker == 2  # left of the holder, not the owner


def test_the_favor_may_go_back_to_the_region_it_was_lifted_from() -> None:
    game = Game.setup("zman", 2, hands=[["bishop", "1"], ["2"]], favor="Roma", battle="Firenze")
    game.play("play bishop")
    assert game.phase == "favor"
    assert "favor Roma" in _moves(game)
    assert "favor Firenze" not in _moves(game)


def test_cede_goes_round_the_table_once_then_the_holder_must_choose() -> None:
    game = Game.setup("ffg", 3, hands=[["10"], ["5"], ["1"]], first=0, options=("cede",))
    game.play("cede")
    game.play("cede")
    assert (game.battle_marker, game.to_act) == (2, 2)
    assert "cede" not in _moves(game)


def test_several_winters_lie_together_in_ffg_and_a_spring_discards_them_all() -> None:
    game = Game.setup("ffg", 2, hands=[["winter", "10", "spring"], ["winter", "6"]],
                      battle="Firenze")
    for move in ("play 10", "play winter", "play winter", "play 6"):
        game.play(move)
    assert game.season_cards == ("winter", "winter")
    assert (game.strength(0), game.strength(1)) == (1, 1)
    game.play("play spring")
    assert game.season_cards == ("spring",)
    assert game.discard_pile.count("winter") == 2


class BishopFirst(SeededChance):
    """Chance that stacks every pile re-formed in play with a Bishop every 18 cards (the hand of
    an FFG final battle between two seats of 8 regions: 10 + 8), so that each such hand holds
    one; the scenario's own deck stays as it was given."""

    def deal(
        self, node: Deal, *, pile: int, epoch: int, contents: Sequence[str], dealt: int
    ) -> tuple[str, ...]:
        if epoch == 0:
            return super().deal(node, pile=pile, epoch=epoch, contents=contents, dealt=dealt)
        bishops = [card for card in contents if card == "bishop"]
        others = [card for card in contents if card != "bishop"]
        order = [bishops.pop() if bishops and position % 18 == 0 else others.pop(0)
                 for position in range(dealt + node.count)]
        return tuple(order[dealt:])


def test_a_bishop_in_the_ffg_final_battle_places_no_favor() -> None:
    # 16 regions shared 8 and 8, the Favor on the 17th: no battle can be opened, the two seats
    # tie for most regions, and the final battle is dealt at once, a Bishop in each hand.
    control = {region: index % 2 for index, region in enumerate(r for r in REGIONS if r != "Roma")}
    header = Game.setup("ffg", 2, hands=[[], []], control=control, favor="Roma").record()
    del header["events"]
    game = Game(header, chance=BishopFirst(0))
    assert game.final_battle and game.phase == "battle"
    assert [game.hand_size(seat) for seat in range(2)] == [18, 18]
    seat = game.to_act
    assert seat is not None and "bishop" in game.hand(seat)
    game.play("play bishop")
    assert (game.phase, game.favor, game.to_act) == ("battle", "Roma", 1 - seat)

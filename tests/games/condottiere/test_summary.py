"""The rules summary of each edition says what its data says, and nothing of other decks."""

from __future__ import annotations

import pytest

from condottiere.games.condottiere import CARDS, EDITIONS
from condottiere.games.condottiere.cards import card_name
from condottiere.games.condottiere.summary import rules_summary


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_the_summary_names_the_victory_and_only_the_cards_of_the_editions_deck(
    edition: str,
) -> None:
    rules = EDITIONS[edition]
    players = rules.max_players
    lines = rules_summary(edition, players)
    victory = rules.victory(players)
    goal = lines[1]
    assert f" {victory.connected} " in goal
    assert not rules.board or victory.total is None or f"or {victory.total} in all" in goal
    deck = {card for card, _ in rules.cards}
    described = {line.split(":")[0] for line in lines[2:]}
    for card in CARDS:
        if not card.isdigit():
            assert (card_name(card) in described) == (card in deck), card


def test_options_change_the_summary_and_an_option_the_edition_lacks_is_refused() -> None:
    plain = rules_summary("ffg", 3)
    sieges = rules_summary("ffg", 3, ["sieges", "cede"])
    assert sieges[0].endswith("options: cede, sieges")
    assert any("defends" in line for line in sieges)
    assert not any("defends" in line for line in plain)
    assert any("'cede'" in line for line in sieges)
    with pytest.raises(ValueError, match="zman has no option 'cede'"):
        rules_summary("zman", 3, ["cede"])
    with pytest.raises(ValueError, match="unknown edition"):
        rules_summary("chess", 2)

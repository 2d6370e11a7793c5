"""Scoring a whole battle at once (`strengths`, what the end of every battle uses) agrees with
scoring each row on its own (`strength` against the table's highest mercenary)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from condottiere.games.condottiere.cards import CARD_ORDER
from condottiere.games.condottiere.strength import highest_mercenary, strength, strengths

rows_of_a_battle = st.lists(st.lists(st.sampled_from(sorted(CARD_ORDER)), max_size=8), max_size=6)
seasons = st.sampled_from([None, "winter", "spring"])


@given(rows_of_a_battle, seasons)
def test_scoring_every_row_at_once_equals_scoring_each_row(
    rows: list[list[str]], season: str | None
) -> None:
    highest = highest_mercenary(rows)
    assert strengths(rows, season) == tuple(strength(row, season, highest) for row in rows)


def test_spring_favours_only_the_highest_mercenary_on_the_whole_table() -> None:
    rows = [["6", "6", "drummer"], ["10"], []]
    assert strengths(rows, "spring") == (24, 13, 0)
    assert strengths(rows, "winter") == (4, 1, 0)

"""The board as data: the text map places every region once, as the board lies."""

from __future__ import annotations

from condottiere.games.condottiere.board import REGIONS, TEXT_MAP


def test_the_text_map_places_every_region_without_overlap_even_framed_and_marked() -> None:
    assert set(TEXT_MAP) == set(REGIONS)
    taken: set[tuple[int, int]] = set()
    for region, (line, column) in TEXT_MAP.items():
        cells = {(line, x) for x in range(column - 1, column + len(region) + 3)}
        assert column >= 1 and not cells & taken, region
        taken |= cells


def test_the_text_map_has_north_at_the_top() -> None:
    line = {region: place[0] for region, place in TEXT_MAP.items()}
    assert line["Milano"] < line["Firenze"] < line["Roma"] < line["Napoli"]
    assert TEXT_MAP["Torino"][1] < TEXT_MAP["Venezia"][1]

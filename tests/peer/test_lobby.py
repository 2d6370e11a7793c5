"""The lobby (peer/lobby.py): table specs, the definition, joins and the seating."""

from __future__ import annotations

import dataclasses

import pytest
from google.protobuf.message import Message

from condottiere.crypto import Identity
from condottiere.games.condottiere import GAME_NAME
from condottiere.interface import TableRules
from condottiere.peer.entries import LogEntry, Reason, Rejection, make_entry
from condottiere.peer.lobby import NONCE_BYTES, PROTOCOL, Lobby, TableSpec, check_text
from condottiere.v1 import log_pb2

TABLE = b"T" * 32
CREATOR = Identity.generate()
JOINERS = [Identity.generate() for _ in range(6)]


def spec_of(**changes: object) -> TableSpec:
    spec = TableSpec(
        edition="zman", seats=3, options=(), name="Friday", player="ada", address="127.0.0.1:5000"
    )
    return dataclasses.replace(spec, **changes)  # type: ignore[arg-type]


def definition_of(
    spec: TableSpec | None = None, *, body: Message | None = None, seq: int = 0
) -> LogEntry:
    body = (spec or spec_of()).body() if body is None else body
    previous = b"" if seq == 0 else b"p" * 32
    return make_entry(CREATOR, TABLE, seq, previous, step=1, heads=(), body=body)


def join_of(
    lobby: Lobby,
    identity: Identity,
    player: str = "bob",
    *,
    address: str = "10.0.0.2:5000",
    definition: bytes | None = None,
    seq: int = 0,
) -> LogEntry:
    body = log_pb2.Join(
        definition=lobby.definition.hash if definition is None else definition,
        player=player,
        address=address,
    )
    previous = b"" if seq == 0 else b"p" * 32
    return make_entry(identity, TABLE, seq, previous, step=0, heads=(), body=body)


def seating_of(authors: list[bytes]) -> LogEntry:
    body = log_pb2.Seating(authors=authors)
    return make_entry(CREATOR, TABLE, 1, b"p" * 32, step=2, heads=(), body=body)


def refusal_of(lobby: Lobby, entry: LogEntry) -> Rejection:
    with pytest.raises(Rejection) as caught:
        lobby.add_join(entry)
    assert caught.value.reason is Reason.UNEXPECTED
    assert caught.value.author == entry.author
    return caught.value


# ------------------------------------------------------------------ the spec


@pytest.mark.parametrize(
    "spec",
    [
        spec_of(),
        spec_of(edition="ffg", seats=6, options=("cede", "sieges")),
        spec_of(edition="ffg", seats=2, options=("sieges",)),
        spec_of(edition="zman-duel", seats=2, address=""),
        spec_of(edition="zman-classic", name="N" * 40, player="P" * 40, address="a" * 255),
        spec_of(edition="eurogames", seats=4, name="Zoë's table", player="Ζωή"),
    ],
    ids=["zman", "ffg options", "ffg two", "duel", "longest", "unicode"],
)
def test_spec_round_trips_through_its_definition_body(spec: TableSpec) -> None:
    body = spec.body()
    assert body.protocol == PROTOCOL == log_pb2.PROTOCOL_VERSION_CURRENT
    assert body.game == GAME_NAME
    wire = log_pb2.TableDefinition.FromString(body.SerializeToString())
    assert TableSpec.from_body(wire) == spec
    assert spec.check() is spec


def test_the_rules_of_a_spec_are_what_its_game_needs() -> None:
    spec = spec_of(edition="ffg", seats=4, options=("cede",))
    assert spec.rules == TableRules("condottiere", "ffg", 4, ("cede",))
    assert spec.game_rules.name == "condottiere"


@pytest.mark.parametrize("edition", ["", "zman2", "ZMAN", "condottiere"])
def test_check_refuses_an_unknown_variant(edition: str) -> None:
    with pytest.raises(ValueError, match="unknown edition"):
        spec_of(edition=edition).check()


@pytest.mark.parametrize(
    ("edition", "seats"),
    [("zman", 0), ("zman", 1), ("zman", 7), ("zman-duel", 3), ("ffg", 1000)],
)
def test_check_refuses_a_seat_count_the_edition_does_not_play(edition: str, seats: int) -> None:
    with pytest.raises(ValueError, match="played by"):
        spec_of(edition=edition, seats=seats).check()


@pytest.mark.parametrize(
    "options", [("sieges", "cede"), ("cede", "cede"), ("sieges", "sieges", "cede")]
)
def test_check_refuses_unsorted_or_repeated_options(options: tuple[str, ...]) -> None:
    with pytest.raises(ValueError, match="once each, in order"):
        spec_of(edition="ffg", options=options).check()


@pytest.mark.parametrize(
    ("edition", "options"), [("ffg", ("nonsense",)), ("zman", ("sieges",)), ("ffg", ("",))]
)
def test_check_refuses_an_option_the_edition_does_not_have(
    edition: str, options: tuple[str, ...]
) -> None:
    with pytest.raises(ValueError, match="has no option"):
        spec_of(edition=edition, options=options).check()


BAD_NAMES = ["", "N" * 41, "a\nb", "tab\there", "nul\x00", "zero\u200bwidth", "\x1b[31mred"]


@pytest.mark.parametrize("name", BAD_NAMES)
def test_check_refuses_an_empty_long_or_unprintable_table_name(name: str) -> None:
    with pytest.raises(ValueError, match="a table name"):
        spec_of(name=name).check()


@pytest.mark.parametrize("player", BAD_NAMES)
def test_check_refuses_an_empty_long_or_unprintable_player_name(player: str) -> None:
    with pytest.raises(ValueError, match="a player name"):
        spec_of(player=player).check()


def test_check_refuses_an_address_over_255_characters() -> None:
    assert spec_of(address="a" * 255).check()
    with pytest.raises(ValueError, match="address"):
        spec_of(address="a" * 256).check()


@pytest.mark.parametrize("game", ["", "chess", "Condottiere"])
def test_check_refuses_another_game(game: str) -> None:
    with pytest.raises(ValueError, match="plays captains, condottiere, not"):
        spec_of(game=game).check()


@pytest.mark.parametrize("protocol", [0, 1, 99])
def test_from_body_refuses_another_protocol(protocol: int) -> None:
    body = spec_of().body()
    body.protocol = protocol
    with pytest.raises(ValueError, match="protocol"):
        TableSpec.from_body(body)


def test_every_definition_body_draws_a_fresh_nonce() -> None:
    first, second = spec_of().body(), spec_of().body()
    assert len(first.nonce) == len(second.nonce) == NONCE_BYTES
    assert first.nonce != second.nonce


@pytest.mark.parametrize("size", [0, NONCE_BYTES - 1, NONCE_BYTES + 1])
def test_from_body_refuses_a_definition_without_its_nonce(size: int) -> None:
    body = spec_of().body()
    body.nonce = b"n" * size
    with pytest.raises(ValueError, match="nonce"):
        TableSpec.from_body(body)


def test_from_body_checks_what_it_reads() -> None:
    body = spec_of().body()
    body.seats = 9
    with pytest.raises(ValueError, match="played by"):
        TableSpec.from_body(body)


def test_check_text_takes_1_to_limit_printable_characters() -> None:
    assert check_text("x", "a name") == "x"
    assert check_text("é" * 40, "a name") == "é" * 40
    assert check_text("y" * 500, "a chat line", 500) == "y" * 500
    with pytest.raises(ValueError, match="a chat line must have 1 to 500"):
        check_text("y" * 501, "a chat line", 500)


# ------------------------------------------------------------------ the definition


def test_lobby_starts_from_the_definition_with_the_creator_known() -> None:
    definition = definition_of()
    lobby = Lobby(definition)
    assert lobby.spec == spec_of()
    assert lobby.definition == definition and lobby.creator == CREATOR.public.raw
    assert lobby.names == {CREATOR.public.raw: "ada"}
    assert lobby.addresses == {CREATOR.public.raw: "127.0.0.1:5000"}
    assert lobby.joins == {} and not lobby.seated and lobby.seat_of(CREATOR.public.raw) is None


@pytest.mark.parametrize(
    "body",
    [log_pb2.Chat(text="a table?"), log_pb2.Join(player="x"), log_pb2.Seating()],
    ids=["chat", "join", "seating"],
)
def test_lobby_refuses_a_first_entry_that_is_not_a_table(body: Message) -> None:
    step = 0 if isinstance(body, log_pb2.Chat | log_pb2.Join) else 1
    entry = make_entry(CREATOR, TABLE, 0, b"", step=step, heads=(), body=body)
    with pytest.raises(Rejection) as caught:
        Lobby(entry)
    assert caught.value.reason is Reason.UNEXPECTED


def test_lobby_refuses_a_definition_that_is_not_the_first_entry() -> None:
    with pytest.raises(Rejection) as caught:
        Lobby(definition_of(seq=1))
    assert caught.value.reason is Reason.UNEXPECTED


@pytest.mark.parametrize(
    "spec",
    [spec_of(seats=9), spec_of(edition="nope"), spec_of(name="")],
    ids=["nine seats", "unknown edition", "no name"],
)
def test_lobby_refuses_a_table_it_cannot_play(spec: TableSpec) -> None:
    with pytest.raises(Rejection) as caught:
        Lobby(definition_of(spec))
    assert caught.value.reason is Reason.UNEXPECTED


def test_lobby_refuses_a_definition_of_another_protocol() -> None:
    body = spec_of().body()
    body.protocol = 1
    with pytest.raises(Rejection) as caught:
        Lobby(definition_of(body=body))
    assert caught.value.reason is Reason.UNEXPECTED


# ------------------------------------------------------------------ joins


def test_join_is_taken_with_its_name_and_address() -> None:
    lobby = Lobby(definition_of())
    bob = JOINERS[0]
    entry = join_of(lobby, bob, "bob", address="10.0.0.2:6000")
    lobby.add_join(entry)
    assert list(lobby.joins) == [bob.public.raw]
    assert lobby.joins[bob.public.raw] == entry.body
    assert lobby.names[bob.public.raw] == "bob"
    assert lobby.addresses[bob.public.raw] == "10.0.0.2:6000"


def test_join_that_does_not_open_its_authors_log_is_refused() -> None:
    lobby = Lobby(definition_of())
    refusal_of(lobby, join_of(lobby, JOINERS[0], seq=1))
    assert lobby.joins == {}


def test_the_creator_cannot_join_its_own_table() -> None:
    lobby = Lobby(definition_of())
    refusal_of(lobby, join_of(lobby, CREATOR))
    assert lobby.joins == {} and lobby.names[CREATOR.public.raw] == "ada"


@pytest.mark.parametrize("definition", [b"", b"x" * 32, b"x" * 31])
def test_join_naming_another_definition_is_refused(definition: bytes) -> None:
    lobby = Lobby(definition_of())
    refusal_of(lobby, join_of(lobby, JOINERS[0], definition=definition))
    assert lobby.joins == {}


def test_join_naming_a_definition_of_another_table_is_refused() -> None:
    lobby = Lobby(definition_of())
    other = definition_of(spec_of(name="Saturday"))
    refusal_of(lobby, join_of(lobby, JOINERS[0], definition=other.hash))


@pytest.mark.parametrize("player", BAD_NAMES)
def test_join_with_a_bad_player_name_is_refused(player: str) -> None:
    lobby = Lobby(definition_of())
    refusal_of(lobby, join_of(lobby, JOINERS[0], player))
    assert lobby.joins == {} and JOINERS[0].public.raw not in lobby.names


def test_join_with_an_address_over_255_characters_is_refused() -> None:
    lobby = Lobby(definition_of())
    refusal_of(lobby, join_of(lobby, JOINERS[0], address="a" * 256))
    lobby.add_join(join_of(lobby, JOINERS[1], address="a" * 250 + ":5000"))
    assert list(lobby.joins) == [JOINERS[1].public.raw]


@pytest.mark.parametrize("address", ["unix:/tmp/peer.sock", "10.0.0.5", "h:0", "h:99999"])
def test_join_with_an_address_that_is_not_host_and_port_is_refused(address: str) -> None:
    lobby = Lobby(definition_of())
    refusal_of(lobby, join_of(lobby, JOINERS[0], address=address))
    assert lobby.joins == {}


def test_at_a_table_that_is_not_open_only_admitted_joiners_are_seated_in_their_order() -> None:
    lobby = Lobby(definition_of(spec_of(seats=3)))
    lobby.open = False
    first, second, third = (joiner.public.raw for joiner in JOINERS[:3])
    for joiner in JOINERS[:3]:
        lobby.add_join(join_of(lobby, joiner))
    assert lobby.pending == (first, second, third) and lobby.seating_for() is None
    lobby.admit(third)
    lobby.refuse(first)
    assert lobby.pending == (second,) and lobby.seating_for() is None
    lobby.add_join(join_of(lobby, JOINERS[0]))  # a refused joiner asking again is not heard
    assert first not in lobby.joins and first not in lobby.names
    lobby.admit(second)
    assert lobby.seating_for() == (lobby.creator, second, third)


def test_an_open_table_seats_its_owners_admitted_first_then_goes_round_the_sources() -> None:
    """Three keys of one machine ask first, then two players of other machines and, last, a
    bot the owner admitted: the bot, then one key, then the other machines' players."""
    lobby = Lobby(definition_of(spec_of(seats=5)))
    keys, others, bot = JOINERS[:3], JOINERS[3:5], JOINERS[5]
    for number, key in enumerate(keys):
        lobby.add_join(join_of(lobby, key, address=f"10.0.0.9:{6000 + number}"))
    for number, other in enumerate(others):
        lobby.add_join(join_of(lobby, other, address=f"10.0.0.{number + 2}:5000"))
    lobby.admit(bot.public.raw)
    lobby.add_join(join_of(lobby, bot, address="127.0.0.1:7000"))
    assert lobby.seating_for() == (
        lobby.creator, bot.public.raw, keys[0].public.raw, *(o.public.raw for o in others)
    )


def test_a_join_heard_again_keeps_its_place() -> None:
    lobby = Lobby(definition_of(spec_of(seats=3)))
    first = join_of(lobby, JOINERS[0], "first")
    lobby.add_join(first)
    lobby.add_join(join_of(lobby, JOINERS[1], "second"))
    lobby.add_join(first)
    assert list(lobby.joins) == [JOINERS[0].public.raw, JOINERS[1].public.raw]


# ------------------------------------------------------------------ the seating


def test_seating_for_waits_for_enough_joiners_then_takes_the_first_in_order() -> None:
    lobby = Lobby(definition_of(spec_of(seats=3)))
    keys = [j.public.raw for j in JOINERS]
    assert lobby.seating_for() is None
    lobby.add_join(join_of(lobby, JOINERS[2]))
    assert lobby.seating_for() is None
    lobby.add_join(join_of(lobby, JOINERS[0]))
    assert lobby.seating_for() == (CREATOR.public.raw, keys[2], keys[0])
    lobby.add_join(join_of(lobby, JOINERS[1]))
    assert lobby.seating_for() == (CREATOR.public.raw, keys[2], keys[0])


def test_two_seat_table_is_seated_with_the_first_joiner() -> None:
    lobby = Lobby(definition_of(spec_of(edition="zman-duel", seats=2)))
    assert lobby.seating_for() is None
    lobby.add_join(join_of(lobby, JOINERS[3]))
    lobby.add_join(join_of(lobby, JOINERS[4]))
    assert lobby.seating_for() == (CREATOR.public.raw, JOINERS[3].public.raw)


def test_refused_joins_take_no_seat() -> None:
    lobby = Lobby(definition_of(spec_of(edition="zman-duel", seats=2)))
    with pytest.raises(Rejection):
        lobby.add_join(join_of(lobby, JOINERS[0], ""))
    assert lobby.seating_for() is None


def test_check_seating_gives_the_seats_of_a_valid_seating() -> None:
    lobby = Lobby(definition_of(spec_of(seats=3)))
    authors = [CREATOR.public.raw, JOINERS[0].public.raw, JOINERS[1].public.raw]
    entry = seating_of(authors)
    assert lobby.check_seating(entry) == tuple(authors)
    lobby.seat(entry, tuple(authors))
    assert lobby.seated and lobby.seating == tuple(authors)
    assert lobby.seating_hash == entry.hash
    assert [lobby.seat_of(a) for a in authors] == [0, 1, 2]
    assert lobby.seat_of(JOINERS[5].public.raw) is None


@pytest.mark.parametrize("count", [0, 1, 2, 4])
def test_check_seating_refuses_the_wrong_number_of_authors(count: int) -> None:
    lobby = Lobby(definition_of(spec_of(seats=3)))
    authors = [CREATOR.public.raw] + [j.public.raw for j in JOINERS[: count - 1]]
    with pytest.raises(Rejection) as caught:
        lobby.check_seating(seating_of(authors[:count]))
    assert caught.value.reason is Reason.UNEXPECTED
    assert caught.value.author == CREATOR.public.raw


def test_check_seating_refuses_an_author_seated_twice() -> None:
    lobby = Lobby(definition_of(spec_of(seats=3)))
    twice = [CREATOR.public.raw, JOINERS[0].public.raw, JOINERS[0].public.raw]
    with pytest.raises(Rejection) as caught:
        lobby.check_seating(seating_of(twice))
    assert caught.value.reason is Reason.UNEXPECTED


def test_missing_joins_are_the_seated_authors_not_heard_of() -> None:
    lobby = Lobby(definition_of(spec_of(seats=3)))
    lobby.add_join(join_of(lobby, JOINERS[0]))
    keys = [CREATOR.public.raw, JOINERS[0].public.raw, JOINERS[1].public.raw]
    assert lobby.missing_joins(log_pb2.Seating(authors=keys)) == [JOINERS[1].public.raw]
    lobby.add_join(join_of(lobby, JOINERS[1]))
    assert lobby.missing_joins(log_pb2.Seating(authors=keys)) == []

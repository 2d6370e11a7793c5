"""A table id binds the fields a definition has: a field added after protocol 2's first nine
(``spectators``) changes the id once it is set, and leaves the id of a definition that does
not set it as protocol 2 made it, so that the records of tables defined before it existed
still verify."""

from __future__ import annotations

from condottiere.crypto import Identity
from condottiere.peer.entries import table_id_of
from condottiere.v1 import log_pb2

PROTOCOL_2_ID = "6349d18df61e93e8dedaa56687db1481e4ec23e6243ffee6bf9404aecd9ad576"
"""The id protocol 2's ``table_id_of`` (before ``spectators`` existed) gave the definition
below, created by the key of the secret 0x00..0x1f."""


def definition() -> log_pb2.TableDefinition:
    return log_pb2.TableDefinition(
        protocol=2, game="condottiere", edition="zman", seats=3, options=["x"], name="Friday",
        player="ada", address="127.0.0.1:5000", nonce=bytes(32),
    )


def test_a_definition_that_sets_no_new_field_keeps_its_protocol_2_id() -> None:
    creator = Identity(bytes(range(32))).public.raw
    assert table_id_of(creator, definition()).hex() == PROTOCOL_2_ID


def test_a_new_field_once_set_is_bound_by_the_id() -> None:
    creator = Identity(bytes(range(32))).public.raw
    watched = definition()
    watched.spectators = True
    assert table_id_of(creator, watched).hex() != PROTOCOL_2_ID

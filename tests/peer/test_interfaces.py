"""Which interface a peer shows itself on: the one a player names (or whose address they
give), else the LAN interface; never every interface."""

from __future__ import annotations

import pytest

from condottiere.peer.interfaces import Interface, choose_default, local_interfaces, pick

LOOPBACK = Interface("lo", ("127.0.0.1",))
ETH = Interface("eth0", ("192.168.1.20", "192.168.7.3"))
WIFI = Interface("wlan0", ("10.0.0.9",))


def test_an_interface_is_named_or_given_by_one_of_its_addresses() -> None:
    assert pick("eth0", [LOOPBACK, ETH]) == ETH
    assert pick("192.168.7.3", [LOOPBACK, ETH]) == Interface("eth0", ("192.168.7.3",))
    assert pick(" 127.0.0.1 ", [LOOPBACK, ETH]) == LOOPBACK


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("0.0.0.0", "0.0.0.0 means every interface: name one interface or one address"),
        ("10.1.2.3", "no interface has the address 10.1.2.3 (this machine has lo 127.0.0.1, "
                     "eth0 192.168.1.20 192.168.7.3)"),
        ("wlan0", "no interface is called 'wlan0' or has that address"),
        ("", "no interface is called ''"),
    ],
)
def test_an_unknown_interface_is_refused_with_what_this_machine_has(text: str, reason: str) -> None:
    with pytest.raises(ValueError, match="^" + reason.replace("(", r"\(").replace(")", r"\)")):
        pick(text, [LOOPBACK, ETH])


def test_the_default_is_the_interface_of_the_route_to_the_lan() -> None:
    chosen, why = choose_default([LOOPBACK, ETH, WIFI], route_address="192.168.7.3")
    assert chosen == Interface("eth0", ("192.168.7.3",))
    assert "route" in why


def test_without_a_route_the_only_lan_interface_is_the_default() -> None:
    assert choose_default([LOOPBACK, WIFI], route_address=None)[0] == WIFI


def test_of_several_lan_interfaces_and_no_route_the_first_is_taken_and_so_said() -> None:
    chosen, why = choose_default([LOOPBACK, ETH, WIFI], route_address=None)
    assert chosen == ETH
    assert "eth0, wlan0: choose with --interface" in why


def test_a_machine_with_loopback_only_shows_its_tables_to_itself() -> None:
    chosen, why = choose_default([LOOPBACK], route_address="127.0.0.1")
    assert chosen == LOOPBACK
    assert "only" in why


def test_this_machine_has_a_loopback_interface() -> None:
    assert any(interface.loopback for interface in local_interfaces())
    assert pick("127.0.0.1", local_interfaces()).addresses == ("127.0.0.1",)

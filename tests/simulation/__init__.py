"""A deterministic simulator of whole tables: the real fold
(:class:`~condottiere.peer.driver.Table`) over the real rules and crypto, no sockets, one
virtual clock; a seeded scheduler that delays, reorders, drops and duplicates entries, cuts
links, crashes seats and restores them from their keepers; dishonest seats and strangers
drawn from a library of behaviours; the table's promises (docs/promises.md) checked after
every step and at the end of every game.

- :mod:`.config`: what one simulated game is (drawn from a seed: swarm testing), as text.
- :mod:`.world`: the clock, the network, the peers, the owners' timers; :func:`.world.run`.
- :mod:`.behaviours`: what dishonest seats and strangers do.
- :mod:`.promises`: the checkers.
- :mod:`.shrink`: the smallest configuration that still breaks a promise.
- :mod:`.entropy`: the crypto's randomness drawn from the seed.

Long runs: ``scripts/simulate.py``. Nothing here is shipped.
"""

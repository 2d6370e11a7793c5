"""What a peer serves: each stream sends what is held beyond its cursors, then each new entry
it does not skip, and sleeps through the rest."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from condottiere.peer.served import Served

ADA, BOB, CAT = b"ada", b"bob", b"cat"
SKIPPED = 2**64 - 1


async def _next(stream: AsyncIterator[bytes]) -> bytes:
    return await asyncio.wait_for(anext(stream), 5)


async def _asleep(task: asyncio.Task[bytes]) -> bool:
    """Whether ``task`` (a stream's next entry) is still waiting once the loop has run."""
    for _ in range(10):
        await asyncio.sleep(0)
    return not task.done()


async def _woken_by(
    served: Served, author: bytes, signed: bytes, waiting: asyncio.Task[bytes]
) -> bytes:
    """What the stream ``waiting`` for its next entry sends once ``signed``, of ``author``'s
    log, is appended and announced."""
    served.append(author, signed)
    served.notify([author])
    return await asyncio.wait_for(waiting, 5)


def test_a_stream_sends_what_is_held_beyond_its_cursors_then_each_new_entry() -> None:
    async def scenario() -> None:
        served = Served()
        served.append(ADA, b"ada0")
        served.append(ADA, b"ada1")
        stream = served.entries_from({ADA: 1}, CAT, lambda: True)
        assert await _next(stream) == b"ada1"
        waiting = asyncio.create_task(anext(stream))
        assert await _asleep(waiting)
        assert await _woken_by(served, BOB, b"bob0", waiting) == b"bob0"
        await stream.aclose()

    asyncio.run(scenario())


def test_a_stream_sleeps_through_the_entries_of_a_log_it_skips_and_of_its_own_subscriber() -> None:
    async def scenario() -> None:
        served = Served()
        stream = served.entries_from({ADA: SKIPPED}, CAT, lambda: True)
        waiting = asyncio.create_task(anext(stream))
        assert await _asleep(waiting)
        served.append(ADA, b"ada0")
        served.append(CAT, b"cat0")
        served.notify([ADA, CAT])
        assert await _asleep(waiting)
        assert await _woken_by(served, BOB, b"bob0", waiting) == b"bob0"
        await stream.aclose()

    asyncio.run(scenario())


def test_an_entry_appended_while_a_stream_sends_is_sent_before_it_waits() -> None:
    async def scenario() -> None:
        served = Served()
        served.append(ADA, b"ada0")
        stream = served.entries_from({}, CAT, lambda: True)
        assert await _next(stream) == b"ada0"
        served.append(ADA, b"ada1")  # while the stream is between two sends
        served.notify([ADA])
        assert await _next(stream) == b"ada1"
        await stream.aclose()

    asyncio.run(scenario())


def test_a_stream_ends_when_told_its_subscriber_may_read_no_more() -> None:
    async def scenario() -> None:
        served = Served()
        allowed = [True]
        stream = served.entries_from({}, CAT, lambda: allowed[0])
        waiting = asyncio.create_task(anext(stream))
        assert await _asleep(waiting)
        allowed[0] = False
        served.notify()
        try:
            await asyncio.wait_for(waiting, 5)
        except StopAsyncIteration:
            return
        raise AssertionError("the stream went on")

    asyncio.run(scenario())

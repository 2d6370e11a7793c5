"""Structure-aware mutations for fuzzing: of bytes, and of protobuf messages by the types of
their fields (boundary numbers, bytes of the wrong length or damaged, strange text, repeated
items added, dropped or doubled, another body of a oneof, nested messages in turn)."""

from __future__ import annotations

import random
from typing import Any

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

_INTERESTING = [0, 1, 2, 3, 7, 8, 15, 16, 31, 32, 63, 64, 255, 256, 2**31 - 1, 2**31, 2**32 - 1]
_INTERESTING_64 = [*_INTERESTING, 2**32, 2**63 - 1, 2**63, 2**64 - 1]
_TEXTS = ["", "pass", "play 10", "battle Roma", "discard", "x" * 600, "\x00\u202e", "é" * 50]


def random_bytes(rng: random.Random) -> bytes:
    return rng.randbytes(rng.choice([0, 1, 2, 8, 32, 100, 500, 2000]))


def mutate_bytes(rng: random.Random, data: bytes) -> bytes:
    """One to four byte-level changes: a flipped bit, a boundary byte, a cut, an insert, a
    repeated run."""
    buffer = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        if not buffer:
            buffer.extend(rng.randbytes(4))
        at = rng.randrange(len(buffer))
        choice = rng.randrange(5)
        if choice == 0:
            buffer[at] ^= 1 << rng.randrange(8)
        elif choice == 1:
            buffer[at] = rng.choice([0, 0xFF, 0x7F, 0x80])
        elif choice == 2:
            del buffer[at : at + rng.randint(1, 16)]
        elif choice == 3:
            buffer[at:at] = rng.randbytes(rng.randint(1, 16))
        else:
            end = min(len(buffer), at + rng.randint(1, 64))
            buffer[at:at] = buffer[at:end]
    return bytes(buffer)


def mutate_message(rng: random.Random, message: Message, depth: int = 0) -> None:
    """Change one to three fields of ``message``, knowing their types: boundary numbers,
    bytes of the wrong length or damaged, strange text, repeated items added, dropped or
    doubled, another body of a oneof, nested messages changed in turn."""
    fields = list(message.DESCRIPTOR.fields)
    for _ in range(rng.randint(1, 3)):
        _mutate_field(rng, message, rng.choice(fields), depth)


def _mutate_field(
    rng: random.Random, message: Message, descriptor: FieldDescriptor, depth: int
) -> None:
    name = descriptor.name
    if descriptor.type == FieldDescriptor.TYPE_MESSAGE:
        if descriptor.is_repeated:
            items = getattr(message, name)
            if items and rng.random() < 0.5:
                chosen = rng.randrange(len(items))
                if rng.random() < 0.5:
                    del items[chosen]
                else:
                    items.add().CopyFrom(items[chosen])
                return
            target = items.add()
        else:
            target = getattr(message, name)
            target.SetInParent()
        if depth < 4:
            mutate_message(rng, target, depth + 1)
        return
    if descriptor.is_repeated:
        values = getattr(message, name)
        if values and rng.random() < 0.5:
            del values[rng.randrange(len(values))]
        else:
            values.append(_value(rng, descriptor, None))
        return
    setattr(message, name, _value(rng, descriptor, getattr(message, name)))


def _value(rng: random.Random, descriptor: FieldDescriptor, current: Any) -> Any:
    kind = descriptor.type
    if kind == FieldDescriptor.TYPE_BYTES:
        if isinstance(current, bytes) and current and rng.random() < 0.6:
            return mutate_bytes(rng, current)
        return rng.randbytes(rng.choice([0, 1, 16, 31, 32, 33, 64, 96, 200]))
    if kind == FieldDescriptor.TYPE_STRING:
        return rng.choice(_TEXTS)
    if kind == FieldDescriptor.TYPE_BOOL:
        return rng.random() < 0.5
    if kind == FieldDescriptor.TYPE_ENUM:
        return rng.choice([0, 1, 2, 99])
    wide = kind in (FieldDescriptor.TYPE_UINT64, FieldDescriptor.TYPE_INT64)
    if isinstance(current, int) and current and rng.random() < 0.4:
        return min(max(0, current + rng.choice([-1, 1, 2])), 2**64 - 1 if wide else 2**32 - 1)
    return rng.choice(_INTERESTING_64 if wide else _INTERESTING)

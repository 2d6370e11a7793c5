"""What the command line understands, and what it offers to complete.

A line is a move in the game's notation (in Condottiere ``play 10``, ``battle Firenze``,
``pass``: it starts with one of the game's verbs), sent to the table as typed (the rules say
why when they refuse it), or one of the client's own commands: ``say TEXT``, ``why [SEAT]``,
``help``, ``quit``; and, at a table this player created, ``admit NAME`` or ``refuse NAME``
for a joiner who asks for a seat (its name or its key's fingerprint, as the lobby shows them).

>>> verbs = ("play", "pass")
>>> parse("say hello all", verbs)
Command(verb='say', text='hello all', seat=None)
>>> parse("Play 10", verbs)
Command(verb='move', text='Play 10', seat=None)
>>> parse("why 2", verbs).seat
2
>>> parse("admit  1a2b-3c4d ", verbs)
Command(verb='admit', text='1a2b-3c4d', seat=None)
>>> parse("refuse", ("accept", "refuse")).verb, parse("refuse bob", ("refuse",)).verb
('move', 'refuse')
>>> parse("dance", verbs)
Traceback (most recent call last):
...
condottiere.cli.client.commands.CommandError: 'dance' is neither a move nor a command: ...
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from condottiere.cli.client.model import TableModel

__all__ = ["COMMANDS", "Command", "CommandError", "MoveCompleter", "parse"]

COMMANDS = {
    "say": "chat with the table",
    "why": "why a seat's row is worth what it is",
    "help": "keys and rules",
    "admit": "seat a player who asks for a seat (NAME or FINGERPRINT)",
    "refuse": "never seat a player who asks for a seat (NAME or FINGERPRINT)",
    "quit": "stop the client (the game is saved)",
}


class CommandError(ValueError):
    """A line that is neither a move nor a command, with what would be understood."""


@dataclass(frozen=True)
class Command:
    verb: str
    """``move``, or one of :data:`COMMANDS`."""
    text: str
    """The move as typed, the chat line, or the joiner to admit or refuse."""
    seat: int | None = None
    """The seat ``why`` asks about (None: this one)."""


def parse(line: str, verbs: Sequence[str]) -> Command:
    """The command a line typed means, a move being a line that starts with one of
    ``verbs``; :class:`CommandError` when it means nothing."""
    text = line.strip()
    word, _, rest = text.partition(" ")
    word = word.lower()
    if word in ("admit", "refuse") and rest.strip():
        # before the moves: a game's bare ``refuse`` (Captains: refuse an offer) is a move
        return Command(word, rest.strip())
    if word in verbs:
        return Command("move", text)
    if word == "say":
        if not rest.strip():
            raise CommandError("say what? Type 'say' and the words to send")
        return Command("say", rest.strip())
    if word == "why":
        if not rest.strip():
            return Command("why", "")
        if not rest.strip().isdigit():
            raise CommandError(f"'why' takes a seat number, as in 'why 2', not {rest.strip()!r}")
        return Command("why", "", int(rest.strip()))
    if word in ("admit", "refuse"):
        if not rest.strip():
            raise CommandError(f"{word} whom? Type '{word}' and the name or key fingerprint the"
                               " lobby shows")
        return Command(word, rest.strip())
    if word in ("help", "?"):
        return Command("help", "")
    if word in ("quit", "exit"):
        return Command("quit", "")
    commands = ", ".join(list(COMMANDS)[:-1]) + f" and {list(COMMANDS)[-1]}"
    if not verbs:
        raise CommandError(f"{word!r} is not a command (and there is no table yet to take a"
                           f" move): commands are {commands}")
    moves = ", ".join(verbs[:-1]) + f" or {verbs[-1]}" if len(verbs) > 1 else verbs[0]
    raise CommandError(
        f"{word!r} is neither a move nor a command: moves start with {moves}; commands are"
        f" {commands}"
    )


class MoveCompleter(Completer):
    """Completes the line from the moves this seat may make now (each with what it would do),
    then from the client's commands."""

    def __init__(self, model: TableModel) -> None:
        self.model = model

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterable[Completion]:
        typed = document.text_before_cursor
        if not document.text and not complete_event.completion_requested:
            # Not Tab on an empty line, but a completion prompt_toolkit runs again after the
            # line was sent and emptied: it would leave a menu of old moves over the log.
            return
        start = len(typed) - len(typed.lstrip())
        wanted = " ".join(typed.lower().split()) + (" " if typed.endswith(" ") else "")
        view = self.model.view
        moves = [str(move) for move in view.legal_moves] if view and self.model.my_turn else []
        for move in moves:  # not the move typed in full: Enter plays it (no menu of one)
            if move.lower().startswith(wanted) and move.lower() != wanted.rstrip():
                yield Completion(
                    move, start_position=start - len(typed), display_meta=self.model.effect(move)
                )
        for command, meaning in COMMANDS.items():
            text = command + (" " if command in ("say", "why", "admit", "refuse") else "")
            if text.startswith(wanted) and wanted and text != wanted:
                yield Completion(text, start_position=start - len(typed), display_meta=meaning)
        for row in self.model.asking():
            for answer in ("admit", "refuse"):
                for who in (row.name, row.fingerprint):
                    text = f"{answer} {who}"
                    if text.lower().startswith(wanted) and wanted.startswith(answer + " "):
                        yield Completion(text, start_position=start - len(typed),
                                         display_meta=f"{row.name} ({row.fingerprint})")

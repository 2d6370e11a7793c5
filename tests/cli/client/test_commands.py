"""The command line's words: moves, the client's own commands, and what completes them."""

from __future__ import annotations

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from condottiere.cli.client.commands import Command, CommandError, MoveCompleter, parse
from tests.cli.client.test_model import asked_table

VERBS = ("play", "pass")


@pytest.mark.parametrize("word", ["admit", "refuse", "ADMIT"])
def test_admit_and_refuse_take_the_name_or_fingerprint_as_typed(word: str) -> None:
    assert parse(f"{word}  Bea Rossi ", VERBS) == Command(word.lower(), "Bea Rossi")


@pytest.mark.parametrize("word", ["admit", "refuse"])
def test_admit_or_refuse_without_a_name_says_what_is_missing(word: str) -> None:
    with pytest.raises(CommandError, match=f"{word} whom\\?"):
        parse(f"{word}   ", VERBS)


def test_an_unknown_word_lists_admit_and_refuse_among_the_commands() -> None:
    with pytest.raises(CommandError, match="commands are say, why, help, admit, refuse and quit"):
        parse("dance", VERBS)


def test_admit_completes_from_the_names_and_fingerprints_of_those_who_ask() -> None:
    model, (bob,) = asked_table("bob")
    completer = MoveCompleter(model)
    typed = completer.get_completions(Document("adm"), CompleteEvent(text_inserted=True))
    assert [c.text for c in typed] == ["admit "]
    typed = completer.get_completions(Document("admit "), CompleteEvent(text_inserted=True))
    assert [c.text for c in typed] == ["admit bob", f"admit {bob.public.fingerprint()}"]
    typed = completer.get_completions(Document("refuse bo"), CompleteEvent(text_inserted=True))
    assert [c.text for c in typed] == ["refuse bob"]

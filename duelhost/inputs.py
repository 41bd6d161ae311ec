"""Bad input to a command: one line naming the file and what is wrong, exit code 2.

Every ``duelhost`` command reports input it cannot use (a card database that is
not SQLite, a golden file that is not gzip, a replay whose puzzle is missing, a
folder with no card scripts...) the same way: ``Error: <file>: <what is wrong>``
on standard error, one line, no traceback, and exit code 2.  The exit codes of
all commands (README, docs/security.md):

    0    success (check: every card loaded; diff: every duel identical ...)
    1    the run found a failure (a card failed, a duel differed, a response was refused)
    2    bad input: the command could not run on what it was given
    130  interrupted (Ctrl-C): stopped cleanly, one line
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click

from .engine.carddb import CardDatabase, CardDatabaseError

__all__ = ["EXIT_BAD_INPUT", "EXIT_FAILED", "EXIT_INTERRUPTED", "BadInput", "interrupted",
           "one_line", "open_card_database", "stops_on_interrupt"]

F = TypeVar("F", bound=Callable[..., Any])

EXIT_FAILED = 1
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130


def one_line(text: str) -> str:
    """``text`` on one line: its lines joined with "; " (blank lines dropped)."""
    return "; ".join(part.strip() for part in str(text).splitlines() if part.strip())


class BadInput(click.ClickException):
    """Input a command cannot use: printed as one line ``Error: <message>``, exit code 2."""

    exit_code = EXIT_BAD_INPUT

    def __init__(self, message: str) -> None:
        super().__init__(one_line(message))


def open_card_database(path: str | Path) -> CardDatabase:
    """The card database at ``path``; a file that is missing, not SQLite, empty, truncated or
    of the wrong schema is :class:`BadInput` naming the file."""
    try:
        return CardDatabase.open(path)
    except CardDatabaseError as exc:
        raise BadInput(str(exc)) from None
    except OSError as exc:
        raise BadInput(f"{path}: cannot read: {exc.strerror or exc}") from None


def interrupted(what: str) -> NoReturn:
    """Stop after Ctrl-C: one line on standard error, exit code 130 (no traceback)."""
    click.echo(f"interrupted: {what}", err=True)
    sys.exit(EXIT_INTERRUPTED)


def stops_on_interrupt(what: str) -> Callable[[F], F]:
    """Decorate a command's function: Ctrl-C anywhere in it ends the command with one line
    (``interrupted: <what>``) and exit code 130; its ``finally`` blocks (stopping worker
    processes, closing progress bars) have run by then."""
    def decorate(fn: F) -> F:
        @functools.wraps(fn)
        def run(*args: Any, **kwargs: Any) -> Any:
            try:
                return fn(*args, **kwargs)
            except KeyboardInterrupt:
                interrupted(what)
        return run  # type: ignore[return-value]
    return decorate

"""The terminal side of ``duelhost play`` and ``duelhost puzzle``: read a line, print text.

All the game logic is in ``duelhost.play``; this module only shows the log,
the board and the numbered options, and reads what the person types:

    <numbers>      answer the question (see duelhost.play)
    ? N            the card text of option N
    card CODE      the card text of any card
    b, board       draw the board again (the whole board: "b all" in a hot-seat game)
    log            the last 40 lines of the duel log
    h, help        this list
    q, quit        leave the duel

It is plain line input and output (no curses), so it works in any terminal,
through pipes, and under tmux in the tests.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TextIO

from .play import AnswerError, PlaySession, Question, card_text

HELP = """Commands:
  <numbers>   answer (e.g. 3, or 1 4 for several; 0 cancels/finishes when offered)
  ? N         show the card text of option N
  card CODE   show the card text of a card code
  b, board    show the board again
  log         show the last 40 lines of the log
  h, help     show this help
  q, quit     leave the duel"""

RULE = "-" * 72


class Terminal:
    """Line input/output (replaceable in tests)."""

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None,
                 read: Callable[[str], str] | None = None) -> None:
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self._read = read

    def write(self, text: str = "") -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def read(self, prompt: str) -> str | None:
        """A line without its newline; None at end of input."""
        if self._read is not None:
            try:
                return self._read(prompt)
            except EOFError:
                return None
        if self.stdin is sys.stdin and self.stdout is sys.stdout and sys.stdin.isatty():
            try:
                return input(prompt)
            except EOFError:
                return None
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            return None
        return line.rstrip("\r\n")


def run(session: PlaySession, term: Terminal | None = None, *, title: str | None = None,
        show_board: bool = True) -> int:
    """Play ``session`` in the terminal until the duel ends or the person quits.

    Returns 0 when the duel ended, 1 when the person left (or the input ended) first.
    """
    term = term or Terminal()
    history: list[str] = []
    last_board = ""
    if title:
        term.write(title)
        term.write(HELP.splitlines()[0] + " h for help, ? N for a card's text.")
    while True:
        q = session.next_question()
        lines = session.take_log()
        history.extend(lines)
        for text in lines:
            term.write(f"  | {text}")
        if q is None:
            term.write(RULE)
            term.write(session.board_text())
            term.write(RULE)
            term.write(session.result_text())
            return 0
        board = session.board_text()
        if show_board and board != last_board:
            # the board again only when something on it changed
            term.write(RULE)
            term.write(board)
            last_board = board
        term.write(RULE)
        term.write(q.render())
        while q is not None:
            line = term.read(f"P{q.player}> ")
            if line is None:
                term.write("(end of input: leaving the duel)")
                return 1
            cmd = line.strip()
            if not cmd:
                continue
            low = cmd.lower()
            if low in ("q", "quit", "exit"):
                term.write("You left the duel.")
                return 1
            if low in ("h", "help"):
                term.write(HELP)
                continue
            if low in ("b", "board"):
                term.write(session.board_text())
                term.write(q.render())
                continue
            if low == "log":
                term.write("\n".join(f"  | {ln}" for ln in history[-40:]) or "(the log is empty)")
                continue
            if low.startswith("?"):
                term.write(_show_option_text(session, q, cmd[1:].strip()))
                continue
            if low.startswith("card"):
                arg = cmd[4:].strip()
                if not arg.isdigit():
                    term.write("usage: card CODE")
                else:
                    term.write(card_text(session.duel.db, int(arg)))
                continue
            try:
                narrower = session.answer(q, cmd)
            except AnswerError as exc:
                term.write(f"! {exc}")
                continue
            if narrower is not None:
                q = narrower
                term.write(q.render())
                continue
            q = None


def _show_option_text(session: PlaySession, q: Question, arg: str) -> str:
    if not arg:
        return HELP
    if not arg.isdigit():
        return "usage: ? N (N is an option number)"
    c = q.choice(int(arg))
    if c is None:
        return f"{arg} is not one of the options"
    if c.code is None:
        return f"option {arg} is not about a card you can see"
    return card_text(session.duel.db, c.code)

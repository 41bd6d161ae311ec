"""A Lua tokenizer for the static scans of ``duelhost check`` (names, numbers, strings, lines)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path


# =====================================================================================
# Lua tokens (for the static scans)
# =====================================================================================

LUA_KEYWORDS = frozenset(
    "and break do else elseif end false for function goto if in local nil not or repeat "
    "return then true until while".split())

_TOKEN_RE = re.compile(r"""
    (?P<nl>\n)
  | [ \t\r\f\v]+
  | --\[(?P<lceq>=*)\[
  | --[^\n]*
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<number>0[xX][0-9A-Fa-f]*\.?[0-9A-Fa-f]*(?:[pP][+-]?\d+)?
             | (?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)
  | (?P<string>"(?:[^"\\\n]|\\z\s*|\\(?:.|\n))*"
             | '(?:[^'\\\n]|\\z\s*|\\(?:.|\n))*')
  | \[(?P<lseq>=*)\[
  | (?P<op>\.\.\.|\.\.|==|~=|<=|>=|//|::|<<|>>|[^"'])
""", re.X | re.S)


Token = tuple[str, str, int]
"""(kind, text, line); kind is "name", "keyword", "number", "string" or "op"."""


def lua_tokens(src: str) -> Iterator[Token]:
    """The tokens of a Lua chunk, comments dropped (string tokens keep their quotes).

    Lenient: an unterminated string or comment ends the scan instead of raising
    (loading the script reports the syntax error properly).
    """
    pos, n, line = 0, len(src), 1
    match = _TOKEN_RE.match
    while pos < n:
        m = match(src, pos)
        if m is None:       # an unterminated string
            return
        kind = m.lastgroup
        pos = m.end()
        if kind is None:
            continue
        if kind == "nl":
            line += 1
        elif kind == "name":
            text = m.group()
            yield ("keyword" if text in LUA_KEYWORDS else "name", text, line)
        elif kind in ("lceq", "lseq"):
            close = "]" + m.group(kind) + "]"
            j = src.find(close, pos)
            if j < 0:
                return
            if kind == "lseq":
                yield ("string", src[m.start():j + len(close)], line)
            line += src.count("\n", m.start(), j)
            pos = j + len(close)
        elif kind == "string":
            text = m.group()
            yield ("string", text, line)
            line += text.count("\n")
        else:
            yield (kind, m.group(), line)


def read_lua(path: Path) -> str:
    """A script's text (scripts are UTF-8; a bad byte must not stop the scan)."""
    return path.read_bytes().decode("utf-8", errors="replace")

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

# One match per token: blanks before it are part of the match, comments and the
# long brackets whole (their closing bracket found by the back-reference); an
# opener that is never closed, or a quote that starts no complete string, is
# its own group, and the scan ends there.  Names, then the one-character
# operators no other token starts with ("punct"), are tried first: the most
# frequent tokens.
_TOKEN_RE = re.compile(r"""
    [ \t\r\f\v]*
    (?:
      (?P<name>[A-Za-z_][A-Za-z0-9_]*)
    | (?P<punct>[(),;+*%^#{}\]&|])
    | (?P<nl>\n)
    | --\[(?P<lceq>=*)\[(?P<lcbody>.*?)\](?P=lceq)\]
    | (?P<lcopen>--\[=*\[)
    | --[^\n]*
    | (?P<number>0[xX][0-9A-Fa-f]*\.?[0-9A-Fa-f]*(?:[pP][+-]?\d+)?
               | (?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)
    | (?P<string>"(?:[^"\\\n]|\\z\s*|\\(?:.|\n))*"
               | '(?:[^'\\\n]|\\z\s*|\\(?:.|\n))*')
    | (?P<lstring>\[(?P<lseq>=*)\[.*?\](?P=lseq)\])
    | (?P<lsopen>\[=*\[)
    | (?P<op>\.\.\.|\.\.|==|~=|<=|>=|//|::|<<|>>|[^"' \t\r\f\v\n])
    | (?P<open>["'])
    )
""", re.X | re.S)

_ENDS = frozenset(("lcopen", "lsopen", "open"))


Token = tuple[str, str, int]
"""(kind, text, line); kind is "name", "keyword", "number", "string" or "op"."""


def lua_tokens(src: str) -> Iterator[Token]:
    """The tokens of a Lua chunk, comments dropped (string tokens keep their quotes).

    Lenient: an unterminated string or comment ends the scan instead of raising
    (loading the script reports the syntax error properly).
    """
    line = 1
    keywords = LUA_KEYWORDS
    for m in _TOKEN_RE.finditer(src):
        kind = m.lastgroup
        if kind is None:            # a line comment
            continue
        if kind == "name":
            text = m.group(kind)
            yield ("keyword" if text in keywords else "name", text, line)
        elif kind == "nl":
            line += 1
        elif kind == "punct":
            yield ("op", m.group(kind), line)
        elif kind == "op" or kind == "number":
            yield (kind, m.group(kind), line)
        elif kind == "string" or kind == "lstring":
            text = m.group(kind)
            yield ("string", text, line)
            line += text.count("\n")
        elif kind == "lcbody":
            line += m.group(kind).count("\n")
        elif kind in _ENDS:
            return


def read_lua(path: Path) -> str:
    """A script's text (scripts are UTF-8; a bad byte must not stop the scan)."""
    return path.read_bytes().decode("utf-8", errors="replace")

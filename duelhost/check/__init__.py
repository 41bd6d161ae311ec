"""``duelhost check``: load every card script of a folder the way a duel does, and report.

For each ``c<ID>.lua`` of a script folder the check creates the card in a fresh
duel (with its database row) exactly as the engine does when a card is
created: ``Duel.new_card`` -> the script host's ``register_card`` (load the
script into the card's table ``c<ID>``, then call ``initial_effect(c)``).  The
reference only does that for cards whose row is not a plain Normal Monster;
such cards are reported as *not run*, and a script with no database row is
reported as *no row* (the reference would run it as a card of all-zero data;
the check skips it: neither is a failure).

Beside the run, three findings a maintainer wants before a release:

* **missing references**: a script that names another card's script table
  ``c<ID>`` (``c29724053[tp]``, ``c83764718.filter``) or needs another code's
  script loaded (``Duel.CreateToken(tp, 12345)``, ``c:CopyEffect(12345, ...)``,
  ``c:ReplaceEffect(...)`` with a constant code) whose ``c<ID>.lua`` is not in
  the folder -- a static scan of the tokens;
* **no initial_effect**: the card table has no ``initial_effect`` function
  after loading (the reference then reports "attempt to call an error
  function" every time the card is created) -- a failure;
* **undefined constants**: an ALL_CAPS global that is read while the script
  loads or runs ``initial_effect`` and is not defined (a misspelt constant is
  silently ``nil``).  Found at run time by an ``__index`` hook on the scripts'
  global table when the script host offers one (check mode only), else by a
  static scan: ALL_CAPS names used in the file that neither constant.lua /
  utility.lua / procedure.lua nor the script itself defines.

Cards run in worker processes (``jobs``), each with one script host reused for
many cards.  Isolation between cards: every card gets a fresh engine duel, and
after each card the worker puts the Lua globals back as they were after the
shared libraries loaded (new globals removed, changed ones restored, also
inside the library tables ``aux``/``Card``/``Duel``/``Effect``/``Group``), so a
script that breaks a global cannot change the next card's result.  A worker
that crashes or runs past the time limit is replaced; its card is a failure.

``duelhost check --coverage`` (per-file Lua line coverage, duelhost.coverage):
each worker counts the lines its Lua runtimes run; after each card
(:meth:`CardLoader.run`) the counts since the previous card, and the executable
lines of chunks seen for the first time, travel in the result's ``extra``; the
parent merges them into ``CheckReport.coverage`` and takes them out of ``extra``.

The package's modules, by concern: tokens (the Lua tokenizer), scan (the static
scans), results (a card's result, failure grouping), report (CheckReport and its
text/JSON/JUnit forms), loader (one worker's CardLoader), pool (check_scripts and
the Work it hands to duelhost.execution).  Everything is importable from here.
"""

from __future__ import annotations

from .tokens import (  # noqa: F401
    LUA_KEYWORDS,
    Token,
    _TOKEN_RE,
    lua_tokens,
    read_lua,
)
from .scan import (  # noqa: F401
    ALL_CAPS_RE,
    Finding,
    LIBRARY_FILES,
    SCRIPT_RE,
    StaticInfo,
    _LOADING_CALLS,
    _assigned_names,
    _call_args,
    _eval_code,
    _list_then_assign,
    library_globals,
    missing_references,
    scan_script,
)
from .results import (  # noqa: F401
    CardResult,
    FAILED,
    FAILING,
    NOT_RUN,
    NO_DB_ROW,
    NO_INITIAL_EFFECT,
    PASSED,
    STATUSES,
    ScriptFailure,
    _CALL_SITE,
    _EFFECT_VARS,
    _GROUP_VARS,
    _LOCATION_PREFIX,
    _NEEDED_PATTERNS,
    _NUMBER_WORD,
    _SCRIPT_CODE,
    _guess_receiver,
    failure_pattern,
    needed_function,
)
from .report import (  # noqa: F401
    CheckReport,
    STRICT_FINDINGS,
    _STATUS_LABELS,
    _XML_BAD,
    _examples,
    _failure_detail,
    _failure_lines,
    _mib,
    _quote,
    _strict_findings,
    _xml_text,
)
from .loader import (  # noqa: F401
    CardLoader,
    CheckError,
    LoaderSpec,
    _CardOutcome,
    _DATABASES,
    _RECYCLE_EVERY,
    _RESET_LUA,
    _RuntimeAdapter,
    _SCRIPT_FILES,
    _failure_from_error,
    is_load_script,
    logging_critical,
    script_files,
)
from .pool import (  # noqa: F401
    CheckWork,
    _PARENT_PID,
    _check_database,
    _coverage_report,
    _maxrss_kb,
    _preload_for_fork,
    check_scripts,
)

__all__ = [
    "CheckError",
    "CheckReport",
    "CardLoader",
    "CardResult",
    "Finding",
    "ScriptFailure",
    "StaticInfo",
    "check_scripts",
    "failure_pattern",
    "lua_tokens",
    "needed_function",
    "scan_script",
    "script_files",
]

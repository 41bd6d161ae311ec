"""Compiled chunks kept for the process (runtime.COMPILED).

A sandbox compiles each script text once per process; the next duel runs the
kept bytecode.  Nothing a script can see may change: positions in errors and
tracebacks, the chunk name, globals; and scripts still cannot load bytecode.
"""

from __future__ import annotations

from duelhost.bindings.runtime import COMPILED, CompiledChunks, LuaSandbox, SandboxOptions

SRC = b"""x_from_chunk = 41
local function boom()
  error("boom")
end
function call_boom() boom() end
"""


def _run(src: bytes = SRC, name: str = "@./script/c190099500.lua") -> tuple[LuaSandbox, tuple]:
    sb = LuaSandbox(SandboxOptions())
    return sb, sb.run(True, src, name)


def test_the_second_sandbox_runs_the_kept_bytecode_with_the_same_positions():
    COMPILED.clear()
    sb1, out1 = _run()
    size = COMPILED.size
    assert out1 == (True,) and size > 0
    sb2, out2 = _run()
    assert out2 == (True,) and COMPILED.size == size          # not compiled again
    for sb in (sb1, sb2):
        assert sb.lua.globals()["x_from_chunk"] == 41
        fail = sb.call(True, sb.lua.globals()["call_boom"])
        assert fail[0] is False
        assert fail[1] == "./script/c190099500.lua:3: boom"
        assert "c190099500.lua:3: in" in fail[3] and "c190099500.lua:5: in" in fail[3]


def test_a_syntax_error_is_reported_as_before_and_nothing_is_kept():
    COMPILED.clear()
    _, out = _run(b"local = 1", "@./script/c190099501.lua")
    assert out[0] is False and "c190099501.lua:1:" in out[1]
    assert COMPILED.size == 0


def test_scripts_still_cannot_load_bytecode():
    sb, _ = _run()
    fn = sb.lua.execute("return function(b) return load(b) end")
    dump = sb._compile(b"return 1", "@x")
    out = sb.call(True, fn, dump)
    assert out[0] is True and out[1] is None                  # load refused the binary chunk


def test_the_oldest_chunks_go_past_the_size_limit():
    kept = CompiledChunks(max_bytes=100)
    kept.put("@a", b"a" * 40, b"x" * 20)
    kept.put("@b", b"b" * 40, b"y" * 20)
    assert kept.get("@a", b"a" * 40) is None and kept.get("@b", b"b" * 40) == b"y" * 20
    assert kept.size == 60

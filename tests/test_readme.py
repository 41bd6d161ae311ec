"""The README's Python example runs as written (the README must tell the truth)."""

from __future__ import annotations

import os
import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_readme_python_example_runs(capsys) -> None:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    example = next(b for b in blocks if "from duelhost import Duel" in b)
    cwd = os.getcwd()
    os.chdir(REPO)            # the example reads cards/demo_*.ydk relative to the checkout
    try:
        exec(compile(example, "README.md", "exec"), {})
    finally:
        os.chdir(cwd)
    out = capsys.readouterr().out
    assert out.startswith("SELECT_IDLECMD P0")
    assert "Outcome(" in out and "Player 0:" in out

"""The worked examples of docs/testing.md, run exactly as the guide shows them.

Every ```python block of the guide starts with ``# file: NAME``: the blocks are
written into a fresh folder (with the guide's pytest.ini, an empty ``script/``
folder and a ``cards.cdb`` copied from the bundled database, which the ini
names) and pytest runs there in a subprocess, with no conftest of this
repository: only the installed duelhost and its pytest11 plugin.  Files marked
"fails" must fail, and their output must contain the lines of the guide's
``# output of NAME`` block.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from duelhost import paths

pytest_plugins = ("pytester",)

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "testing.md"
_BLOCK = re.compile(r"^```(\w+)\n(.*?)^```", re.S | re.M)


def guide_blocks() -> list[tuple[str, str]]:
    return [(m.group(1), m.group(2)) for m in _BLOCK.finditer(GUIDE.read_text(encoding="utf-8"))]


def guide_files() -> dict[str, tuple[str, bool]]:
    """name -> (text, expected to fail)."""
    files = {}
    for lang, text in guide_blocks():
        first = text.splitlines()[0] if text else ""
        m = re.match(r"#\s*file:\s*(\S+)(.*)$", first)
        if lang in ("python", "ini"):
            assert m, f"every {lang} block of the guide must start with '# file: NAME', not {first!r}"
            files[m.group(1)] = (text, "fails" in m.group(2))
    return files


def guide_outputs() -> dict[str, list[str]]:
    out = {}
    for lang, text in guide_blocks():
        lines = text.splitlines()
        if lang == "text" and lines and lines[0].startswith("# output of "):
            out[lines[0][len("# output of "):].strip()] = lines[1:]
    return out


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """A folder like a script author's project: the guide's files, script/, cards.cdb."""
    monkeypatch.delenv("YGOPRO_SCRIPTS", raising=False)
    monkeypatch.delenv("DUELHOST_DB", raising=False)
    monkeypatch.delenv("PYTEST_ADDOPTS", raising=False)
    root = pytester.path
    (root / "script").mkdir()
    shutil.copy(paths.bundled_db(), root / "cards.cdb")
    for name, (text, _) in guide_files().items():
        (root / name).write_text(text, encoding="utf-8")
    return pytester


def test_the_guide_has_a_worked_example_per_headline_feature() -> None:
    files = guide_files()
    assert "pytest.ini" in files
    tests = {name for name in files if name.startswith("test_")}
    assert {"test_seedling_sower.py", "test_lumen_jar.py"} <= tests      # a token card, a counter card
    assert any(failing for _, failing in files.values())
    assert set(guide_outputs()) <= tests


def test_the_guide_examples_pass(project: pytest.Pytester) -> None:
    files = guide_files()
    passing = sorted(n for n, (t, failing) in files.items() if n.startswith("test_") and not failing)
    n_tests = sum(len(re.findall(r"^def test_", files[n][0], re.M)) for n in passing)
    result = project.runpytest_subprocess("-p", "no:cacheprovider", "-q", *passing)
    out = result.stdout.str()
    result.assert_outcomes(passed=n_tests)
    assert n_tests >= 12, out


def test_the_guide_ini_is_what_the_plugin_uses(project: pytest.Pytester) -> None:
    result = project.runpytest_subprocess("-p", "no:cacheprovider", "--collect-only", "test_board.py")
    header = result.stdout.str()
    root = str(project.path)
    assert "(ini duelhost_scripts)" in header and "(ini duelhost_db)" in header
    assert f"{root}/script then bundled" in header and f"cards {root}/cards.cdb" in header


@pytest.mark.parametrize("name", sorted(guide_outputs()))
def test_the_guide_failure_reports_are_real(project: pytest.Pytester, name: str) -> None:
    files = guide_files()
    assert files[name][1], f"{name} has an output block, so the guide says it fails"
    result = project.runpytest_subprocess("-p", "no:cacheprovider", name)
    result.assert_outcomes(failed=len(re.findall(r"^def test_", files[name][0], re.M)))
    out = result.stdout.str()
    for line in guide_outputs()[name]:
        want = line[1:].strip() if line.startswith("E ") else line.strip()
        assert want in out, f"the guide shows {want!r}, the run did not print it:\n{out}"

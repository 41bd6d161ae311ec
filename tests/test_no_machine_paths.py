"""No absolute machine path in the repository's tests, benchmarks, tools, docs or code:
they find things relative to the checkout or through environment variables."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
# /work/..., /root/..., /Users/..., /home/<someone>/... (docs may use /home/me/ as an example user)
MACHINE_PATH = re.compile(r"(?<![\w.~-])/(?:work|root|Users|home/(?!me/))[\w.-]*/")
FOLDERS = ("tests", "benchmarks", "tools", "docs", "duelhost", "engine", "bindings", "cards", "samples", ".ci")


def tracked_text_files() -> list[Path]:
    try:
        out = subprocess.run(["git", "ls-files", "README.md", *FOLDERS], cwd=REPO, capture_output=True,
                             text=True, check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    files = []
    for name in out:
        path = REPO / name
        if path.resolve() == Path(__file__).resolve():
            continue                     # this file: the examples of what is looked for
        if path.suffix in (".py", ".md", ".lua", ".toml", ".ydk", ".txt", ".cfg", ".ini", "") and path.is_file():
            files.append(path)
    return files


def test_no_absolute_machine_paths() -> None:
    hits = []
    for path in tracked_text_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for n, line in enumerate(text.splitlines(), 1):
            if MACHINE_PATH.search(line):
                hits.append(f"{path.relative_to(REPO)}:{n}: {line.strip()[:120]}")
    assert not hits, "\n".join(hits)


def test_the_pattern_finds_machine_paths() -> None:
    assert MACHINE_PATH.search("DB=/work/shared/cards/corpus.cdb")
    assert MACHINE_PATH.search("see /home/alice/cards")
    assert not MACHINE_PATH.search("--scripts /home/me/cards/script")      # the docs' example user
    assert not MACHINE_PATH.search("../shared/cards/corpus.cdb and ./work/x")


def test_readme_corpus_default_is_the_codes_default() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "(default `../shared/cards/corpus.cdb`)" in readme
    conftest = (REPO / "tests" / "conftest.py").read_text(encoding="utf-8")
    assert 'SHARED = REPO_ROOT.parent / "shared"' in conftest
    assert 'DEFAULT_CORPUS_DB = SHARED / "cards" / "corpus.cdb"' in conftest
    bench = (REPO / "benchmarks" / "bench.py").read_text(encoding="utf-8")
    assert 'REPO.parent / "shared" / "cards" / "corpus.cdb"' in bench

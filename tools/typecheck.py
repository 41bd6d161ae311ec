"""Run mypy on the duelhost package as it is installed (docs/typing.md).

The repository keeps three folders that form one import package (pyproject.toml:
duelhost/ -> duelhost, engine/ -> duelhost.engine, bindings/ -> duelhost.bindings).
mypy cannot follow setuptools' editable-install finder, so this script lays the
package out as it is installed -- a temporary folder whose ``duelhost/`` holds links
to the files of duelhost/ and links ``engine`` and ``bindings`` -- runs
``mypy -p duelhost`` there with the ``[tool.mypy]`` settings of pyproject.toml,
and prints the findings with the repository's own paths.

    python tools/typecheck.py [extra mypy options]

Exit code: mypy's (0 clean, 1 findings, 2 mypy could not run).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def main(argv: list[str]) -> int:
    with tempfile.TemporaryDirectory(prefix="duelhost-mypy-") as tmp:
        pkg = Path(tmp) / "duelhost"
        pkg.mkdir()
        for entry in sorted((REPO / "duelhost").iterdir()):
            if entry.name != "__pycache__":
                (pkg / entry.name).symlink_to(entry)
        (pkg / "engine").symlink_to(REPO / "engine")
        (pkg / "bindings").symlink_to(REPO / "bindings")
        cmd = [sys.executable, "-m", "mypy", "--config-file", str(REPO / "pyproject.toml"),
               "--cache-dir", str(Path(tmp) / "cache"), "-p", "duelhost", *argv]
        res = subprocess.run(cmd, cwd=tmp, capture_output=True, text=True,
                             env={**os.environ, "MYPYPATH": tmp})
        out = res.stdout + res.stderr
        # the findings with the paths of the repository
        out = (out.replace("duelhost/engine/", "engine/").replace("duelhost/bindings/", "bindings/")
               .replace(tmp + os.sep, ""))
        sys.stdout.write(out)
        return res.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

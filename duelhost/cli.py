"""The ``duelhost`` command line.

    duelhost check     load every card script of a folder and run initial_effect
    duelhost diff      compare our engine with the reference (recorded duels)
    duelhost selfplay  play seeded random duels and report how they end
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from . import paths


@click.group()
@click.version_option(package_name="duelhost")
def main() -> None:
    """duelhost: a Python duel core that runs the real YGOPro card scripts."""


@main.command()
@click.option("--golden", "golden_file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              required=True, help="A recorded-duel file (*.jsonl.gz) from the reference core.")
@click.option("--scripts", type=click.Path(exists=True, file_okay=False, path_type=Path), default=None,
              help="Script folder for duels that need card scripts (set B).")
@click.option("--limit", type=int, default=None, help="Replay only the first N duels.")
@click.option("--only", "only_ids", multiple=True, help="Replay only these duel ids.")
@click.option("--report", type=click.Choice(["text", "json"]), default="text")
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the report here instead of standard output.")
def diff(golden_file: Path, scripts: Path | None, limit: int | None, only_ids: tuple[str, ...],
         report: str, output: Path | None) -> None:
    """Replay recorded reference duels and compare every message byte."""
    from .diff import run_golden_diff

    summary = run_golden_diff(golden_file, scripts=scripts, limit=limit, only=set(only_ids) or None,
                              progress=sys.stderr.isatty())
    text = json.dumps(summary.to_json(), indent=2) if report == "json" else summary.to_text()
    if output is not None:
        output.write_text(text + "\n", encoding="utf-8")
    else:
        click.echo(text)
    if summary.identical != summary.total:
        sys.exit(1)


if __name__ == "__main__":  # pragma: no cover
    main()

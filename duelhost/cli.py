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


def _parse_codes(values: tuple[str, ...]) -> list[int]:
    """Card codes from --only values: 123, c123, c123.lua, or several separated by commas/spaces."""
    codes = []
    for value in values:
        for part in value.replace(",", " ").split():
            text = part.strip()
            if text.endswith(".lua"):
                text = text[:-4]
            if text[:1] in ("c", "C"):
                text = text[1:]
            if not text.isdigit():
                raise click.BadParameter(f"{part!r} is not a card code (123, c123 or c123.lua)",
                                         param_hint="--only")
            codes.append(int(text))
    return codes


class _CheckUsageError(click.ClickException):
    exit_code = 2


@main.command()
@click.option("--scripts", type=click.Path(exists=True, file_okay=False, path_type=Path), default=None,
              help="Folder of c<ID>.lua scripts (default: the bundled scripts/).")
@click.option("--db", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="Card database in the cards.cdb schema (default: the bundled cards.db).")
@click.option("--jobs", "-j", type=click.IntRange(min=0), default=None,
              help="Worker processes (default: the number of CPUs; 0 runs in this process, "
                   "without crash and time-out protection).")
@click.option("--report", type=click.Choice(["text", "json", "junit"]), default="text",
              help="Report format (json and junit are for machines; with --output the text "
                   "summary is still printed).")
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the report here instead of standard output.")
@click.option("--only", "only_codes", multiple=True, metavar="CODE",
              help="Check only these cards (repeatable; 123, c123 or c123.lua; commas allowed).")
@click.option("--limit", type=click.IntRange(min=0), default=None,
              help="Check only the first N scripts (by code).")
@click.option("--timeout", type=click.FloatRange(min=0.1), default=60.0, show_default=True,
              help="Seconds one card may take before its worker is killed.")
@click.option("--strict", is_flag=True,
              help="Also fail on findings (missing references, undefined constants).")
@click.option("--max-failures", type=click.IntRange(min=0), default=None,
              help="Text report: list at most N failing cards in detail.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on standard error (default: when it is a terminal).")
def check(scripts: Path | None, db: Path | None, jobs: int | None, report: str, output: Path | None,
          only_codes: tuple[str, ...], limit: int | None, timeout: float, strict: bool,
          max_failures: int | None, progress: bool | None) -> None:
    """Create every c<ID>.lua card of a folder and run its initial_effect, as a duel does.

    Prints per-card failures (message, file:line, traceback, which callback),
    findings (references to scripts not in the folder, undefined ALL_CAPS
    constants, no initial_effect), failure causes grouped by message, and a
    summary.  Exit code 1 when a card failed (with --strict also on findings),
    2 when the check cannot run.  See docs/check.md.
    """
    import os

    from .check import CheckError, check_scripts, script_files

    scripts = scripts if scripts is not None else paths.bundled_scripts()
    db = db if db is not None else paths.bundled_db()
    codes = _parse_codes(only_codes)
    if jobs is None:
        jobs = os.cpu_count() or 1
    show = sys.stderr.isatty() if progress is None else progress
    bar = None
    if show:
        total = len(codes) if codes else len(script_files(scripts))
        if limit is not None:
            total = min(total, limit)
        bar = click.progressbar(length=total, label="checking scripts", file=sys.stderr,
                                show_pos=True, show_eta=True,
                                item_show_func=lambda r: f"c{r.code}" if r is not None else "")
        bar.__enter__()
    try:
        try:
            result = check_scripts(scripts, db, jobs=jobs, only=codes or None, limit=limit,
                                   timeout=timeout, strict=strict,
                                   progress=(lambda r: bar.update(1, r)) if bar is not None else None)
        except CheckError as exc:
            raise _CheckUsageError(str(exc)) from exc
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)
    if report == "json":
        text = json.dumps(result.to_json(), indent=1)
    elif report == "junit":
        text = result.to_junit()
    else:
        text = result.to_text(max_failures=max_failures)
    if output is not None:
        output.write_text(text + "\n", encoding="utf-8")
        if report != "text":
            click.echo("\n".join(result._summary_lines()))
    else:
        click.echo(text)
    sys.exit(result.exit_code)


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

"""The ``duelhost`` command line.

    duelhost check     load every card script of a folder and run initial_effect
    duelhost diff      compare our engine with the reference (recorded duels)
    duelhost selfplay  play seeded random duels and report how they end
    duelhost play      play a duel in the terminal (against the random player or a person)
    duelhost puzzle    play a puzzle file written for the reference
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from . import paths
from .gc_tuning import tune_for_throughput
from .inputs import BadInput, open_card_database, stops_on_interrupt
from .execution import backend_from_options, finish_interrupted, progress_display, ray_option
from .modes import DuelMode, mode_options


@click.group(invoke_without_command=True)
@click.version_option(package_name="duelhost")
@click.pass_context
def main(ctx: click.Context) -> None:
    """duelhost: a Python duel core that runs the real YGOPro card scripts."""
    if ctx.invoked_subcommand is None:     # plain `duelhost`: the help, and success
        click.echo(ctx.get_help())
        ctx.exit(0)
    tune_for_throughput()


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
@click.option("--coverage", is_flag=True,
              help="Count which script lines loading ran: a table after the report and "
                   "lua-coverage.json (see --coverage-report).  Slower.")
@click.option("--coverage-report", "coverage_reports", multiple=True, metavar="TYPE[:PATH]",
              help="With --coverage: json[:PATH], lcov[:PATH], xml[:PATH] (Cobertura), repeatable "
                   "(default json:lua-coverage.json).")
@click.option("--coverage-table", type=click.IntRange(min=0), default=30, show_default=True,
              help="With --coverage: list at most N files in the table (the least covered); 0 for all.")
@ray_option
@stops_on_interrupt("check stopped, no report")
def check(scripts: Path | None, db: Path | None, jobs: int | None, report: str, output: Path | None,
          only_codes: tuple[str, ...], limit: int | None, timeout: float, strict: bool,
          max_failures: int | None, progress: bool | None, coverage: bool = False,
          coverage_reports: tuple[str, ...] = (), coverage_table: int = 30, ray: str | None = None) -> None:
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
    total = len(codes) if codes else len(script_files(scripts))
    if limit is not None:
        total = min(total, limit)
    with progress_display(total, "checking scripts", progress, name=lambda r: f"c{r.code}") as update:
        try:
            result = check_scripts(scripts, db, jobs=jobs, only=codes or None, limit=limit,
                                   timeout=timeout, strict=strict, coverage=coverage,
                                   backend=backend_from_options(ray, jobs), progress=update)
        except CheckError as exc:
            raise BadInput(str(exc)) from exc
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
    if result.coverage is not None:
        # the table goes where it cannot spoil a JSON/JUnit report on standard output
        to_err = report != "text" and output is None
        click.echo(result.coverage.to_text(limit=coverage_table or None, missing=False), err=to_err)
        for spec in coverage_reports or ("json",):
            try:
                written = result.coverage.write(spec)
            except ValueError as exc:
                raise BadInput(str(exc)) from exc
            if written is not None:
                click.echo(f"Lua coverage written to {written}", err=to_err)
    finish_interrupted(result.execution, "check")
    sys.exit(result.exit_code)


@main.command()
@click.option("--golden", "golden_file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=None, help="Replay the duels of a recorded-duel file (*.jsonl.gz) from the reference core.")
@click.option("--seeds", type=click.IntRange(min=1), default=None,
              help="Live mode: play N seeded duels in the reference core (OCGCORE_LIB) and ours at once.")
@click.option("--seed", "first_seed", type=int, default=1, show_default=True,
              help="Live mode: the first seed (duel k uses seed S + k).")
@click.option("--deck", "deck_files", multiple=True, type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Live mode: a .ydk deck; pass it twice (player 0, player 1; four times with --tag). "
                   "Default: random decks (40 Main + 15 Extra Deck cards) from the database.")
@click.option("--decks", "deck_dir", type=click.Path(exists=True, file_okay=False, path_type=Path), default=None,
              help="Live mode: pair the .ydk files of this folder (deck k against deck k+m), one duel per "
                   "pairing and seed; a deck that cannot be played is one line of the report.")
@click.option("--pair-offset", type=click.IntRange(min=1), default=None,
              help="With --decks: m (default: the number of decks / 2, / 4 with --tag).")
@click.option("--main-only", is_flag=True,
              help="Live mode: random 40-card Main Decks with no Extra Deck (the decks before issue 12).")
@click.option("--scripts", type=click.Path(exists=True, file_okay=False, path_type=Path), default=None,
              help="Script folder (c<ID>.lua, constant.lua, utility.lua, procedure.lua).")
@click.option("--db", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="Live mode: card database in the cards.cdb schema (default: the bundled cards.db).")
@click.option("--ref-lib", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              envvar="OCGCORE_LIB", help="Live mode: the reference core's shared library (default: $OCGCORE_LIB).")
@click.option("--turn-limit", type=click.IntRange(min=0), default=40, show_default=True,
              help="Live mode: stop at the first prompt after this many turns (0: no turn cap; "
                   "the response limit is then the only guard).")
@click.option("--response-limit", type=click.IntRange(min=1), default=3000, show_default=True,
              help="Live mode: stop after this many responses.")
@click.option("--duel-timeout", type=click.FloatRange(min=0), default=600.0, show_default=True,
              help="Seconds one duel may take (each runs in its own process, killed at the limit "
                   "whatever it is doing); 0: no limit, in this process.")
@click.option("--progress/--no-progress", default=None,
              help="Live mode: one line per duel on standard error (default: when it is a terminal).")
@click.option("--save-divergent", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Live and puzzle mode: write every duel that is not identical to this folder as a .yrp "
                   "replay (a single-mode replay for a puzzle run).")
@click.option("--puzzle", "puzzle_path", type=click.Path(exists=True, path_type=Path), default=None,
              help="Puzzle mode: play this puzzle file (or every .lua file of this folder) in both cores, "
                   "--seeds runs each (default 3); the puzzle sets the rule and flags.")
@click.option("--puzzle-player", type=click.Choice(["random", "keen"]), default="random", show_default=True,
              help="Puzzle mode: answer uniformly at random, or (keen) prefer summons, activations and "
                   "attacks to ending the phase.")
@click.option("--limit", type=int, default=None, help="Golden mode: replay only the first N duels.")
@click.option("--only", "only_ids", multiple=True, help="Golden mode: replay only these duel ids.")
@click.option("--report", type=click.Choice(["text", "json"]), default="text")
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the report here instead of standard output.")
@click.option("--html", "html_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Write one HTML page per duel that is not identical to this folder: both cores "
                   "side by side at the first differing message (docs/html.md).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="Duels at once, each in its own worker process (with --duel-timeout above 0).")
@ray_option
@mode_options
@stops_on_interrupt("diff stopped, no report")
def diff(golden_file: Path | None, seeds: int | None, first_seed: int, deck_files: tuple[Path, ...],
         deck_dir: Path | None, pair_offset: int | None, main_only: bool,
         scripts: Path | None, db: Path | None, ref_lib: Path | None, turn_limit: int,
         response_limit: int, duel_timeout: float, progress: bool | None, save_divergent: Path | None,
         puzzle_path: Path | None, puzzle_player: str, limit: int | None, only_ids: tuple[str, ...], report: str,
         output: Path | None, mode: DuelMode, html_dir: Path | None = None, jobs: int = 1,
         ray: str | None = None) -> None:
    """Compare our engine with the reference core, message byte by message byte.

    With --golden, replay duels recorded from the reference (with no options: the
    40 bundled ones, tests/data/golden/vanilla.jsonl.gz of a checkout).  With --seeds N,
    play N seeded duels live in both cores at once (the reference loaded from
    --ref-lib / OCGCORE_LIB, see docs/reference.md): same decks, same seed
    sequence, answers chosen by a seeded random player from the reference's
    prompts and sent to both; each duel is identical to the end (or the turn
    cap) or reported at its first differing message.  --rule, --tag and the
    flag options choose the duel mode (live mode).  With --puzzle, play puzzle
    files the way the reference client's single mode does, in both cores.
    """
    if puzzle_path is not None:
        if golden_file is not None or deck_files or deck_dir is not None or mode != DuelMode():
            raise click.UsageError("--puzzle takes no --golden, --deck(s) or duel-mode options: "
                                   "the puzzle sets the rule and flags")
    else:
        if golden_file is None and seeds is None and paths.bundled_golden() is not None:
            golden_file = paths.bundled_golden()       # no options: the bundled recorded duels
        if (golden_file is None) == (seeds is None):
            raise click.UsageError("pass either --golden FILE, --seeds N or --puzzle FILE|DIR")
    backend: Any = backend_from_options(ray, jobs)
    if backend.kind == "ray" and not duel_timeout:
        raise click.UsageError("--ray runs every duel in a worker: --duel-timeout must be above 0")
    if backend.kind == "local" and not duel_timeout:
        backend = None          # --duel-timeout 0: in this process
    if puzzle_path is not None and backend is not None and backend.kind == "ray":
        raise click.UsageError("--puzzle runs in this machine's processes: no --ray")
    summary: Any
    if puzzle_path is not None:
        from .puzzle_diff import DEFAULT_PUZZLE_SEEDS, run_puzzle_diff_cli
        summary = run_puzzle_diff_cli(puzzle_path, ref_lib=ref_lib, seeds=seeds or DEFAULT_PUZZLE_SEEDS,
                                      first_seed=first_seed, db=db, scripts=scripts, turn_limit=turn_limit,
                                      response_limit=response_limit, duel_timeout=duel_timeout or None,
                                      progress=sys.stderr.isatty() if progress is None else progress,
                                      player=puzzle_player, save_dir=save_divergent)
    elif golden_file is not None:
        from .diff import run_golden_diff
        from .golden import GoldenError

        try:
            with progress_display(None, "replaying duels", progress, name=lambda r: f"{r.id}: {r.status}") as update:
                summary = run_golden_diff(golden_file, scripts=scripts, limit=limit, only=set(only_ids) or None,
                                          progress=update, duel_timeout=duel_timeout or None,
                                          backend=backend)
        except GoldenError as exc:
            raise BadInput(str(exc)) from exc
    else:
        from .diff import run_live_diff
        from .reference import ReferenceCoreError

        if deck_files and len(deck_files) != mode.decks:
            raise click.UsageError(f"pass --deck {mode.decks} times: player 0's deck, then player 1's"
                                   + (", then their partners'" if mode.tag else ""))
        if deck_files and deck_dir is not None:
            raise click.UsageError("pass either --deck files or --decks FOLDER")
        if ref_lib is None:
            raise click.UsageError("live mode needs the reference library: --ref-lib FILE or OCGCORE_LIB")
        try:
            assert seeds is not None
            with progress_display(None, "playing duels", progress,
                                  name=lambda r: f"{r.id}: {r.status} ({r.agreeing} messages agree, "
                                                 f"{r.seconds:.1f} s)") as report_progress:
                summary = run_live_diff(ref_lib, seeds=seeds, first_seed=first_seed,
                                        db_path=db if db is not None else paths.bundled_db(),
                                        scripts=scripts if scripts is not None else paths.bundled_scripts(),
                                        deck_files=list(deck_files) or None, deck_dir=deck_dir,
                                        pair_offset=pair_offset, mode=mode, main_only=main_only,
                                        turn_limit=turn_limit,
                                        response_limit=response_limit, progress=report_progress,
                                        save_dir=save_divergent, duel_timeout=duel_timeout or None,
                                        backend=backend)
        except ReferenceCoreError as exc:
            raise click.ClickException(str(exc)) from exc
        except ValueError as exc:      # a deck the pool cannot fill, a deck file that cannot be read
            raise BadInput(str(exc)) from exc
    if html_dir is not None:
        from .html import divergence_pages
        pages = divergence_pages(summary, html_dir, golden_file=golden_file, scripts=scripts, db_path=db,
                                 ref_lib=ref_lib)
        click.echo(f"{len(pages)} page(s) of divergent duels written to {html_dir}", err=True)
    text = json.dumps(summary.to_json(), indent=2) if report == "json" else summary.to_text()
    if output is not None:
        output.write_text(text + "\n", encoding="utf-8")
        if report != "text":
            text_lines = summary.to_text().splitlines()
            click.echo("\n".join(text_lines[text_lines.index("") + 1:] if "" in text_lines else text_lines))
    else:
        click.echo(text)
    finish_interrupted(getattr(summary, "execution", None), "diff")
    if summary.identical != summary.total or summary.total == 0:
        sys.exit(1)      # nothing compared is no success either (every deck / puzzle left out)


@main.command()
@click.argument("replay_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--scripts", type=click.Path(exists=True, file_okay=False, path_type=Path), default=None,
              help="Script folder (default: the bundled scripts/).")
@click.option("--db", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="Card database in the cards.cdb schema (default: the bundled cards.db).")
@click.option("--puzzles", type=click.Path(exists=True, file_okay=False, path_type=Path), default=None,
              help="Folder with the puzzle scripts of single-mode replays.")
@click.option("--freeze", "freeze_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write a JSON snapshot of the end state (LP, every card, the message kinds).")
@click.option("--compare", "compare_path", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=None, help="Check the end state against a snapshot written by --freeze.")
@click.option("--diff", "diff_ref", is_flag=True,
              help="Play the replay in the reference library (--ref-lib / OCGCORE_LIB) too and compare the messages.")
@click.option("--ref-lib", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              envvar="OCGCORE_LIB", help="The reference core's shared library (for --diff).")
@click.option("--report", type=click.Choice(["text", "json"]), default="text")
@click.option("--html", "html_out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write the duel as one self-contained HTML page: the board at every step, "
                   "the messages in words (docs/html.md).")
def replay(replay_file: Path, scripts: Path | None, db: Path | None, puzzles: Path | None,
           freeze_path: Path | None, compare_path: Path | None, diff_ref: bool, ref_lib: Path | None,
           report: str, html_out: Path | None = None) -> None:
    """Play a YGOPro replay (.yrp) through our core.

    Stops at the first recorded response our core refuses and reports the
    turn, the phase and the state.  Exit code 1 when a response was refused,
    the engine failed, the snapshot differs (--compare) or the reference
    differs (--diff).
    """

    from .replay import ReplayError, compare_snapshots, load_snapshot, play_replay, read_replay, save_snapshot

    try:
        rep = read_replay(replay_file)
    except ReplayError as exc:
        raise BadInput(str(exc)) from exc
    db_path = db if db is not None else paths.bundled_db()
    database = open_card_database(db_path)
    folder = scripts if scripts is not None else paths.bundled_scripts()
    from .replay import missing_cards, replay_codes
    missing = missing_cards(replay_codes(rep), database, folder, db_name=db_path, source=replay_file)
    if missing:
        raise BadInput(missing)

    def name_of(code: int) -> str:
        rec = database.find(code & 0x7FFFFFFF)
        return rec.name if rec is not None and rec.name else str(code)

    failed = False
    out: dict = {"file": str(replay_file), "kind": rep.header.kind, "flag": rep.header.flag,
                 "players": rep.players, "rng_version": rep.rng_version,
                 "responses": len(rep.responses), "puzzle": rep.script_name}
    lines = [f"{replay_file}: {rep.header.kind}, flag 0x{rep.header.flag:x}, players {' / '.join(rep.players)}, "
             f"{len(rep.responses)} responses" + (f", puzzle {rep.script_name}" if rep.script_name else "")]
    if diff_ref:
        if ref_lib is None:
            raise click.UsageError("--diff needs the reference library: --ref-lib FILE or OCGCORE_LIB")
        from .replay_diff import diff_replay   # the reference core and the diff machinery, for --diff only
        try:
            res = diff_replay(rep, ref_lib, database, folder, puzzle_dir=puzzles)
        except ReplayError as exc:
            raise BadInput(str(exc)) from exc
        out["diff"] = res.to_json(name_of)
        if res.identical:
            lines.append(f"identical to the reference ({res.messages} messages, {res.responses} responses)")
        elif res.divergence is not None:
            lines.append(f"differs from the reference at {res.divergence.describe(name_of)}")
        else:
            lines.append(f"{res.status}: {res.error}")
        failed |= not res.identical
    else:
        try:
            run = play_replay(rep, database, folder, puzzle_dir=puzzles)
        except ReplayError as exc:
            raise BadInput(str(exc)) from exc
        out["run"] = {k: v for k, v in {
            "status": run.status, "responses_used": run.responses_used, "turn": run.turn, "phase": run.phase,
            "winner": run.winner, "reason": run.reason,
            "refused": run.refused.hex() if run.refused is not None else None,
            "refused_because": run.refused_because,
            "prompt": run.prompt.describe(name_of) if run.prompt is not None else None,
            "error": run.error}.items()}
        lines.append(run.to_text(name_of))
        if run.engine is not None and run.status in ("refused", "error"):
            try:
                lines.append(_board_text(run.engine, name_of))
            except Exception as exc:   # the board is a courtesy: never hide the report itself
                lines.append(f"(no board: {exc!r})")
        failed |= run.status in ("refused", "error")
        if freeze_path is not None:
            save_snapshot(run.snapshot, freeze_path)
            lines.append(f"snapshot written to {freeze_path}")
        if compare_path is not None:
            try:
                diffs = compare_snapshots(load_snapshot(compare_path), run.snapshot)
            except ReplayError as exc:
                raise BadInput(str(exc)) from exc
            out["compare"] = {"snapshot": str(compare_path), "differences": diffs}
            if diffs:
                failed = True
                lines.append(f"differs from the snapshot {compare_path}:")
                lines.extend(f"  {d}" for d in diffs)
            else:
                lines.append(f"same end state as the snapshot {compare_path}")
    if html_out is not None:
        from .html import replay_page
        try:
            out["html"] = str(replay_page(rep, database, folder, html_out, puzzle_dir=puzzles))
        except (ReplayError, OSError) as exc:
            raise BadInput(f"{html_out}: {exc}") from exc
        lines.append(f"page written to {out['html']}")
    click.echo(json.dumps(out, indent=2) if report == "json" else "\n".join(lines))
    if failed:
        sys.exit(1)


def _board_text(engine, name_of) -> str:
    """The board of an engine duel, drawn as duelhost.state does for host duels."""
    from .state import snapshot

    class _View:
        engine: Any
        card_name: Any
    view = _View()
    view.engine = engine
    view.card_name = name_of
    return str(snapshot(view))


_SCRIPTS_OPT: dict[str, Any] = dict(type=click.Path(exists=True, file_okay=False, path_type=Path), default=None,
                    help="Folder of c<ID>.lua scripts (default: the bundled scripts/).")
_DB_OPT: dict[str, Any] = dict(type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
               help="Card database in the cards.cdb schema (default: the bundled cards.db).")


@main.command()
@click.option("--deck", "decks", multiple=True, type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="A .ydk deck; give it twice for player 0's and player 1's decks, once for both "
                   "(default: the bundled demo decks).")
@click.option("--scripts", **_SCRIPTS_OPT)
@click.option("--db", **_DB_OPT)
@click.option("--opponent", type=click.Choice(["random", "human"]), default="random", show_default=True,
              help="Who plays the other side: the random player, or a second person at this terminal.")
@click.option("--seat", type=click.IntRange(0, 1), default=0, show_default=True,
              help="Which player you are (player 0 takes the first turn).")
@click.option("--seed", type=int, default=None, help="Seed of the duel, the deck shuffles and the "
              "random player (default: a new one; it is printed).")
@click.option("--lp", type=click.IntRange(min=1), default=8000, show_default=True, help="Starting LP.")
@click.option("--no-shuffle", is_flag=True, help="Keep the decks in file order (the last card on top).")
def play(decks: tuple[Path, ...], scripts: Path | None, db: Path | None, opponent: str, seat: int,
         seed: int | None, lp: int, no_shuffle: bool) -> None:
    """Play a duel in the terminal against the random player (or a second person).

    The board, the log and every legal option (numbered) are printed; type the
    number of your choice, "? N" for the card text of option N, "h" for help.
    Exit code 0 when the duel ended, 1 when you left.
    """
    import random

    from .play import HUMAN, PlaySession, duel_from_decks
    from .players import RandomPlayer
    from .tui import run as run_tui

    if seed is None:
        seed = random.SystemRandom().randrange(1 << 31)
    try:
        duel = duel_from_decks(decks, scripts=scripts, db=open_card_database(db if db is not None
                                                                             else paths.bundled_db()),
                               seed=seed, shuffle=not no_shuffle, lp=lp)
    except (ValueError, FileNotFoundError) as exc:
        raise BadInput(str(exc)) from exc
    players: list = [HUMAN, HUMAN]
    if opponent == "random":
        players[1 - seat] = RandomPlayer(seed)
    session = PlaySession(duel, players)
    names = ", ".join(str(d) for d in decks) if decks else "the demo decks"
    sys.exit(run_tui(session, title=f"duelhost play -- seed {seed} -- {names}"))


@main.command()
@click.argument("puzzle_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--scripts", **_SCRIPTS_OPT)
@click.option("--db", **_DB_OPT)
@click.option("--player", type=click.Choice(["human", "random"]), default="human", show_default=True,
              help="Who plays the puzzle: you, or the random player (a test that it runs).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the duel and the random player.")
@click.option("--max-responses", type=click.IntRange(min=1), default=5000, show_default=True,
              help="Stop a random player after this many answers.")
def puzzle(puzzle_file: Path, scripts: Path | None, db: Path | None, player: str, seed: int,
           max_responses: int) -> None:
    """Play a puzzle file written for the reference (Debug.AddCard ... aux.BeginPuzzle()).

    You are player 0; the prompts the core leaves to player 1 are yours too, as in
    the reference client.  Exit code 0 when the puzzle was solved (player 0 won),
    1 when it was not (or you left), 2 when it could not be loaded.
    """
    from .play import HUMAN, PlaySession
    from .players import RandomPlayer
    from .puzzle import PuzzleError, load_puzzle, puzzle_codes
    from .tui import run as run_tui

    from .replay import missing_cards
    db_path = db if db is not None else paths.bundled_db()
    database = open_card_database(db_path)
    missing = missing_cards(puzzle_codes(puzzle_file), database,
                            scripts if scripts is not None else paths.bundled_scripts(),
                            db_name=db_path, source=puzzle_file)
    if missing:
        raise BadInput(missing)
    try:
        duel = load_puzzle(puzzle_file, scripts=scripts, db=database, seed=seed)
    except PuzzleError as exc:
        raise BadInput(str(exc)) from exc
    who = HUMAN if player == "human" else RandomPlayer(seed)
    session = PlaySession(duel, [who, who], viewer=0,
                          max_responses=max_responses if player == "random" else None)
    code = run_tui(session, title=f"duelhost puzzle -- {puzzle_file.name}")
    win = duel.win()
    sys.exit(0 if code == 0 and win is not None and win.player == 0 else 1)


from .selfplay import selfplay_command  # noqa: E402

main.add_command(selfplay_command)


if __name__ == "__main__":  # pragma: no cover
    main()

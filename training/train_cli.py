"""`gambler-train`: tune a profile by per-parameter simulated annealing; `gambler-train plot DIR`.

    gambler-train --steps 700 --workers 2
    gambler-train --config configs/train/default.yaml --hours 8 --run-dir runs/night
    gambler-train --resume runs/night           # after Ctrl-C or a crash: same result
    gambler-train plot runs/night               # runs/night/training.png (the plot extra)

What it prints, on stderr: a line per set-up phase (the run, each deal set read or computed, with
an estimate before a long computation, LBR's holding tables, the start profile's scoring), then a
line per step (and, with the config's `exploit` section, a line before and after each exploiter
search, saying what the exploiter found wins against the best), then the summary. The lines are
plain text, so a log of an unattended run (`nohup gambler-train ... > night.out 2>&1 &`) reads
like the terminal; a deal-set computation also shows a progress bar on a terminal, and a line a
minute off one. `--json` leaves only the resume line and errors on stderr and gives one JSON
object on stdout.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from datetime import datetime
from pathlib import Path

import click

from gambler.cli import (SEED, check_output_path, debug_option, fail, interrupt_on_signals,
                         progress_bar, run)
from gambler.protocol.gamedef import DEFAULT_GAME, load_game

PROGRAM = "gambler-train"


def step_line(record: dict, state) -> str:
    """A step's progress line (the same on a terminal and in a log file), e.g.
    `step 12/231 river.call[1] T=27.84 Δ=+3.10±4.22 accepted, new best; best +1,204.6 ± 15.2
    mbb/hand; 880,000 hands/s`."""
    best = record.get("best_score")
    best_text = (f"best {best['mbb_per_hand']:+,.1f} ± {best['ci95_mbb']:,.1f}" if best
                 else "best (not yet re-scored)")
    delta = record["delta"]
    verdict = "accepted" if record["accepted"] else "rejected"
    if record.get("new_best"):
        verdict += ", new best"
    target = f"/{state.target_steps:,}" if state.target_steps is not None else ""
    return (f"step {record['step']:,}{target} {record['parameter']} "
            f"T={record['temperature']:.2f} Δ={delta['mbb_per_hand']:+,.2f}"
            f"±{delta['ci95_mbb']:,.2f} {verdict}; {best_text} mbb/hand; "
            f"{record['hands_per_second']:,.0f} hands/s")


def _progress_line(record: dict, state) -> None:
    click.echo(step_line(record, state), err=True)


def _say(text: str) -> None:
    """A set-up line on stderr: `gambler-train: computing ...`."""
    click.echo(f"{PROGRAM}: {text}", err=True)


@click.group(invoke_without_command=True,
             context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--config", "config_name", default=None, metavar="FILE",
              help="Training config (YAML; default: the built-in defaults, as in "
                   "configs/train/default.yaml).")
@click.option("--out", "out", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Also write the best profile here (it is always in RUN_DIR/best.yaml).")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seed of the proposals and acceptances.")
@click.option("--steps", type=click.IntRange(min=1), default=None,
              help="Annealing steps (default: the config's schedule).")
@click.option("--hours", type=click.FloatRange(min=0, min_open=True), default=None,
              help="Train for this long instead of a number of steps (time in the steps and "
                   "the exploiter searches; the set-up and the final LBR report come on top).")
@click.option("--run-dir", "run_dir", type=click.Path(file_okay=False), default=None,
              help="Where the log, checkpoint and best profile go (default runs/<date-time>).")
@click.option("--resume", "resume", type=click.Path(file_okay=False, exists=True), default=None,
              metavar="DIR", help="Continue the run in DIR to its original target.")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Local worker processes for evaluation.")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Evaluate on a Dask distributed cluster (the cluster extra).")
@click.option("--game", "game_file", default=DEFAULT_GAME, show_default=True, metavar="FILE",
              help="ACPC game definition (heads-up no-limit hold'em).")
@click.option("--no-lbr-report", "no_lbr_report", is_flag=True,
              help="Skip the final LBR measurement against the best profile (the config's "
                   "lbr.report_hands; minutes on two cores).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout at the end.")
@debug_option
@click.pass_context
def command(ctx, config_name, out, seed, steps, hours, run_dir, resume, workers, scheduler,
            game_file, no_lbr_report, as_json) -> None:
    """Tune a parameter profile by per-parameter simulated annealing."""
    if ctx.invoked_subcommand is not None:
        return
    session_started = time.perf_counter()  # training.seconds counts from here
    if steps is not None and hours is not None:
        raise click.UsageError("--steps and --hours exclude each other")
    if resume:
        given = [f"--{name.replace('_', '-')}" for name in ("config_name", "steps", "hours",
                                                              "run_dir", "seed")
                 if ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE]
        if given:
            names = ", ".join("--config" if name == "--config-name" else name for name in given)
            raise click.UsageError(f"--resume continues a run with its own config, seed and "
                                   f"target: drop {names}")
        directory = Path(resume)
        line = _resume_line(directory)
        if line:
            _say(line)  # at once, before even importing the engine: the set-up takes minutes
    from gambler.training.anneal import CHECKPOINT, Trainer, load_state

    if resume:
        resumed = load_state(directory)  # a missing or damaged checkpoint: one clear error
    if out:
        check_output_path(out, "--out")
    game = load_game(game_file)
    if not game.is_heads_up_holdem:
        raise click.UsageError(f"{game_file} is not heads-up hold'em")
    from gambler.training.config import load_config
    from gambler.training.evaluate import Backend

    progress = None if as_json else _progress_line
    backend = Backend(workers=workers, scheduler=scheduler)
    try:
        if resume:
            trainer = Trainer.resume(directory, game, backend, progress, state=resumed)
        else:
            config = load_config(config_name)
            directory = Path(run_dir or f"runs/{datetime.now():%Y%m%d-%H%M%S}")
            if (directory / CHECKPOINT).exists():
                fail(PROGRAM, f"{directory} already holds a run; use --resume "
                              f"{directory} or another --run-dir")
            try:
                directory.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                fail(PROGRAM, f"cannot create the run folder {directory}: "
                              f"{error.strerror or error}")
            if not os.access(directory, os.W_OK | os.X_OK):
                fail(PROGRAM, f"cannot write in the run folder {directory}")
            trainer = Trainer.start(directory, config, game, backend, seed, steps, hours,
                                    progress)
            if not as_json:
                _say(_start_line(directory, config_name, trainer, hours))
        trainer.session_started = session_started
        trainer.report_lbr = not no_lbr_report
        if not as_json:
            trainer.notify = _say
            trainer.deal_progress = progress_bar  # a bar on a terminal, a line a minute off one
            if not kernels_compiled():
                _say(f"compiling the engine's numba kernels first (once after an install or "
                     f"an upgrade): about {COMPILE_MINUTES} min")
        interrupt_on_signals()
        try:
            profile = trainer.run()
        except KeyboardInterrupt:
            kept = ""
            if trainer.state.best:
                try:
                    trainer.save_best(report=False)
                    kept = f"; the best so far is in {directory / 'best.yaml'}"
                except KeyboardInterrupt:
                    pass
            fail(PROGRAM, f"interrupted after step {trainer.state.step:,}{kept}; continue "
                          f"with gambler-train --resume {directory}", 130)
    finally:
        backend.close()
    if out:
        shutil.copyfile(directory / "best.yaml", out)
    state = trainer.state
    summary = {"run_dir": str(directory), "best": str(directory / "best.yaml"),
               "steps": state.step, "accepted": state.accepted,
               "improvements": state.improvements, "hands": state.hands,
               "seconds": profile.training["seconds"],
               "session_seconds": round(time.perf_counter() - session_started, 1),
               "scores": profile.training["scores"]}
    if "lbr" in profile.training:
        summary["lbr"] = profile.training["lbr"]
    if "exploiters" in profile.training:
        summary["exploiters"] = profile.training["exploiters"]
    if as_json:
        click.echo(json.dumps(summary))
    else:
        from gambler.training.anneal import format_duration

        best = summary["scores"]["weighted"]
        _say(f"{state.step:,} step{'s' if state.step != 1 else ''}, {state.accepted:,} "
             f"accepted, {state.improvements:,} new best{'s' if state.improvements != 1 else ''} "
             f"in {format_duration(summary['seconds'])}; best "
             f"{best['mbb_per_hand']:+,.1f} ± {best['ci95_mbb']:,.1f} mbb/hand; best profile "
             f"in {directory / 'best.yaml'}")
        if "lbr" in summary:
            lbr = summary["lbr"]
            setting = lbr["actions"] if "settings" not in lbr else \
                f"at its worst of {len(lbr['settings']):,} settings, {lbr['actions']}"
            _say(f"LBR ({setting}) wins {lbr['mbb_per_hand']:+,.1f} ± "
                 f"{lbr['ci95_mbb']:,.1f} mbb/hand against it over {lbr['hands']:,} hands "
                 f"(seed {lbr['seed']})")
        if "exploiters" in summary:
            found = summary["exploiters"]
            last, score = found[-1], found[-1]["held_out"]
            _say(f"{len(found):,} exploiter search{'es' if len(found) != 1 else ''}; the last, "
                 f"before step {last['before_step']:,}, found one that wins "
                 f"{score['mbb_per_hand']:+,.1f} ± {score['ci95_mbb']:,.1f} mbb/hand against "
                 f"the best then ({directory / last['file']})")


#: A first run's compilation of the kernels a training step uses (win rates, holding tables, the
#: engine, LBR), rounded up: measured 1.5 min of CPU time on a 2-core x86 VM (numba compiles on
#: one core, so that is its wall time on an idle machine).
COMPILE_MINUTES = 2


def kernels_compiled() -> bool:
    """Whether numba's cache holds the engine's compiled kernels; if not, the first evaluation
    compiles them first. (numba names a cached kernel `<module>.<function>-<line>.<python>.nbi`
    in a folder per source folder.)"""
    import numba

    import gambler.jit  # noqa: F401  (chooses numba's cache folder)

    folder = numba.config.CACHE_DIR
    if not folder:
        return True  # numba's default, beside the sources: cannot tell, so say nothing
    return any(Path(folder).glob("*/engine._deals_kernel-*.nbi"))


#: `anneal.CHECKPOINT`, named here too so that the resume line needs no import of the engine
#: (numba and the kernels' modules take seconds to import on a busy machine).
CHECKPOINT_FILE = "checkpoint.json"


def _resume_line(directory: Path) -> str | None:
    """`resuming runs/night at step 13 of 231 (12 done)`, or for an --hours run the time left;
    None if the checkpoint cannot be read (`anneal.load_state` then says why)."""
    try:
        state = json.loads((directory / CHECKPOINT_FILE).read_text())
        step, target = int(state["step"]), state["target_steps"]
        spent = float(state["elapsed"]) + float(state.get("search_seconds", 0.0))
        seconds_left = max(0.0, float(state["target_seconds"] or 0.0) - spent)
    except (OSError, ValueError, TypeError, KeyError):
        return None
    if target is not None:
        if step >= target:
            return (f"resuming {directory}: all {target:,} steps are done; writing its best "
                    "profile again")
        return f"resuming {directory} at step {step + 1:,} of {target:,} ({step:,} done)"
    minutes = seconds_left / 60
    left = f"{minutes / 60:,.1f} h" if minutes >= 90 else f"{minutes:,.0f} min"
    return f"resuming {directory} at step {step + 1:,} ({step:,} done; {left} of steps to go)"


def _start_line(directory: Path, config_name, trainer, hours) -> str:
    """`run runs/night: 231 steps over 77 parameters of v2-start, config ... seed 0`."""
    state, config = trainer.state, trainer.config
    target = f"{hours:g} h of steps" if state.target_steps is None \
        else f"{state.target_steps:,} step{'s' if state.target_steps != 1 else ''}"
    tuned = len(trainer.order)
    over = f"the {tuned:,} parameters" if tuned == len(trainer.labels) \
        else f"{tuned:,} of the {len(trainer.labels):,} parameters (tune)"
    return (f"run {directory}: {target} over {over} of "
            f"{config.start}; config {config_name or 'built-in defaults'}, seed {state.seed}")


@command.command("plot")
@click.argument("run_dir", type=click.Path(file_okay=False, exists=True))
@click.option("--out", "out", type=click.Path(dir_okay=False), default=None,
              help="PNG to write (default RUN_DIR/training.png).")
def plot(run_dir, out) -> None:
    """Draw the training curve of RUN_DIR to a PNG."""
    from gambler.training.plot import plot_run
    target = plot_run(Path(run_dir), Path(out) if out else None)
    click.echo(str(target))


def main(argv=None) -> None:
    run(command, argv, program="gambler-train")


if __name__ == "__main__":
    main()

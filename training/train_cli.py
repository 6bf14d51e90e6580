"""`gambler-train`: tune a profile by per-parameter simulated annealing; `gambler-train plot DIR`.

    gambler-train --steps 700 --workers 2
    gambler-train --config configs/train/default.yaml --hours 8 --run-dir runs/night
    gambler-train --resume runs/night           # after Ctrl-C or a crash: same result
    gambler-train plot runs/night               # runs/night/training.png (the plot extra)
"""

from __future__ import annotations

import json
import os
import shutil
import time
from datetime import datetime
from pathlib import Path

import click

from gambler.cli import SEED_RANGE, check_output_path, debug_option, fail, progress_bar, run
from gambler.protocol.gamedef import DEFAULT_GAME, load_game


def _progress_line(record: dict, state) -> None:
    best = record.get("best_score")
    best_text = (f"best {best['mbb_per_hand']:+.1f} ± {best['ci95_mbb']:.1f}" if best
                 else "best (not yet re-scored)")
    delta = record["delta"]
    verdict = "accepted" if record["accepted"] else "rejected"
    if record.get("new_best"):
        verdict += ", new best"
    target = state.target_steps if state.target_steps is not None else "?"
    click.echo(f"step {record['step']}/{target} {record['parameter']} "
               f"T={record['temperature']:.2f} Δ={delta['mbb_per_hand']:+.2f}"
               f"±{delta['ci95_mbb']:.2f} {verdict}; {best_text} mbb/hand; "
               f"{record['hands_per_second'] / 1e6:.2f} M hands/s", err=True)


@click.group(invoke_without_command=True,
             context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--config", "config_name", default=None, metavar="FILE",
              help="Training config (YAML; default: the built-in defaults, as in "
                   "configs/train/default.yaml).")
@click.option("--out", "out", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Also write the best profile here (it is always in RUN_DIR/best.yaml).")
@click.option("--seed", type=SEED_RANGE, default=0, show_default=True,
              help="Seed of the proposals and acceptances.")
@click.option("--steps", type=click.IntRange(min=1), default=None,
              help="Annealing steps (default: the config's schedule).")
@click.option("--hours", type=click.FloatRange(min=0, min_open=True), default=None,
              help="Train for this long instead of a number of steps.")
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
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout at the end.")
@debug_option
@click.pass_context
def command(ctx, config_name, out, seed, steps, hours, run_dir, resume, workers, scheduler,
            game_file, as_json) -> None:
    """Tune a parameter profile by per-parameter simulated annealing."""
    if ctx.invoked_subcommand is not None:
        return
    from gambler.training.anneal import CHECKPOINT, Trainer
    from gambler.training.config import load_config
    from gambler.training.evaluate import Backend

    if steps is not None and hours is not None:
        raise click.UsageError("--steps and --hours exclude each other")
    if out:
        check_output_path(out, "--out")
    game = load_game(game_file)
    if not game.is_heads_up_holdem:
        raise click.UsageError(f"{game_file} is not heads-up hold'em")
    progress = None if as_json else _progress_line
    backend = Backend(workers=workers, scheduler=scheduler)
    try:
        if resume:
            directory = Path(resume)
            if not (directory / CHECKPOINT).is_file():
                fail("gambler-train", f"{directory} has no {CHECKPOINT} to resume from")
            trainer = Trainer.resume(directory, game, backend, progress)
        else:
            config = load_config(config_name)
            directory = Path(run_dir or f"runs/{datetime.now():%Y%m%d-%H%M%S}")
            if (directory / CHECKPOINT).exists():
                fail("gambler-train", f"{directory} already holds a run; use --resume "
                                      f"{directory} or another --run-dir")
            try:
                directory.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                fail("gambler-train", f"cannot create the run folder {directory}: "
                                      f"{error.strerror or error}")
            if not os.access(directory, os.W_OK | os.X_OK):
                fail("gambler-train", f"cannot write in the run folder {directory}")
            trainer = Trainer.start(directory, config, game, backend, seed, steps, hours,
                                    progress)
        if progress is not None:
            trainer.deal_progress = progress_bar
        started = time.perf_counter()
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
            fail("gambler-train", f"interrupted after step {trainer.state.step}{kept}; continue "
                                  f"with gambler-train --resume {directory}", 130)
    finally:
        backend.close()
    if out:
        shutil.copyfile(directory / "best.yaml", out)
    state = trainer.state
    summary = {"run_dir": str(directory), "best": str(directory / "best.yaml"),
               "steps": state.step, "accepted": state.accepted,
               "improvements": state.improvements, "hands": state.hands,
               "seconds": round(time.perf_counter() - started, 1),
               "scores": profile.training["scores"]}
    if "lbr" in profile.training:
        summary["lbr"] = profile.training["lbr"]
    if as_json:
        click.echo(json.dumps(summary))
    else:
        click.echo(f"gambler-train: {state.step} steps, {state.accepted} accepted, "
                   f"{state.improvements} new bests; best profile in {directory / 'best.yaml'}",
                   err=True)
        if "lbr" in summary:
            lbr = summary["lbr"]
            click.echo(f"gambler-train: LBR ({lbr['actions']}) wins {lbr['mbb_per_hand']:+.1f} ± "
                       f"{lbr['ci95_mbb']:.1f} mbb/hand against it over {lbr['hands']:,} hands "
                       f"(seed {lbr['seed']})", err=True)


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

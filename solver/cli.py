"""`gambler-solve`: a blueprint strategy by Monte Carlo CFR on an abstraction.

    gambler-solve leduc --run-dir runs/leduc                 # a shipped config: seconds
    gambler-solve blueprint --hours 3 --run-dir runs/bp      # heads-up no-limit hold'em
    gambler-solve --resume runs/bp                           # after Ctrl-C, kill or a crash
    gambler-solve blueprint --install blueprint              # then `gambler HOST PORT -p blueprint`
    gambler-solve blueprint --scheduler tcp://head:8786      # the chunks on a Dask cluster

What it prints, on stderr: the abstract game's size before solving (betting nodes per round,
information sets, the tables' memory), a line while a card abstraction is built the first time,
then a line per checkpoint (iterations, rate, and the exact exploitability where the deals can be
listed), then where the blueprint is. `--json` leaves errors alone on stderr and prints one JSON
object on stdout at the end.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import click

from gambler.cli import SEED, debug_option, fail, run

PROGRAM = "gambler-solve"


def _say(text: str) -> None:
    click.echo(f"{PROGRAM}: {text}", err=True)


def progress_line(record: dict, target: int | None) -> str:
    """`iterations 2,000,000/100,000,000 in 41 s, 48,700 a second; exploitability 0.0312`"""
    total = f"/{target:,}" if target else ""
    line = (f"iterations {record['iterations']:,}{total} in {record['seconds']:,.0f} s, "
            f"{record['iterations_per_second']:,} a second")
    if "exploitability" in record:
        line += f"; exploitability {record['exploitability']:.4f} chips a hand"
    return line


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("config_name", metavar="CONFIG", required=False)
@click.option("--iterations", type=click.IntRange(min=1), default=None, metavar="N",
              help="Iterations to run (default: the config's `iterations`). One iteration is a "
                   "deal and a traversal for each position.")
@click.option("--hours", type=click.FloatRange(min=0, min_open=True), default=None,
              help="Solve for this long instead (solving time, over all resumed sessions).")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the deals.")
@click.option("--run-dir", "run_dir", type=click.Path(file_okay=False), default=None,
              help="Where the checkpoint, log, strategy and blueprint go (default "
                   "runs/solve-<date-time>).")
@click.option("--resume", type=click.Path(file_okay=False, exists=True), default=None,
              metavar="DIR", help="Continue the run in DIR to its original target.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Threads (default: every core). The result does not depend on it.")
@click.option("--scheduler", metavar="ADDR", default=None,
              help="Run each batch's chunks on the Dask cluster at ADDR (tcp://host:8786; "
                   "needs gambler[cluster]). The result is a local run's.")
@click.option("--install", metavar="NAME", default=None,
              help="When the run is done, install its blueprint as NAME (in the data folder, "
                   "$GAMBLER_DATA or ~/.local/share/gambler/blueprints), where profile name NAME "
                   "finds it. With --resume on a finished run: install it now.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout at the end.")
@debug_option
@click.pass_context
def command(ctx, config_name, iterations, hours, seed, run_dir, resume, workers, scheduler,
            install, as_json) -> None:
    """Solve CONFIG (a solve config: a path, or a shipped name such as `leduc` or `blueprint`)
    by external-sampling MCCFR, checkpointing as it goes."""
    if iterations is not None and hours is not None:
        raise click.UsageError("--iterations and --hours exclude each other")
    if resume:
        given = [f"--{name.replace('_', '-')}" for name in ("iterations", "hours", "seed",
                                                              "run_dir")
                 if ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE]
        if config_name or given:
            drop = ", ".join(([] if not config_name else ["CONFIG"]) + given)
            raise click.UsageError(f"--resume continues a run with its own config, seed and "
                                   f"target: drop {drop}")
    elif not config_name:
        raise click.UsageError("give a CONFIG (or --resume DIR)")
    if workers:
        import numba

        numba.set_num_threads(min(workers, numba.config.NUMBA_NUM_THREADS))
    from gambler.solver.config import load_config
    from gambler.solver.run import SolveRun, check_blueprint_name, install_blueprint

    if install is not None:
        check_blueprint_name(install)  # before hours of solving, not after
    client = None
    if scheduler:
        from gambler.solver.cluster import connect

        client = connect(scheduler)  # before a run folder is made
    say = (lambda text: None) if as_json else _say
    if resume:
        solve_run = SolveRun.resume(Path(resume), say)
        say(f"resuming {resume} at {solve_run.solve.iterations:,} iterations")
    else:
        config = load_config(config_name, seed)
        directory = Path(run_dir or f"runs/solve-{datetime.now():%Y%m%d-%H%M%S}")
        try:
            solve_run = SolveRun.start(directory, config, iterations, hours, say)
        except OSError as error:
            fail(PROGRAM, f"cannot write the run folder {directory}: {error.strerror or error}")
    game = solve_run.game
    say(f"{game.tree.game.source}: {game.describe()}")
    say(f"betting: {game.tree.abstraction.describe(game.tree.game)}")
    target = solve_run.target_iterations
    goal = f"{target:,} iterations" if target else f"{solve_run.hours:g} hours"
    say(f"solving to {goal} in {solve_run.directory}")
    cluster = None
    if client is not None:
        from gambler.solver.cluster import SolveCluster

        cluster = SolveCluster(client, game)
        say(f"chunks run on {cluster.describe()} at {scheduler}")
    try:
        record = solve_run.run(lambda record: say(progress_line(record, target)), cluster)
    except KeyboardInterrupt:
        fail(PROGRAM, f"interrupted at {solve_run.solve.iterations:,} iterations, checkpointed; "
                      f"continue with {PROGRAM} --resume {solve_run.directory}", 130)
    finally:
        if cluster is not None:
            cluster.close()
    blueprint = solve_run.directory / "blueprint.yaml"
    if install:
        blueprint = install_blueprint(solve_run.directory, install) / "blueprint.yaml"
        say(f"installed as {install!r}: {blueprint.parent}")
    if as_json:
        click.echo(json.dumps({"run_dir": str(solve_run.directory), "blueprint": str(blueprint),
                               **record}))
    else:
        say(f"done: {record['iterations']:,} iterations; the blueprint is {blueprint}")


def main(argv=None) -> None:
    run(command, argv, program=PROGRAM)


if __name__ == "__main__":
    main()

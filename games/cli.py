"""`gambler-games`: the toy-game lab from the command line.

    gambler-games kuhn --algorithm cfr+ --iterations 10000 [--loss-aversion 3]
    gambler-games leduc --algorithm dcfr --iterations 1000
    gambler-games onecard --generations 50 --plot onecard.png
    gambler-games rps --iterations 100000 [--opponent 0.3,0.3,0.4 | --matrix FILE | --weighted]
    gambler-games nim --rows 1,3,5,7,9 --selection comma --generations 100

Every subcommand takes --seed and --json (one JSON object on stdout); progress goes to stderr.
"""

from __future__ import annotations

import json
import time

import click
import numpy as np

from gambler.cli import SEED, check_output_path, debug_option, require_matplotlib, run
from gambler.errors import GamblerError
from gambler.games.errors import GameError

SEED_HELP = "Seed of every random choice: the same seed, the same run."


def _progress(enabled: bool, text: str) -> None:
    if enabled:
        click.echo(text, err=True)


def _emit(as_json: bool, payload: dict, lines: list[str]) -> None:
    if as_json:
        click.echo(json.dumps(payload))
    else:
        for line in lines:
            click.echo(line)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@debug_option
def command() -> None:
    """Game-theory solvers: CFR on Kuhn and Leduc poker, one-card poker's GA, regret matching,
    misère Nim."""


# --- CFR ------------------------------------------------------------------------------------------

def _cfr(game: str, algorithm: str, iterations: int, seed: int, as_json: bool):
    from gambler.games.cfr import solve
    from gambler.games.poker_trees import poker_tree

    tree = poker_tree(game)
    verbose = not as_json and iterations >= 1000
    result = solve(tree, algorithm, iterations, seed=seed, checkpoints=10,
                   progress=lambda done, value: _progress(
                       verbose, f"{game} {algorithm}: {done:,} iterations, exploitability "
                                f"{value:.3g}"))
    return tree, result


@command.command("kuhn")
@click.option("--algorithm", type=click.Choice(["cfr", "cfr+", "dcfr", "mccfr"]), default="cfr+",
              help="CFR, CFR+, discounted CFR or Monte Carlo (external sampling) CFR.",
              show_default=True)
@click.option("--iterations", type=click.IntRange(min=1), default=10000, show_default=True,
              help="Iterations to run.")
@click.option("--loss-aversion", "loss_aversion", type=click.FloatRange(min=0, min_open=True),
              default=None, help="Solve the loss-averse game (losses weigh this much) by "
                                 "Lemke-Howson instead.")
@click.option("--seed", type=SEED, default=0, show_default=True, help=SEED_HELP)
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
@debug_option
def kuhn(algorithm, iterations, loss_aversion, seed, as_json) -> None:
    """Kuhn poker: CFR-family solvers, or a loss-averse equilibrium."""
    from gambler.games.analysis import kuhn_family, policy_table
    from gambler.games.poker_trees import kuhn_infoset_label

    if loss_aversion is not None:
        return _kuhn_loss_averse(loss_aversion, as_json)
    tree, result = _cfr("kuhn", algorithm, iterations, seed, as_json)
    policy = policy_table(tree, result.policy)
    family = kuhn_family(policy)
    alpha = family.alpha
    lines = [f"Kuhn poker, {algorithm}, {iterations:,} iterations, {result.seconds:.3f} s",
             f"  game value for player 0: {result.game_value:+.6f} (exact: -1/18 = -0.055556)",
             f"  exploitability: {result.exploitability:.3g}",
             f"  equilibrium family: J bets alpha = {alpha:.4f} (in [0, 1/3]), K bets "
             f"{family.king_bet:.4f} (3 alpha = {3 * alpha:.4f}), Q calls "
             f"{family.queen_call:.4f} (alpha + 1/3 = {alpha + 1 / 3:.4f}); player 1 calls Q "
             f"{family.second_queen_call:.4f} and bluffs J {family.second_jack_bluff:.4f} "
             "(both 1/3)",
             "  policy [pass, bet] by information set:"]
    lines += [f"    {kuhn_infoset_label(name):4s} {values}" for name, values in policy.items()]
    _emit(as_json, {"game_value": result.game_value, "exploitability": result.exploitability,
                    "iterations": iterations, "seconds": result.seconds, "algorithm": algorithm,
                    "policy": policy}, lines)


# What `bimatrix.behaviour` measures, by the suffix of its keys (after the card).
_BEHAVIOUR_LABELS = {"": "player 0 bets", "pb": "player 0 calls after check-bet",
                     "b": "player 1 calls a bet", "p": "player 1 bets after a check"}


def _kuhn_loss_averse(loss_aversion: float, as_json: bool) -> None:
    from gambler.games.bimatrix import loss_averse_kuhn
    from gambler.games.poker_trees import KUHN_CARDS

    started = time.perf_counter()
    study = loss_averse_kuhn(loss_aversion)
    payload = {"loss_aversion": loss_aversion, "seconds": time.perf_counter() - started,
               "expected_chips": study.expected_chips, "utilities": list(study.utilities),
               "risk_neutral": study.risk_neutral, "loss_averse": study.loss_averse}
    lines = [f"Kuhn poker with loss aversion {loss_aversion:g} (losses weigh {loss_aversion:g}x),"
             f" one equilibrium by Lemke-Howson over the reduced normal form (27 x 64)",
             f"  player 0's expected chips: {study.expected_chips:+.4f} (risk-neutral value "
             "-1/18 = -0.0556)",
             f"  felt utilities: player 0 {study.utilities[0]:+.4f}, player 1 "
             f"{study.utilities[1]:+.4f}",
             "  action probabilities, risk-neutral -> loss-averse:"]
    for suffix, label in _BEHAVIOUR_LABELS.items():
        for card, card_name in enumerate(KUHN_CARDS):
            key = f"{card}{suffix}"
            before, after = (f"{value:.3f}" if value is not None else "never reached"
                             for value in (study.risk_neutral[key], study.loss_averse[key]))
            lines.append(f"    {label} with {card_name}: {before} -> {after}")
    _emit(as_json, payload, lines)


@command.command("leduc")
@click.option("--algorithm", type=click.Choice(["cfr", "cfr+", "dcfr", "mccfr"]), default="cfr+",
              help="CFR, CFR+, discounted CFR or Monte Carlo (external sampling) CFR.",
              show_default=True)
@click.option("--iterations", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Iterations to run.")
@click.option("--seed", type=SEED, default=0, show_default=True, help=SEED_HELP)
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
@debug_option
def leduc(algorithm, iterations, seed, as_json) -> None:
    """Leduc hold'em: CFR-family solvers with exact exploitability."""
    tree, result = _cfr("leduc", algorithm, iterations, seed, as_json)
    _emit(as_json, {"game_value": result.game_value, "exploitability": result.exploitability,
                    "iterations": iterations, "seconds": result.seconds, "algorithm": algorithm,
                    "curve": [[done, value] for done, value in result.curve]},
          [f"Leduc hold'em, {algorithm}, {iterations:,} iterations, {result.seconds:.3f} s "
           f"({1000 * result.seconds / iterations:.3f} ms per iteration)",
           f"  game value for player 0: {result.game_value:+.6f}",
           f"  exploitability: {result.exploitability:.3g}"])


# --- one-card poker -------------------------------------------------------------------------------

def _bets(text: str) -> tuple[int, ...]:
    try:
        low, high, step = (int(part) for part in text.split(":"))
    except ValueError:
        raise click.BadParameter(f"{text!r} is not LO:HI:STEP") from None
    if low < 0 or step <= 0 or high < low:
        raise click.BadParameter(f"{text!r}: need 0 <= LO <= HI and STEP > 0")
    return tuple(range(low, high + 1, step))


@command.command("onecard")
@click.option("--cards", type=click.IntRange(min=2), default=10, show_default=True,
              help="Cards in the deck, each player draws one.")
@click.option("--bets", default="0:20:2", show_default=True, metavar="LO:HI:STEP",
              help="The bet sizes player A may choose from.")
@click.option("--ante", type=click.IntRange(min=1), default=5, show_default=True,
              help="Each player's ante.")
@click.option("--population", type=click.IntRange(min=2), default=200, show_default=True,
              help="Strategies in each player's population.")
@click.option("--generations", type=click.IntRange(min=0), default=50, show_default=True,
              help="Generations to evolve.")
@click.option("--parents", type=click.FloatRange(0, 1, min_open=True), default=2 / 3,
              show_default=True, help="Fraction of the fittest that breed.")
@click.option("--mutation", type=click.FloatRange(0, 0.5), default=0.05, show_default=True,
              help="Probability that a gene is redrawn (B's calls: twice it).")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), default=None,
              help="PNG of A's bets and B's calls over the generations (matplotlib).")
@click.option("--seed", type=SEED, default=0, show_default=True, help=SEED_HELP)
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
@debug_option
def onecard(cards, bets, ante, population, generations, parents, mutation, plot_path, seed,
            as_json) -> None:
    """One-card poker: the seed's genetic algorithm, measured against the exact solution."""
    from gambler.games.onecard import (OneCardGame, equilibrium_bluff, run_ga, solve_exactly,
                                       strategy_tables)

    if plot_path:
        check_output_path(plot_path, "--plot")
        require_matplotlib("--plot")
    game = OneCardGame(cards, _bets(bets), ante)
    exact = solve_exactly(game)
    result = run_ga(game, population, generations, parents, mutation, seed,
                    progress=lambda record: _progress(
                        not as_json and generations >= 20 and record.generation % 10 == 0,
                        f"generation {record.generation:,}: exploitability of the best pair "
                        f"{record.exploitability_best:.3f}, of the populations "
                        f"{record.exploitability_mixture:.3f}"))
    x, y = result.fittest_pair()
    a_table, b_table = strategy_tables(game, x, y)
    last = result.history[-1]
    bluff = equilibrium_bluff(game, exact)
    if plot_path:
        _plot_onecard(game, result, plot_path)
    payload = {"value": exact.value, "a_strategy": a_table, "b_strategy": b_table,
               "exploitability": game.exploitability(x, y),
               "exploitability_of": "the fittest pair: the last generation's best A and best B",
               "exploitability_population": last.exploitability_mixture,
               "bluff_rate": last.bluff_rate,
               "equilibrium_bluff": bluff, "revisits": result.revisits,
               "history": [{"generation": r.generation,
                            "exploitability_best": r.exploitability_best,
                            "exploitability_population": r.exploitability_mixture,
                            "bluff_rate": r.bluff_rate} for r in result.history]}
    lines = [f"One-card poker: cards 1..{cards}, bets {list(game.bets)}, ante {ante}",
             f"  exact value for A: {exact.value:.10f} (linear programming, exploitability "
             f"{exact.exploitability:.1e}; the equilibrium bets with the lowest card with "
             f"probability {bluff:.3f})",
             f"  GA, {population:,} strategies a side, {generations:,} generations, seed {seed}:",
             f"    exploitability of the fittest pair: {result.history[0].exploitability_best:.3f}"
             f" at the start -> {last.exploitability_best:.3f}",
             f"    exploitability of the populations as mixed strategies: "
             f"{result.history[0].exploitability_mixture:.3f} -> {last.exploitability_mixture:.3f}",
             f"    share of A strategies betting with the lowest card (bluffing): "
             f"{result.history[0].bluff_rate:.2f} -> {last.bluff_rate:.2f}",
             f"    the fittest A strategy reappeared after an absence {result.revisits:,} times "
             "(a sign of cycling)",
             f"  fittest A: bets {[game.bets[b] for b in result.best_a]} for cards 1..{cards}"]
    _emit(as_json, payload, lines)


def _plot_onecard(game, result, path: str) -> None:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise GamblerError("plots need matplotlib: pip install 'gambler[plot]'") from None
    bets = np.array([record.mean_bets for record in result.history])
    calls = np.array([record.call_rates for record in result.history])
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5))
    for axis, data, title in ((left, bets, "A's average bet per card"),
                              (right, calls, "B's call rate per card")):
        image = axis.imshow(data.T, aspect="auto", origin="lower", cmap="viridis",
                            extent=(-0.5, len(result.history) - 0.5, 0.5, game.cards + 0.5))
        axis.set_xlabel("generation")
        axis.set_ylabel("card")
        axis.set_title(title)
        figure.colorbar(image, ax=axis)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


# --- regret matching ------------------------------------------------------------------------------

@command.command("rps")
@click.option("--iterations", type=click.IntRange(min=1), default=10000, show_default=True,
              help="Iterations to run.")
@click.option("--opponent", default=None, metavar="R,P,S",
              help="A fixed opponent strategy (default: self-play).")
@click.option("--matrix", "matrix_path", type=click.Path(dir_okay=False), default=None,
              help="A zero-sum matrix game file instead of rock-paper-scissors.")
@click.option("--weighted", is_flag=True, help="Weighted RPS: rock beats scissors for 2; "
                                                "equilibrium (1/4, 1/2, 1/4).")
@click.option("--variant", type=click.Choice(["cumulative", "last"]), default="cumulative",
              show_default=True, help="Strategies from cumulative regrets, or (the seed's "
                                      "mistake) from the last iteration's.")
@click.option("--seed", type=SEED, default=0, show_default=True, help=SEED_HELP)
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
@debug_option
def rps(iterations, opponent, matrix_path, weighted, variant, seed, as_json) -> None:
    """Regret matching against a fixed opponent or in self-play."""
    from gambler.games.regret import (RPS, RPS_ACTIONS, WEIGHTED_RPS, best_response,
                                      check_strategy, load_matrix)
    from gambler.games.regret import run as run_regret

    if matrix_path and weighted:
        raise click.UsageError("--weighted picks the weighted rock-paper-scissors matrix; "
                               "--matrix gives another: choose one")
    if matrix_path:
        matrix, names = load_matrix(matrix_path)
    else:
        matrix, names = (WEIGHTED_RPS if weighted else RPS), RPS_ACTIONS
    fixed = None
    if opponent is not None:
        try:
            fixed = np.array([float(part) for part in opponent.split(",")])
        except ValueError:
            raise click.BadParameter(f"{opponent!r} is not a list of probabilities",
                                     param_hint="--opponent") from None
        try:
            fixed = check_strategy(fixed, matrix.shape[1], name=repr(opponent))
        except GameError as error:
            raise click.BadParameter(str(error), param_hint="--opponent") from None
    result = run_regret(matrix, iterations, fixed, variant, seed)
    exploitability = [{"iteration": c["iteration"], "exploitability": c["exploitability"]}
                      for c in result.checkpoints]
    payload = {"average_strategy": result.average.tolist(),
               "current_strategy": result.current.tolist(), "exploitability": exploitability,
               "actions": list(names), "variant": variant}
    lines = [f"Regret matching ({variant} regrets), {iterations:,} iterations, "
             f"{'against ' + opponent if fixed is not None else 'self-play'}",
             f"  average strategy: {_named(names, result.average)}",
             f"  current strategy: {_named(names, result.current)}",
             f"  exploitability of the average profile: {exploitability[-1]['exploitability']:.4f}"]
    if fixed is not None:
        response = best_response(matrix, fixed)
        payload["best_response"] = response.tolist()
        lines.append(f"  best response to the opponent: {_named(names, response)}")
    _emit(as_json, payload, lines)


def _named(names, values) -> str:
    return ", ".join(f"{name} {value:.3f}" for name, value in zip(names, values))


# --- Nim ------------------------------------------------------------------------------------------

@command.command("nim")
@click.option("--rows", default="1,3,5,7,9", show_default=True,
              help="Objects in each row, comma-separated.")
@click.option("--limit", type=click.IntRange(min=1), default=None,
              help="Most objects one move may take.")
@click.option("--selection", type=click.Choice(["plus", "comma"]), default="plus",
              show_default=True, help="(mu + lambda) or (mu, lambda).")
@click.option("--population", type=click.IntRange(min=2), default=15, show_default=True,
              help="Parents kept each generation (mu).")
@click.option("--offspring", type=click.IntRange(min=1), default=30, show_default=True,
              help="Children made each generation (lambda).")
@click.option("--generations", type=click.IntRange(min=1), default=30, show_default=True,
              help="Generations to evolve.")
@click.option("--mutation", type=click.FloatRange(0, 1), default=0.15, show_default=True,
              help="Probability that a child is mutated (one gene).")
@click.option("--matches", type=click.IntRange(min=1), default=8, show_default=True,
              help="Games per fitness evaluation.")
@click.option("--opponent", type=click.Choice(["seed", "optimal", "random", "population"]),
              default="seed", show_default=True, help="Fitness opponent (population: "
                                                      "competitive fitness).")
@click.option("--games", type=click.IntRange(min=1), default=400, show_default=True,
              help="Games per reported win rate.")
@click.option("--seed", type=SEED, default=0, show_default=True, help=SEED_HELP)
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
@debug_option
def nim(rows, limit, selection, population, offspring, generations, mutation, matches, opponent,
        games, seed, as_json) -> None:
    """Misère Nim: evolve the seed's two-gene player; win rates against optimal play."""
    from gambler.games.nim import check_rows, evolve, measure, winning

    try:
        heaps = tuple(int(part) for part in rows.split(","))
    except ValueError:
        raise click.BadParameter(f"{rows!r} is not a list of row sizes",
                                 param_hint="--rows") from None
    try:
        heaps = check_rows(heaps)
    except GameError as error:
        raise click.BadParameter(str(error), param_hint="--rows") from None
    result = evolve(heaps, limit, selection, population, offspring, generations, mutation,
                    matches, opponent, seed,
                    progress=lambda generation, fitness, genome: _progress(
                        not as_json and generation % 10 == 0,
                        f"generation {generation:,}: best fitness {fitness:.2f}, genome "
                        f"({genome.lowest:.3f}, {genome.skip_zero})"))
    measured = measure(result.best.move, heaps, limit, games, seed)
    rates, seed_vs_optimal = measured.win_rate, measured.seed_player_vs_optimal
    payload = {"genome": [result.best.lowest, result.best.skip_zero], "win_rate": rates,
               "fitness": result.fitness, "first_player_wins": winning(heaps, limit),
               "seed_player_vs_optimal": seed_vs_optimal}
    lines = [f"Misère Nim, rows {heaps}{', limit ' + str(limit) if limit else ''}: the first "
             f"player {'wins' if winning(heaps, limit) else 'loses'} with perfect play",
             f"  evolved genome ({selection}, fitness vs {opponent}): lowest-nim-sum "
             f"probability {result.best.lowest:.3f}, skip zero nim-sum moves "
             f"{result.best.skip_zero}",
             f"  win rates of the evolved player over {games:,} games (95% CI):"]
    for name, rate in rates.items():
        lines.append(f"    vs {name:8s} first {rate['first']:.3f} "
                     f"[{rate['first_ci95'][0]:.3f}, {rate['first_ci95'][1]:.3f}], "
                     f"second {rate['second']:.3f} "
                     f"[{rate['second_ci95'][0]:.3f}, {rate['second_ci95'][1]:.3f}]")
    lines.append(f"  the seed's \"optimal\" player against the optimal one: first "
                 f"{seed_vs_optimal['first']:.3f}, second {seed_vs_optimal['second']:.3f}")
    _emit(as_json, payload, lines)


def main(argv=None) -> None:
    run(command, argv, program="gambler-games")


if __name__ == "__main__":
    main()

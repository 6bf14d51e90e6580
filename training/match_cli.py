"""`gambler-match A B`: a duplicate self-play match; A's result in mbb/hand with its 95% CI.

    gambler-match default seed --hands 1000000
    gambler-match seed random --engine dealer --hands 2000 --json

A and B are profile files, shipped profile names, baselines (`call`, `raise`, `allin`,
`random`), exploiters (`catcher`, `shover`, `prober`, `sizer`) or portfolios. The fast engine
(default) plays the deal set of `--seed` in numba (a portfolio: one match, hand after hand, as
the dealer deals it); `--engine dealer` plays real TCP matches: `gambler-dealer --duplicate` and
two `gambler` processes.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
import time

import click
import numpy as np

from gambler.cli import SEED, child_command, debug_option, last_line, progress_bar, run
from gambler.protocol.gamedef import DEFAULT_GAME, load_game
from gambler.protocol.logs import read_log


def resolve(spec: str, single: bool = False):
    """A baseline's name, an exploiter's rules, a portfolio or a profile
    (`bot.strategies.resolve_strategy`); with `single`, a portfolio is the engine's error that
    says to name one of its members (before any work)."""
    from gambler.bot.strategies import resolve_strategy

    resolved = resolve_strategy(spec)
    if single:
        from gambler.training.engine import encode_strategy
        encode_strategy(resolved)
    return resolved


def strategy_kinds() -> str:
    """What a PROFILE argument may be, with the names that exist now: the shipped profiles,
    the baselines and the exploiters of `bot.exploiters`."""
    from gambler.bot.params import shipped_profile_names
    from gambler.bot.exploiters import exploiter_names_text
    from gambler.bot.strategies import BASELINES

    return (f"a profile file (YAML), a shipped profile ({', '.join(shipped_profile_names())}), "
            f"a baseline ({', '.join(BASELINES)}) or an exploiter "
            f"({exploiter_names_text()})")


class StrategyHelpCommand(click.Command):
    """A command whose help text says `{strategies}` where the kinds of PROFILE belong: filled
    in by `strategy_kinds` when the help is shown, so new exploiters and profiles appear there
    without an edit here (and without importing the bot on every run)."""

    def format_help_text(self, ctx, formatter) -> None:
        if self.help and "{strategies}" in self.help:
            self.help = self.help.replace("{strategies}", strategy_kinds())
        super().format_help_text(ctx, formatter)


def note_rounded_hands(program: str, hands: int) -> None:
    """Say on stderr that an odd --hands is played as whole duplicate deals (one more hand)."""
    if hands % 2:
        click.echo(f"{program}: note: --hands {hands} rounded up to {hands + 1} (whole "
                   "duplicate deals: each deal is played twice, the seats swapped)", err=True)


def fast_match(a, b, hands: int, seed: int, game, workers: int,
               scheduler: str | None = None):
    """A's `Chips` per pair on the engine, and the number of deals (a and b: resolved specs)."""
    from gambler.training.deals import cached_deal_set
    from gambler.training.evaluate import Backend
    from gambler.training.engine import encode_rules, encode_strategy

    deals_count = (hands + 1) // 2
    with progress_bar("win rates", deals_count) as update:
        deals, path = cached_deal_set(seed, 0, deals_count, progress=update)
    backend = Backend(workers=workers, scheduler=scheduler)
    try:
        pair = (*encode_strategy(a), *encode_strategy(b))
        chips = backend.run(deals, str(path), encode_rules(game), [pair], seed)[0]
    finally:
        backend.close()
    return chips, deals_count


def blueprint_fast_match(a, b, hands: int, seed: int, game):
    """A's `Chips` per deal on the engine when A or B is a blueprint and the other a strategy
    of the engine's kinds (`training.blueprint_match`; the blueprint's draws seeded by `seed`),
    and the number of deals."""
    from gambler.bot.blueprint import Blueprint
    from gambler.training.blueprint_match import (check_playable, engine_arrays,
                                                  population_against_blueprint)
    from gambler.training.deals import cached_deal_set
    from gambler.training.engine import encode_rules, encode_strategy
    from gambler.training.evaluate import Chips

    if isinstance(a, Blueprint) and isinstance(b, Blueprint):
        raise click.UsageError("two blueprints play each other through --engine dealer only")
    blueprint, other, sign = (a, b, -1) if isinstance(a, Blueprint) else (b, a, 1)
    tree, offsets, policy, cards = engine_arrays(blueprint, game)
    kind, params = encode_strategy(other)
    check_playable(kind, params)
    deals_count = (hands + 1) // 2
    with progress_bar("win rates", deals_count) as update:
        deals, _ = cached_deal_set(seed, 0, deals_count, progress=update)
    raw = np.zeros((1, deals_count, 2), dtype=np.int64)
    adjusted = np.zeros((1, deals_count, 2), dtype=np.float64)
    population_against_blueprint(encode_rules(game), kind,
                                 np.asarray(params, dtype=np.float64)[None], tree, offsets,
                                 policy, cards, deals.v, deals.holes, deals.boards,
                                 deals.outcomes, deals.allin_equity, seed, deals.first_deal, raw,
                                 adjusted)
    return Chips(sign * raw[0].sum(axis=1), sign * adjusted[0].sum(axis=1)), deals_count


def portfolio_match(a, b, hands: int, seed: int, game):
    """A's `Chips` per deal when A or B is a portfolio (`training.portfolio`): one duplicate
    match on the engine as `gambler-dealer --duplicate` plays it (A in seat 0), hand after hand
    on one thread (Exp3's draws depend on every hand before)."""
    from gambler.bot.portfolio import Portfolio
    from gambler.training.deals import cached_deal_set
    from gambler.training.engine import encode_rules
    from gambler.training.evaluate import Chips
    from gambler.training.portfolio import play_portfolio

    from gambler.bot.blueprint import Blueprint

    if isinstance(a, Portfolio) and isinstance(b, Portfolio):
        raise click.UsageError("two portfolios play through --engine dealer only (the fast "
                               "engine plays one against a fixed opponent)")
    if isinstance(a, Blueprint) or isinstance(b, Blueprint):
        raise click.UsageError("a portfolio plays a blueprint through --engine dealer only")
    deals_count = (hands + 1) // 2
    with progress_bar("win rates", deals_count) as update:
        deals, _ = cached_deal_set(seed, 0, deals_count, progress=update)
    seat, portfolio, opponent, sign = (0, a, b, 1) if isinstance(a, Portfolio) else (1, b, a, -1)
    match = play_portfolio(encode_rules(game), portfolio, opponent, deals, seed, game.big_blind,
                           min(game.stacks), seat=seat, game=game)
    return (Chips(sign * match.chips.reshape(-1, 2).sum(axis=1).astype(np.int64),
                  sign * match.adjusted.reshape(-1, 2).sum(axis=1)), deals_count,
            model_summary(portfolio, match, game.big_blind))


def model_summary(portfolio, match, big_blind: int) -> dict | None:
    """What a portfolio's model member did in a match (`training.portfolio.PortfolioMatch`):
    the hands it played and what they won for the portfolio, in big blinds, as the cards fell
    and all-in adjusted (the account its budget counts with `account: adjusted`); None without
    a model member."""
    if portfolio.model is None:
        return None
    played = match.chosen == portfolio.model_slot
    return {"hands": int(played.sum()),
            "big_blinds": float(match.chips[played].sum()) / big_blind,
            "big_blinds_allin_adjusted": float(match.adjusted[played].sum()) / big_blind}


def dealer_match(a: str, b: str, hands: int, seed: int, game, game_file: str, workers: int,
                 strategies=(), with_aivat: bool = False):
    """A's `Chips` per pair from real matches: `gambler-dealer --duplicate` and two `gambler`s,
    read from the dealer's logs (raw, and all-in adjusted by `training.luck`); the deals; and,
    with `with_aivat`, A's AIVAT estimate per pair (`training.aivat_holdem`: of A's chips where it
    can score A, else minus B's; `strategies`, resolved), else None.

    With several workers the hands are split over that many matches (seeds seed, seed + 1, ...)
    played at the same time.
    """
    from gambler.training.aivat_holdem import AivatLogError, check_scorable
    from gambler.training.evaluate import Chips
    from gambler.training.luck import adjusted_values

    deals_count = (hands + 1) // 2
    shares = [deals_count * (k + 1) // workers - deals_count * k // workers
              for k in range(workers)]
    with tempfile.TemporaryDirectory() as folder:
        matches = []
        for index, share in enumerate(share for share in shares if share):
            match = os.path.join(folder, f"match{index}")
            dealer = subprocess.Popen(
                [*child_command("gambler.protocol.dealer_cli"), match, game_file, str(2 * share),
                 str(seed + index), "a", "b", "--duplicate", "-q"],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            ports = dealer.stdout.readline().split()
            if len(ports) != 2:
                why = last_line(dealer.communicate()[1])
                raise click.ClickException("gambler-dealer did not start" + (f": {why}" if why
                                                                             else ""))
            bots = [subprocess.Popen([*child_command("gambler.adaptive.cli"), "127.0.0.1", port,
                                      "--params", spec, "--game", game_file, "--quiet"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                     text=True)
                    for port, spec in zip(ports, (a, b))]
            matches.append((match, dealer, bots))

        def scorable(strategy) -> bool:
            try:
                check_scorable(strategy)
            except AivatLogError:
                return False
            return True

        known = next(((name, strategy) for name, strategy in zip("ab", strategies)
                      if scorable(strategy)), None) if with_aivat else None
        raw, adjusted, aivat = [], [], []
        for match, dealer, bots in matches:
            errors = [bot.communicate()[1] for bot in bots]
            errors.append(dealer.communicate()[1])
            if dealer.returncode != 0 or any(bot.returncode for bot in bots):
                raise click.ClickException("a dealer match failed: " + " / ".join(
                    last_line(error) for error in errors if last_line(error)))
            hands = read_log(game, f"{match}.log")
            raw.append(np.array([hand.value_of("a") for hand in hands]).reshape(-1, 2).sum(1))
            adjusted.append(np.array([adjusted_values(hand)[hand.names.index("a")]
                                      for hand in hands]).reshape(-1, 2).sum(1))
            if known is not None:
                from gambler.training.aivat_holdem import score_hands

                name, strategy = known
                try:
                    scores = score_hands(strategy, hands, name)
                except AivatLogError as error:
                    raise click.ClickException(f"AIVAT: {error}") from None
                sign = 1.0 if name == "a" else -1.0
                aivat.append(sign * scores.estimates.reshape(-1, 2).sum(1))
    return (Chips(np.concatenate(raw), np.concatenate(adjusted)), deals_count,
            np.concatenate(aivat) if known is not None else None)


@click.command(cls=StrategyHelpCommand, context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("a")
@click.argument("b")
@click.option("--hands", type=click.IntRange(min=2), default=20000, show_default=True,
              help="Hands to play (pairs of duplicate hands); with --matches, in each match.")
@click.option("--seed", type=SEED, default=1, show_default=True,
              help="Which deals: the same seed deals the same cards.")
@click.option("--matches", type=click.IntRange(min=1), default=1, show_default=True,
              help="Independent matches, of seeds SEED, SEED + 1, ... (dealer: SEED, SEED + "
                   "WORKERS, ...): the result is their mean with a 95% t interval over them.")
@click.option("--game", "game_file", default=DEFAULT_GAME, show_default=True, metavar="FILE",
              help="ACPC game definition (heads-up hold'em).")
@click.option("--engine", type=click.Choice(["fast", "dealer"]), default="fast",
              show_default=True, help="fast: the numba engine; dealer: real TCP matches.")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Local worker processes.")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="A Dask scheduler to run the fast engine on (the cluster extra).")
@click.option("--aivat", "use_aivat", is_flag=True,
              help="With --engine dealer: also A's AIVAT result (the luck of the known "
                   "player's cards and draws taken out), where A or B is a strategy AIVAT "
                   "scores (not a portfolio or random).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
@debug_option
def command(a, b, hands, seed, matches, game_file, engine, workers, scheduler, use_aivat,
            as_json) -> None:
    """Play A against B on duplicate deals and print A's result in mbb/hand (95% CI).

    A and B are each {strategies}.

    A bot that learns within a match (a portfolio) is measured by --matches: each match
    learns from scratch, and one match's interval, over its hands, does not say how
    another match on other cards would go."""
    game = load_game(game_file)
    if not game.is_heads_up_holdem:
        raise click.UsageError(f"{game_file} is not heads-up hold'em")
    strategies = [resolve(spec) for spec in (a, b)]  # bad names and files fail before any work
    if use_aivat:
        check_aivat(engine, strategies, (a, b))
    note_rounded_hands("gambler-match", hands)
    from gambler.bot.blueprint import Blueprint
    from gambler.bot.portfolio import Portfolio

    portfolio = engine == "fast" and any(isinstance(strategy, Portfolio)
                                         for strategy in strategies)
    blueprint = engine == "fast" and not portfolio and any(isinstance(strategy, Blueprint)
                                                           for strategy in strategies)
    if engine == "fast" and not portfolio:
        from gambler.training.engine import encode_strategy
        for strategy in strategies:  # a switch plays the fast engine against a portfolio only
            if not isinstance(strategy, Blueprint):
                encode_strategy(strategy)
    if blueprint and (workers > 1 or scheduler is not None):
        click.echo("gambler-match: note: a blueprint's match on the fast engine runs on this "
                   "machine's threads (--workers and --scheduler do not apply)", err=True)
    if portfolio and (workers > 1 or scheduler is not None):
        click.echo("gambler-match: note: a portfolio's match is played hand after hand on "
                   "one thread (--workers and --scheduler do not apply)", err=True)
    results = []
    # a dealer match with W workers is W matches of seeds S .. S + W - 1: the next starts at S + W
    step = workers if engine == "dealer" else 1
    for match_seed in range(seed, seed + matches * step, step):
        started = time.perf_counter()
        model = None  # what a portfolio's model member did (the fast engine's portfolio match)
        aivat = None  # A's AIVAT estimate per pair, where AIVAT knows a side (dealer)
        if portfolio:
            chips, deals, model = portfolio_match(*strategies, hands, match_seed, game)
        elif blueprint:
            chips, deals = blueprint_fast_match(*strategies, hands, match_seed, game)
        elif engine == "fast":
            chips, deals = fast_match(*strategies, hands, match_seed, game, workers, scheduler)
        else:
            chips, deals, aivat = dealer_match(a, b, hands, match_seed, game, game_file,
                                               workers, strategies, use_aivat)
        results.append(match_result(a, b, chips, deals, match_seed,
                                    time.perf_counter() - started, engine, model, game, aivat))
        if matches > 1 and not as_json:
            click.echo(match_line(results[-1]))
    result = results[0] if matches == 1 else summary(results)
    if as_json:
        click.echo(json.dumps(result))
    elif matches == 1:
        for line in describe(result):
            click.echo(line)
    else:
        for line in describe_matches(result):
            click.echo(line)


def check_aivat(engine: str, strategies, specs) -> None:
    """`--aivat`'s conditions, before any work: the dealer engine, and a side AIVAT scores."""
    from gambler.training.aivat_holdem import AivatLogError, check_scorable

    if engine != "dealer":
        raise click.UsageError("--aivat scores the dealer's logs: add --engine dealer")
    reasons = []
    for spec, strategy in zip(specs, strategies):
        try:
            check_scorable(strategy)
            return
        except AivatLogError as error:
            reasons.append(f"{spec}: {error}")
    raise click.UsageError("--aivat needs A or B to be a strategy it scores (" +
                           "; ".join(reasons) + ")")


def match_result(a: str, b: str, chips, deals: int, seed: int, seconds: float, engine: str,
                 model: dict | None, game, aivat: np.ndarray | None = None) -> dict:
    """One match's result, as `--json` prints it: A's score over the pairs (`Score`s, raw and
    all-in adjusted, and the run-outs' luck, which is zero in expectation), A's AIVAT score
    where AIVAT knows A or B (per pair, from `dealer_match`) with the standard deviation per
    hand of each figure, and what a portfolio's model member did (`model_summary`), if it has
    one."""
    from gambler.training.evaluate import score_pairs

    score = score_pairs(chips.raw, game.big_blind)
    adjusted = score_pairs(chips.adjusted, game.big_blind)
    luck = score_pairs(chips.raw - chips.adjusted, game.big_blind)
    extra = {}
    if aivat is not None:
        estimate = score_pairs(aivat, game.big_blind)
        scale = 1000.0 / game.big_blind / 2
        extra = {"mbb_per_hand_aivat": estimate.mbb_per_hand, "ci95_mbb_aivat": estimate.ci95_mbb,
                 "sd_mbb_per_hand": {name: float(np.std(values, ddof=1) * scale)
                                     for name, values in (("plain", chips.raw),
                                                          ("allin_adjusted", chips.adjusted),
                                                          ("aivat", aivat))}}
    return {"a": a, "b": b, "hands": 2 * deals,
            "mbb_per_hand": score.mbb_per_hand, "ci95_mbb": score.ci95_mbb,
            "mbb_per_hand_allin_adjusted": adjusted.mbb_per_hand,
            "ci95_mbb_allin_adjusted": adjusted.ci95_mbb,
            "allin_luck_mbb_per_hand": luck.mbb_per_hand, "ci95_allin_luck_mbb": luck.ci95_mbb,
            "seconds": seconds, "engine": engine, "seed": seed, **extra,
            **({"model": model} if model is not None else {})}


def summary(results: list[dict]) -> dict:
    """Several matches' results as one: each figure the mean over the matches with its 95% t
    interval over them (`training.evaluate.score_means`; the matches are as long, so the mean
    is the one over every hand), the hands and seconds summed, the seeds, how many matches A
    lost (all-in adjusted result below zero) and each match's result under `each_match`."""
    from gambler.training.evaluate import score_means

    first = results[0]
    merged = {"a": first["a"], "b": first["b"],
              "hands": sum(result["hands"] for result in results)}
    keys = [("mbb_per_hand", "ci95_mbb"),
            ("mbb_per_hand_allin_adjusted", "ci95_mbb_allin_adjusted"),
            ("allin_luck_mbb_per_hand", "ci95_allin_luck_mbb")]
    if "mbb_per_hand_aivat" in first:
        keys.append(("mbb_per_hand_aivat", "ci95_mbb_aivat"))
    for key, half in keys:
        score = score_means([result[key] for result in results])
        merged[key], merged[half] = score.mbb_per_hand, score.ci95_mbb
    merged.update({"seconds": sum(result["seconds"] for result in results),
                   "engine": first["engine"], "seed": first["seed"], "matches": len(results),
                   "matches_lost": sum(result["mbb_per_hand_allin_adjusted"] < 0
                                       for result in results),
                   "each_match": results})
    return merged


def describe(result: dict) -> list[str]:
    """The text of one match's result (`match_result`): A's score, then all-in adjusted with the
    run-outs' luck, then what a portfolio's model member did, if it has one."""
    deals = result["hands"] // 2
    model = result.get("model")
    played = [] if model is None else [
        f"  the portfolio's model played {model['hands']:,} of the {2 * deals:,} hands: "
        f"{model['big_blinds']:+,.1f} big blinds for the portfolio "
        f"({model['big_blinds_allin_adjusted']:+,.1f} all-in adjusted)"]
    return [f"{result['a']} vs {result['b']}: {result['mbb_per_hand']:+,.1f} mbb/hand ± "
            f"{result['ci95_mbb']:,.1f} (95% CI) over {2 * deals:,} hands ({deals:,} duplicate "
            f"deals, seed {result['seed']}), {result['seconds']:,.1f} s, {result['engine']} "
            "engine",
            f"  all-in adjusted: {result['mbb_per_hand_allin_adjusted']:+,.1f} mbb/hand ± "
            f"{result['ci95_mbb_allin_adjusted']:,.1f} (all-ins before the river scored by "
            f"their equity; the run-outs' luck: {result['allin_luck_mbb_per_hand']:+,.1f} ± "
            f"{result['ci95_allin_luck_mbb']:,.1f})"] + aivat_lines(result) + played


def aivat_lines(result: dict) -> list[str]:
    """The AIVAT line of a result that has one (a blueprint played through the dealer)."""
    if "mbb_per_hand_aivat" not in result:
        return []
    sd = result["sd_mbb_per_hand"]
    return [f"  AIVAT: {result['mbb_per_hand_aivat']:+,.1f} mbb/hand ± "
            f"{result['ci95_mbb_aivat']:,.1f} (the luck of the known player's cards and draws "
            f"taken out); standard deviation per hand: plain {sd['plain']:,.0f}, all-in adjusted "
            f"{sd['allin_adjusted']:,.0f}, AIVAT {sd['aivat']:,.0f} mbb"]


def match_line(result: dict) -> str:
    """One line for one of several matches (`match_result`), printed as it ends."""
    model = result.get("model")
    played = "" if model is None else (
        f"; the model played {model['hands']:,} hands, "
        f"{model['big_blinds_allin_adjusted']:+,.1f} big blinds all-in adjusted")
    return (f"  seed {result['seed']}: {result['mbb_per_hand']:+,.1f} ± {result['ci95_mbb']:,.1f}"
            f", all-in adjusted {result['mbb_per_hand_allin_adjusted']:+,.1f} ± "
            f"{result['ci95_mbb_allin_adjusted']:,.1f} mbb/hand{played}")


def describe_matches(result: dict) -> list[str]:
    """The text of several matches' result (`summary`), after their lines (`match_line`)."""
    count, last = result["matches"], result["each_match"][-1]["seed"]
    each = result["hands"] // count
    return [f"{result['a']} vs {result['b']}: {result['mbb_per_hand']:+,.1f} mbb/hand ± "
            f"{result['ci95_mbb']:,.1f} (95% t interval over the matches) over {count} "
            f"matches of {each:,} hands (seeds {result['seed']}-{last}), "
            f"{result['seconds']:,.1f} s, {result['engine']} engine",
            f"  all-in adjusted: {result['mbb_per_hand_allin_adjusted']:+,.1f} mbb/hand ± "
            f"{result['ci95_mbb_allin_adjusted']:,.1f}; A lost {result['matches_lost']} of the "
            f"{count} matches (all-in adjusted)"] + (
        [f"  AIVAT: {result['mbb_per_hand_aivat']:+,.1f} mbb/hand ± "
         f"{result['ci95_mbb_aivat']:,.1f}"] if "mbb_per_hand_aivat" in result else [])


def main(argv=None) -> None:
    run(command, argv, program="gambler-match")


if __name__ == "__main__":
    main()

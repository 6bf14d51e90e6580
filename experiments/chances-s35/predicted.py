"""What each counter's search says it wins against its model (`training.counter.Counter`:
mbb_per_hand against the model, and the guarded score it was chosen by), for the shipped default
of session 34 against LBR FCMQT x4 (the seven matches of a deal seed, as `gambler-lbr` plays
them) and against an exploiter (the first HANDS hands of match seeds SEED..SEED+9, as
`gambler-match` plays them): can the search's own figure tell an opponent whose first counter
lost for want of data from one that answers every counter (LBR)?

    python experiments/chances-s35/predicted.py lbr DEAL_SEED
    python experiments/chances-s35/predicted.py EXPLOITER SEED [HANDS]
"""

import sys
from pathlib import Path

from gambler.bot.portfolio import load_portfolio
from gambler.protocol.gamedef import load_game
from gambler.training.counter import refresh_counter
from gambler.training.deals import cached_deal_set
from gambler.training.engine import encode_rules
from gambler.training.lbr import LbrDeals
from gambler.training.lbr_portfolio import play_lbr_match
from gambler.training.match_cli import resolve
from gambler.training.portfolio import PORTFOLIO_MATCH_DEALS, play_portfolio

ARM = Path(__file__).resolve().parent.parent / "matches-s33" / "counted50.yaml"


def recorder(found: list):
    def refresh(game, portfolio, stats, index):
        counter = refresh_counter(game, portfolio, stats, index)
        found.append((index, counter.mbb_per_hand, counter.guarded))
        return counter
    return refresh


def show(label: str, found: list, model_hands: int, mbb: float) -> None:
    cells = ", ".join(f"{index}: {model:+,.0f} ({guarded:+,.0f})" for index, model, guarded in found)
    print(f"{label}: the model played {model_hands} hands, {mbb:+,.0f} mbb/hand; counters "
          f"(against the model (guarded score)) {cells}", flush=True)


def main(opponent: str, seed: str, hands: str = "2000") -> None:
    game, portfolio, seed = load_game(), load_portfolio(ARM), int(seed)
    if opponent == "lbr":
        deals = LbrDeals(seed, 20000)
        for index, first in enumerate(range(0, deals.count, PORTFOLIO_MATCH_DEALS)):
            found = []
            count = min(PORTFOLIO_MATCH_DEALS, deals.count - first)
            match = play_lbr_match(portfolio, game, deals, first, count, seed + index,
                                   "FCMQT,FCMQT,FCMQT,FCMQT", refresh=recorder(found))
            lbr = match.adjusted.sum() / game.big_blind / (2 * count) * 1000
            show(f"LBR deal seed {seed} match {index}", found, match.model_hands, -lbr)
        return
    for match_seed in range(seed, seed + 10):
        found = []
        deals, _ = cached_deal_set(match_seed, 0, (int(hands) + 1) // 2)
        match = play_portfolio(encode_rules(game), portfolio, resolve(opponent), deals,
                               match_seed, game.big_blind, min(game.stacks), game=game,
                               refresh=recorder(found))
        played = match.chosen == portfolio.model_slot
        show(f"{opponent} match seed {match_seed}", found, int(played.sum()),
             match.adjusted.sum() / game.big_blind / len(match.adjusted) * 1000)


if __name__ == "__main__":
    main(*sys.argv[1:])

"""The adaptive player: the layer above `bot` and `training`.

`bot` plays at the table and knows nothing of `training`; a portfolio's model member
(`bot.portfolio`, "The model member") needs a counter-strategy that only the fast engine can
search (`training.counter.refresh_counter`). This layer joins the two: `live` computes the
counters off the decision path (`ProcessRefresher`: a worker process of its own, at low
priority; `InlineRefresher`: in the caller, for tests and scripts), and `cli` is the `gambler`
command, `bot.cli`'s with the refresher plugged in. `python -m gambler.bot.cli` still plays
everything except a model member, and says so.
"""

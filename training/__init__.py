"""Self-play engine, duplicate evaluation, simulated annealing, local best response and
matches: deal sets -> fast engine -> duplicate evaluation -> annealing (`gambler-train`)."""

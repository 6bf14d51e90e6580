"""Self-play engine, duplicate evaluation, simulated annealing and matches (issue #5)."""

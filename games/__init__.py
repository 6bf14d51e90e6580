"""The toy-game lab: one-card poker GA, misère Nim, regret matching and CFR (issue #6)."""

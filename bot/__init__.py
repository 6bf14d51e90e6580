"""The bot: parameter profiles, the four-mode automaton, and the `gambler` ACPC client.

    params (YAML profiles) ─► automaton (pure: state + v ─► legal action) ─► strategies
        ─► player (glue to protocol.client, the match record and log) ─► cli (`gambler`)

`strategies` also holds the baselines (`call`, `raise`, `allin`, `random`) and `exploiters` the
rule-based exploiters; `load_strategy` resolves any of these names, a shipped profile or a path.
"""

"""The bot: parameter profiles, the four-mode automaton and the `gambler` command (issue #4)."""

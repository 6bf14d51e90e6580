"""ACPC game definitions, betting rules, the MATCHSTATE codec, a client and a dealer (issue #3)."""

#!/bin/sh
# A fresh exploiter search against the shipped `default` at the standard budget with session 29's
# time limit (checked between members; the generation it runs out in is dropped, never the
# first): seed 105, which no search had used, then its exploiter against `default` and the member
# alone on 20,000 hands of match seed 26 (fresh-s28/search.sh runs them; results/). Its first
# attempt, on a machine loaded with four other jobs, did not finish its first generation in the
# 8 minutes, which the rule then dropped (since fixed); results/ holds the run on a quiet machine.
# Usage: experiments/fresh-s29/search.sh
exec "$(dirname "$0")/../fresh-s28/search.sh" 105 26 "$(dirname "$0")/results"

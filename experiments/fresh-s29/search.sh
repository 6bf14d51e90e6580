#!/bin/sh
# A fresh exploiter search against the shipped `default` at the standard budget with session 29's
# time limit (checked between members; the generation it runs out in is dropped, never the
# first): seed 105, which no search had used, then its exploiter against `default` and the member
# alone on 20,000 hands of match seed 26 (fresh-s28/search.sh runs them; results/). Not run to
# the end in session 29: on a machine loaded with four other jobs its first generation did not
# finish in the 8 minutes (and was then dropped: since fixed).
# Usage: experiments/fresh-s29/search.sh
exec "$(dirname "$0")/../fresh-s28/search.sh" 105 26 "$(dirname "$0")/results"

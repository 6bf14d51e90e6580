#!/bin/sh
# The shipped default (the portfolio) and its member alone against LBR on deal seed 22, which no
# session had used: the six settings of the suite that raise before the flop, 20,000 hands each,
# written to results/ as each ends (fresh-s27/lbr19.sh, which plays them).
# Usage: experiments/fresh-s28/lbr22.sh
here=$(dirname "$0")
exec "$here/../fresh-s27/lbr19.sh" 22 "$here/results"

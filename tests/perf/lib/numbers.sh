# Sourced by the perf scripts: arithmetic and medians in awk.
#   calc EXPR   the value of EXPR with $CALC_DECIMALS decimals (default 2)
#   median      the median of the numbers on standard input, one a line
#   median_of N...  the median of its arguments
calc() { awk "BEGIN { printf \"%.${CALC_DECIMALS:-2}f\", $* }"; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.10g\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
median_of() { printf '%s\n' "$@" | median; }

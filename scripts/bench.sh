#!/usr/bin/env bash
# Benchmarks ldapbook against ldapsearch/ldapadd, python-ldap and ldap3 on one
# private slapd (see BENCHMARKS.md).
#
#   scripts/bench.sh          10k, 100k and 1M entries; the results replace the
#                             measured section of BENCHMARKS.md
#   scripts/bench.sh --quick  10k entries only, results in .build/bench/results.md
#                             (CI runs this to keep the harness working)
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/ensure-packages.sh python3-ldap python3-ldap3
scripts/build-release.sh ldapbook ldapbook-bench

results=.build/bench/results.md
mkdir -p .build/bench
if [ "${1:-}" = --quick ]; then
  .build/release/ldapbook-bench --quick --output "$results"
  cat "$results"
  exit 0
fi

.build/release/ldapbook-bench --output "$results"
# Replace what lies between the markers of BENCHMARKS.md with the new results.
python3 - "$results" <<'PY'
import sys
results = open(sys.argv[1], encoding="utf-8").read()
text = open("BENCHMARKS.md", encoding="utf-8").read()
start, end = "<!-- results:start -->\n", "<!-- results:end -->"
head, rest = text.split(start, 1)
_, tail = rest.split(end, 1)
open("BENCHMARKS.md", "w", encoding="utf-8").write(head + start + results + end + tail)
PY
echo "BENCHMARKS.md updated from $results"

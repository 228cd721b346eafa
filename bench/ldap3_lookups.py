#!/usr/bin/python3
"""ldap3 peer of ldapbook-bench's library lookups.

usage: ldap3_lookups.py URI BASE FILTERS_FILE ATTRS serial [LIMIT]

One anonymous connection (SYNC strategy); each filter is one search with the
given attributes. ldap3 is pure Python and slow, so only the first LIMIT
filters (default 200) are used; the rate is per lookup either way. Prints
JSON: lookups, entries, seconds, median and p95 latency.
"""
import json
import sys
import time

import ldap3


def percentile(values, p):
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * p // 100))
    return ordered[min(int(rank), len(ordered)) - 1]


def main():
    uri, base, filters_file, attrs = sys.argv[1:5]
    limit = int(sys.argv[6]) if len(sys.argv) > 6 else 200
    with open(filters_file, encoding="utf-8") as handle:
        filters = [line for line in handle.read().split("\n") if line][:limit]
    conn = ldap3.Connection(ldap3.Server(uri, get_info=ldap3.NONE), auto_bind=True, client_strategy=ldap3.SYNC)
    attributes = attrs.split(",")
    for f in filters[:10]:
        conn.search(base, f, attributes=attributes)
    latencies, entries = [], 0
    started = time.perf_counter()
    for f in filters:
        one = time.perf_counter()
        conn.search(base, f, attributes=attributes)
        entries += len(conn.response or [])
        latencies.append(time.perf_counter() - one)
    seconds = time.perf_counter() - started
    print(json.dumps({"lookups": len(filters), "entries": entries, "seconds": seconds,
                      "median": percentile(latencies, 50), "p95": percentile(latencies, 95)}))


main()

#!/usr/bin/python3
"""python-ldap peer of ldapbook-bench's library lookups.

usage: python_ldap_lookups.py URI BASE FILTERS_FILE ATTRS serial
       python_ldap_lookups.py URI BASE FILTERS_FILE ATTRS inflight N

One anonymous connection; each filter is one search_ext with the given
attributes, its results read with result3. "inflight" keeps N searches
outstanding. Prints JSON: lookups, entries, seconds, and for serial runs the
median and p95 latency in seconds.
"""
import json
import sys
import time

import ldap


def serial(conn, base, filters, attrs):
    latencies, entries = [], 0
    started = time.perf_counter()
    for f in filters:
        one = time.perf_counter()
        msgid = conn.search_ext(base, ldap.SCOPE_SUBTREE, f, attrs)
        _, data, _, _ = conn.result3(msgid, all=1)
        entries += len(data)
        latencies.append(time.perf_counter() - one)
    return entries, time.perf_counter() - started, latencies


def inflight(conn, base, filters, attrs, window):
    entries, pending, position = 0, set(), 0
    started = time.perf_counter()
    while position < len(filters) or pending:
        while position < len(filters) and len(pending) < window:
            pending.add(conn.search_ext(base, ldap.SCOPE_SUBTREE, filters[position], attrs))
            position += 1
        rtype, data, msgid, _ = conn.result3(ldap.RES_ANY, all=0)
        if rtype == ldap.RES_SEARCH_RESULT:
            pending.discard(msgid)
        elif data:
            entries += len(data)
    return entries, time.perf_counter() - started, []


def percentile(values, p):
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * p // 100))
    return ordered[min(int(rank), len(ordered)) - 1]


def main():
    uri, base, filters_file, attrs, mode = sys.argv[1:6]
    with open(filters_file, encoding="utf-8") as handle:
        filters = [line for line in handle.read().split("\n") if line]
    conn = ldap.initialize(uri)
    conn.protocol_version = 3
    conn.simple_bind_s("", "")
    attributes = attrs.split(",")
    for f in filters[:50]:
        conn.result3(conn.search_ext(base, ldap.SCOPE_SUBTREE, f, attributes), all=1)
    if mode == "serial":
        entries, seconds, latencies = serial(conn, base, filters, attributes)
    else:
        entries, seconds, latencies = inflight(conn, base, filters, attributes, int(sys.argv[6]))
    result = {"lookups": len(filters), "entries": entries, "seconds": seconds}
    if latencies:
        result["median"] = percentile(latencies, 50)
        result["p95"] = percentile(latencies, 95)
    print(json.dumps(result))


main()

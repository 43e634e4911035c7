"""Turns bench/tfb/run.sh's raw results into the TechEmpower section of docs/BENCHMARKS.md
(Python standard library only).

usage: report.py RESULTS.tsv META.txt BENCHMARKS.md

The markdown between the TFB_BEGIN and TFB_END markers is replaced (appended at the end when the
file has none). Each cell is the median round and, in brackets, the lowest and highest round.
jasyncio's ratios to Vert.x are taken round by round (the two ran in the same rotation) and shown
as their median and range; the issue's goal is beside them.
"""
import csv
import os
import sys

TFB_BEGIN = "<!-- tfb-results:begin (written by bench/tfb/report.py; edits here are overwritten) -->"
TFB_END = "<!-- tfb-results:end -->"
NAMES = {"jasyncio": "jasyncio (JDBC via toThread)", "vertx": "Vert.x 5 (vertx-pg-client, 1 connection)", "helidon": "Helidon 4 SE (JDBC)"}


def name(server):
    if server.startswith("vertx-"):
        return f"Vert.x 5 (vertx-pg-client, {server[len('vertx-'):]} connections)"
    return NAMES.get(server, server)


def servers_in(runs):
    present = {k[0] for k in runs}
    return [s for s in NAMES if s in present] + sorted(present - set(NAMES))
TESTS = ["plaintext", "json", "db", "queries", "fortunes", "updates"]
# issue 38: jasyncio's requests/s at least Vert.x's (plaintext, json), at least 1/1.25 of it (db, queries, fortunes);
# judged on the server's CPU per request too (at most Vert.x's; at most 1.25x it), as the load
# generator and the database share one CPU and may bound requests/s before the server does
GOALS = {"plaintext": 1.0, "json": 1.0, "db": 1 / 1.25, "queries": 1 / 1.25, "fortunes": 1 / 1.25}


def load(path):
    runs = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            runs.setdefault((row["server"], row["test"]), {})[row["round"]] = {
                k: float(row[k]) for k in ("requests_per_s", "p99_us", "errors", "server_cpu_us_per_request")}
    return runs


def spread(values, fmt):
    values = sorted(values)
    mid = values[(len(values) - 1) // 2]
    return fmt(mid) + (f" ({fmt(values[0])}–{fmt(values[-1])})" if len(values) > 1 else "")


def table(runs):
    servers = servers_in(runs)
    lines = ["| test | server | requests/s | server CPU µs/request | p99 ms | errors |", "|---|---|---:|---:|---:|---:|"]
    for t in TESTS:
        for s in servers:
            rounds = runs.get((s, t))
            if not rounds:
                continue
            r = list(rounds.values())
            lines.append(f"| {t} | {name(s)} | {spread([x['requests_per_s'] for x in r], lambda v: f'{v:,.0f}')} "
                         f"| {spread([x['server_cpu_us_per_request'] for x in r], lambda v: f'{v:.1f}')} "
                         f"| {spread([x['p99_us'] / 1000 for x in r], lambda v: f'{v:.1f}')} "
                         f"| {sum(int(x['errors']) for x in r)} |")
    return lines


def verdict(values, goal, higher_is_better):
    if goal is None:
        return "no goal"
    met = [v >= goal if higher_is_better else v <= goal for v in values]
    if all(met):
        return "met in every round"
    if not any(met):
        return "not met in any round"
    return "inconclusive (within the spread)"


def ratios(runs, reference):
    lines = [f"| test | jasyncio / {name(reference)}: requests/s | goal | verdict | CPU per request | goal | verdict |",
             "|---|---:|---:|---|---:|---:|---|"]
    for t in TESTS:
        j, v = runs.get(("jasyncio", t)), runs.get((reference, t))
        if not j or not v:
            continue
        common = sorted(set(j) & set(v))
        rps = [j[r]["requests_per_s"] / v[r]["requests_per_s"] for r in common]
        cpu = [j[r]["server_cpu_us_per_request"] / v[r]["server_cpu_us_per_request"] for r in common]
        goal = GOALS.get(t)
        cpu_goal = None if goal is None else 1 / goal
        lines.append(f"| {t} | {spread(rps, lambda x: f'{x:.2f}x')} | {'—' if goal is None else f'≥ {goal:.2f}x'} "
                     f"| {verdict(rps, goal, higher_is_better=True)} "
                     f"| {spread(cpu, lambda x: f'{x:.2f}x')} | {'—' if cpu_goal is None else f'≤ {cpu_goal:.2f}x'} "
                     f"| {verdict(cpu, cpu_goal, higher_is_better=False)} |")
    return lines


def main():
    results, meta_path, doc = sys.argv[1:4]
    runs = load(results)
    meta = dict(line.rstrip("\n").split("=", 1) for line in open(meta_path) if "=" in line)
    body = [TFB_BEGIN, "",
            f"Measured {meta.get('date')} on {meta.get('cpu')}, {meta.get('kernel')}; {meta.get('java')}; "
            f"{meta.get('postgres')}; {meta.get('versions')}; {meta.get('wrk')}. "
            f"{meta.get('rounds')} rounds of {meta.get('duration')} s (after {meta.get('warmup')} s of warm-up), "
            f"{meta.get('connections')}. Pinned: {meta.get('pinned')}. "
            f"Load average (1, 5, 15 min) at the start {meta.get('load_start')}, at the end {meta.get('load_end')}.",
            "", "Command: `" + meta.get("command", "") + "`", ""]
    body += table(runs)
    for reference in [s for s in servers_in(runs) if s.startswith("vertx")]:
        body += [""] + ratios(runs, reference)
    body += ["", TFB_END]
    text = open(doc).read() if os.path.exists(doc) else ""
    if TFB_BEGIN in text and TFB_END in text:
        head, rest = text.split(TFB_BEGIN, 1)
        text = head + "\n".join(body) + rest.split(TFB_END, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + "\n".join(body) + "\n"
    with open(doc, "w") as f:
        f.write(text)


main()

"""Turns bench/routing.sh's raw results into its table in docs/BENCHMARKS.md (between the
routing-results markers; appended at the end when the file has none). Each cell: the median round
by server CPU per request (the lower middle for an even count) with the spread (lowest-highest),
and the ratio to plain taken round by round (median and range). Python standard library only.

usage: routing_report.py RESULTS.tsv META.txt BENCHMARKS.md
"""
import csv
import sys

BEGIN = "<!-- routing-results:begin (written by bench/routing_report.py; edits here are overwritten) -->"
END = "<!-- routing-results:end -->"
NAMES = {
    "plain": "plain: a whole-request handler",
    "streaming": "a streaming handler, no router",
    "router1": "Router, 1 route (`GET /`)",
    "router20": "Router, 20 routes, 2 path parameters",
    "router1-whole": "Router, 1 route, whole requests",
    "router20-whole": "Router, 20 routes, whole requests",
}


def middle(values):
    values = sorted(values)
    return values[(len(values) - 1) // 2]


def main():
    results, meta_path, doc = sys.argv[1:4]
    meta = dict(line.rstrip("\n").split("=", 1) for line in open(meta_path) if "=" in line)
    by_cell = {}
    for row in csv.DictReader(open(results), delimiter="\t"):
        by_cell.setdefault((row["mode"], int(row["connections"])), {})[row["round"]] = row
    modes = list(dict.fromkeys(mode for mode, _ in by_cell))
    conns = sorted({c for _, c in by_cell}, reverse=True)
    out = [BEGIN, "",
           f"Run {meta.get('date')} on {meta.get('cpu')}; {meta.get('java')}; loop {meta.get('loop')}; "
           f"{meta.get('rounds')} round(s) of {meta.get('duration')} s after {meta.get('warmup')} s of warm-up; "
           f"load {meta.get('load_start')} -> {meta.get('load_end')}.", "",
           f"Command: `{meta.get('command')}`", ""]
    for c in conns:
        out += [f"**13 B body, {c} connection(s)** (server CPU per request, median round [lowest-highest])", "",
                "| server | CPU µs/request | requests/s | p99 µs | errors | × plain |", "|---|---|---|---|---|---|"]
        plain = by_cell.get(("plain", c), {})
        for m in modes:
            rounds = by_cell.get((m, c))
            if not rounds:
                continue
            cpu = {r: float(row["server_cpu_us_per_request"]) for r, row in rounds.items()}
            med = middle(cpu.values())
            row = next(row for r, row in rounds.items() if cpu[r] == med)
            ratios = sorted(cpu[r] / float(plain[r]["server_cpu_us_per_request"]) for r in cpu
                            if r in plain and float(plain[r]["server_cpu_us_per_request"]) > 0)
            ratio = "-" if not ratios else (f"{middle(ratios):.2f}" if len(ratios) == 1
                                            else f"{middle(ratios):.2f} [{ratios[0]:.2f}-{ratios[-1]:.2f}]")
            errors = sum(int(float(r["errors"])) for r in rounds.values())
            out.append(f"| {NAMES.get(m, m)} | {med:.2f} [{min(cpu.values()):.2f}-{max(cpu.values()):.2f}] | "
                       f"{float(row['requests_per_s']):,.0f} | {float(row['p99_us']):,.0f} | {errors} | {ratio} |")
        out.append("")
    out.append(END)
    try:
        text = open(doc).read()
    except FileNotFoundError:
        text = ""
    table = "\n".join(out)
    if BEGIN in text and END in text:
        text = text[:text.index(BEGIN)] + table + text[text.index(END) + len(END):]
    else:
        text = text.rstrip("\n") + "\n\n" + table + "\n"
    open(doc, "w").write(text)
    print(table)


if __name__ == "__main__":
    main()

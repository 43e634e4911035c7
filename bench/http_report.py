"""Turns bench/compare-http.sh's raw results into the HTTP section of docs/BENCHMARKS.md
(Python standard library only).

usage: http_report.py RESULTS.tsv META.txt BENCHMARKS.md

The markdown between the HTTP_BEGIN and HTTP_END markers is replaced (appended at the end when
the file has none); the rest of the file is left as it is. Each cell shows its median round by
server CPU per request (for an even count, the lower middle one) and, in brackets, the spread: the
lowest and highest round. Ratios to uvloop + httptools and to Netty are taken round by round (the
two servers ran in the same rotation) and shown as their median and range.
"""
import csv
import sys

HTTP_BEGIN = "<!-- http-results:begin (written by bench/http_report.py; edits here are overwritten) -->"
HTTP_END = "<!-- http-results:end -->"

NAMES = {
    "jasyncio-http-nio": "jasyncio-http (nio)",
    "jasyncio-http-epoll": "jasyncio-http (epoll)",
    "jasyncio-http-io_uring": "jasyncio-http (io_uring)",
    "netty-http-epoll": "Netty 4.2 codec-http (epoll)",
    "uvloop-httptools": "uvloop + httptools",
    "asyncio-httptools": "asyncio + httptools",
    "node-http": "Node.js http",
}
REFERENCES = [("uvloop-httptools", "uvloop"), ("netty-http-epoll", "Netty")]
# Issue 24's goal: at 100 connections, 13-byte body, server CPU per request at most uvloop's and Netty's.
GOAL_SERVERS = ["jasyncio-http-epoll", "jasyncio-http-io_uring"]
NUMBERS = ["requests_per_s", "p50_us", "p99_us", "errors", "server_cpu_s", "server_cpu_us_per_request"]


def load(path):
    runs = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            key = (row["server"], int(row["size"]), int(row["connections"]))
            runs.setdefault(key, []).append(dict({k: float(row[k]) for k in NUMBERS}, round=row["round"]))
    cells = {}
    for key, rows in runs.items():
        rows.sort(key=lambda r: r["server_cpu_us_per_request"])
        cpu = [r["server_cpu_us_per_request"] for r in rows]
        cells[key] = dict(rows[(len(rows) - 1) // 2], rounds=len(rows), errors=sum(r["errors"] for r in rows),
                          cpu_min=min(cpu), cpu_max=max(cpu),
                          by_round={r["round"]: r["server_cpu_us_per_request"] for r in rows})
    return cells


def ratios(cells, server, reference, size, conns):
    a, b = cells.get((server, size, conns)), cells.get((reference, size, conns))
    if not a or not b:
        return []
    return sorted(a["by_round"][r] / b["by_round"][r] for r in a["by_round"] if r in b["by_round"] and b["by_round"][r] > 0)


def ratio_text(rs):
    if not rs:
        return "-"
    median = rs[(len(rs) - 1) // 2]
    return f"{median:.2f}" if len(rs) == 1 else f"{median:.2f} [{rs[0]:.2f}-{rs[-1]:.2f}]"


def section(cells, meta):
    servers = [s for s in NAMES if any(k[0] == s for k in cells)]
    sizes = sorted({k[1] for k in cells})
    conns_list = sorted({k[2] for k in cells})
    out = [HTTP_BEGIN, ""]
    out.append(f"Run {meta.get('date', '?')} on {meta.get('cpu', '?')}, {meta.get('kernel', '?')}; "
               f"{meta.get('java', '?')}; {meta.get('python', '?')}; Node {meta.get('node', '?')}; "
               f"Netty {meta.get('netty', '?')}; {meta.get('wrk', 'wrk')}. {meta.get('rounds', '?')} round(s) of "
               f"{meta.get('duration', '?')} s after {meta.get('warmup', '?')} s of warm-up; pinned: "
               f"{meta.get('pinned', '?')}; load {meta.get('load_start', '?')} -> {meta.get('load_end', '?')}.")
    out.append("")
    out.append(f"Command: `{meta.get('command', 'bench/compare-http.sh')}`")
    out.append("")
    for size in sizes:
        for conns in conns_list:
            out.append(f"**{size} B body, {conns} connection{'s' if conns != 1 else ''}** (server CPU per request, "
                       "median round [lowest-highest])")
            out.append("")
            refs = [(r, label) for r, label in REFERENCES if (r, size, conns) in cells]
            head = "| server | CPU µs/request | requests/s | p99 µs | errors |" + "".join(
                f" × {label} |" for _, label in refs)
            out.append(head)
            out.append("|" + "---|" * (5 + len(refs)))
            for s in servers:
                c = cells.get((s, size, conns))
                if not c:
                    continue
                spread = "" if c["rounds"] == 1 else f" [{c['cpu_min']:.2f}-{c['cpu_max']:.2f}]"
                row = (f"| {NAMES[s]} | {c['server_cpu_us_per_request']:.2f}{spread} | {c['requests_per_s']:,.0f} | "
                       f"{c['p99_us']:,.0f} | {c['errors']:.0f} |")
                row += "".join(f" {ratio_text(ratios(cells, s, r, size, conns))} |" for r, _ in refs)
                out.append(row)
            out.append("")
    goal_lines = []
    for s in GOAL_SERVERS:
        for r, label in REFERENCES:
            rs = ratios(cells, s, r, 13, 100)
            if not rs:
                continue
            verdict = "met" if rs[-1] <= 1.0 else "not met" if rs[0] > 1.0 else "inconclusive"
            goal_lines.append(f"- {NAMES[s]} / {label} at 13 B × 100: {ratio_text(rs)}: {verdict}")
    if goal_lines:
        out.append("Goal (issue 24): server CPU per request at most uvloop + httptools' and Netty's at 100 "
                   "connections, 13-byte body (met when every round's ratio is at most 1.00, not met when none is):")
        out.append("")
        out.extend(goal_lines)
        out.append("")
    out.append(HTTP_END)
    return "\n".join(out)


def main():
    results, meta_path, doc = sys.argv[1:4]
    meta = {}
    with open(meta_path) as f:
        for line in f:
            if "=" in line:
                k, v = line.rstrip("\n").split("=", 1)
                meta[k] = v
    text = section(load(results), meta)
    try:
        with open(doc) as f:
            current = f.read()
    except FileNotFoundError:
        current = ""
    if HTTP_BEGIN in current and HTTP_END in current:
        before = current[:current.index(HTTP_BEGIN)]
        after = current[current.index(HTTP_END) + len(HTTP_END):]
        current = before + text + after
    else:
        current = current + ("\n" if current and not current.endswith("\n") else "") + "\n" + text + "\n"
    with open(doc, "w") as f:
        f.write(current)


main()

"""Turns bench/group.sh's raw results (compare.sh's TSV) into the event-loop group section of
docs/BENCHMARKS.md: for each server and cell, the median over the interleaved rounds with the
spread (min-max), and the ratios that matter: jasyncio / Netty at the same thread count, and
2 threads / 1 thread for each.

usage: group_report.py RESULTS.tsv META.txt BENCHMARKS.md COMMAND
"""
import csv
import statistics
import sys

BEGIN = "<!-- group-results:begin (written by bench/group_report.py; edits here are overwritten) -->"
END = "<!-- group-results:end -->"


def label(server):
    """'jasyncio-protocol-epoll-x2a' -> ('jasyncio protocol (epoll)', 2, 'one acceptor')."""
    base, threads, spread = server, 1, ""
    if "-x" in server:
        base, tail = server.rsplit("-x", 1)
        threads = int(tail.rstrip("a"))
        spread = "one acceptor" if tail.endswith("a") else ("SO_REUSEPORT" if base.startswith("jasyncio") else "one acceptor")
    elif base.startswith("netty"):
        spread = ""
    parts = base.split("-")
    name = f"jasyncio {parts[1]} ({parts[2]})" if parts[0] == "jasyncio" else f"Netty {parts[1]}"
    return name, threads, spread


def load(path):
    runs = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            key = (row["server"], int(row["size"]), int(row["connections"]))
            runs.setdefault(key, []).append(row)
    return runs


def summary(rows, field):
    values = sorted(float(r[field]) for r in rows)
    return statistics.median(values), values[0], values[-1]


def fmt(median, lo, hi, digits):
    return f"{median:,.{digits}f} ({lo:,.{digits}f}-{hi:,.{digits}f})"


def main():
    results, meta_path, doc, command = sys.argv[1:5]
    runs = load(results)
    if not runs:
        sys.exit("group_report.py: no results")
    meta = dict(line.rstrip("\n").split("=", 1) for line in open(meta_path) if "=" in line)
    cells = sorted({(k[1], k[2]) for k in runs})
    servers = sorted({k[0] for k in runs}, key=lambda s: (not s.startswith("jasyncio"), label(s)[1], s))

    out = [BEGIN, "",
           f"Measured {meta.get('date', '?')} on {meta.get('cpu', '?')}, {meta.get('java', '?')}; "
           f"{meta.get('rounds', '?')} interleaved rounds per cell, {meta.get('warmup', '?')} s warm-up + "
           f"{meta.get('duration', '?')} s each; load average {meta.get('load_start', '?')} at the start, "
           f"{meta.get('load_end', '?')} at the end. Server allowed on CPUs 0-1, client pinned to CPU 1.",
           "", "```", command, "```", ""]
    for size, conns in cells:
        out += [f"**{size} B messages, {conns} connections** (median of the rounds, min-max in brackets)", "",
                "| server | threads | spread | CPU us/msg | msgs/s | p99 us | rounds |",
                "|---|---:|---|---:|---:|---:|---:|"]
        for s in servers:
            rows = runs.get((s, size, conns))
            if not rows:
                continue
            name, threads, spread = label(s)
            out.append(f"| {name} | {threads} | {spread or '-'} | "
                       f"{fmt(*summary(rows, 'server_cpu_us_per_msg'), 2)} | {fmt(*summary(rows, 'msgs_per_s'), 0)} | "
                       f"{summary(rows, 'p99_us')[0]:,.0f} | {len(rows)} |")
        out.append("")
        ratios = []
        for s in servers:
            if not s.startswith("jasyncio"):
                continue
            name, threads, spread = label(s)
            netty = next((n for n in servers if n.startswith("netty") and label(n)[1] == threads), None)
            mine = runs.get((s, size, conns))
            if netty and mine and runs.get((netty, size, conns)):
                cpu = summary(mine, "server_cpu_us_per_msg")[0] / summary(runs[(netty, size, conns)], "server_cpu_us_per_msg")[0]
                tput = summary(mine, "msgs_per_s")[0] / summary(runs[(netty, size, conns)], "msgs_per_s")[0]
                ratios.append(f"{name}, {threads} thread(s){', ' + spread if spread else ''} / Netty, {threads}: "
                              f"CPU per message x{cpu:.2f}, throughput x{tput:.2f}")
        for s in servers:
            name, threads, spread = label(s)
            one = next((o for o in servers if label(o)[0] == name and label(o)[1] == 1), None)
            if threads > 1 and one and runs.get((s, size, conns)) and runs.get((one, size, conns)):
                cpu = summary(runs[(s, size, conns)], "server_cpu_us_per_msg")[0] / summary(runs[(one, size, conns)], "server_cpu_us_per_msg")[0]
                tput = summary(runs[(s, size, conns)], "msgs_per_s")[0] / summary(runs[(one, size, conns)], "msgs_per_s")[0]
                ratios.append(f"{name}, {threads} threads{', ' + spread if spread else ''} / 1 thread: "
                              f"CPU per message x{cpu:.2f}, throughput x{tput:.2f}")
        out += [f"- {r}" for r in ratios] + [""]
    out.append(END)
    section = "\n".join(out)

    text = open(doc).read()
    if BEGIN in text and END in text:
        before, rest = text.split(BEGIN, 1)
        text = before + section + rest.split(END, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    with open(doc, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()

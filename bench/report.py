"""Turns bench/compare.sh's raw results into the echo section of docs/BENCHMARKS.md and an SVG
chart (Python standard library only).

usage: report.py RESULTS.tsv META.txt BENCHMARKS.md CHART.svg

The markdown between the ECHO_BEGIN and ECHO_END markers is replaced; the rest of the file (the
JMH section, notes) is left as it is. With several rounds, each cell shows its median round by CPU per
message (for an even count, the lower of the two middle ones) and, in brackets, the spread: the
lowest and highest round. Ratios are taken round by round (both servers of a round ran in the same
rotation, minutes apart at most): the median of those ratios, in brackets their range.
"""
import csv
import html
import math
import os
import sys

ECHO_BEGIN = "<!-- echo-results:begin (written by bench/report.py; edits here are overwritten) -->"
ECHO_END = "<!-- echo-results:end -->"

# Display order and names; ratios are taken against each reference present in the run.
NAMES = {
    "jasyncio-protocol-nio": "jasyncio protocol (nio)",
    "jasyncio-protocol-epoll": "jasyncio protocol (epoll)",
    "jasyncio-streams-nio": "jasyncio streams (nio)",
    "jasyncio-streams-epoll": "jasyncio streams (epoll)",
    "jasyncio-protocol-io_uring": "jasyncio protocol (io_uring)",
    "jasyncio-streams-io_uring": "jasyncio streams (io_uring)",
    "uvloop-protocol": "uvloop protocol",
    "uvloop-streams": "uvloop streams",
    "asyncio-protocol": "asyncio protocol",
    "asyncio-streams": "asyncio streams",
    "node": "Node.js net",
    "netty-nio": "Netty NIO",
    "netty-epoll": "Netty epoll",
    "netty-io_uring": "Netty io_uring",
    "c-epoll": "C epoll (floor)",
    "c-io_uring": "C io_uring",
}
REFERENCES = [("uvloop-protocol", "uvloop protocol"), ("netty-nio", "Netty NIO"), ("c-epoll", "C epoll")]
# Issue 28's goals for the io_uring loop: (server, reference, size, connections, at most this ratio
# of CPU per message). Judged on the ratios taken round by round: met when even the highest is
# within the bound, not met when even the lowest is beyond it, inconclusive in between. (The
# 10-connection goal, "not worse than today", is judged against the epoll loop, today's peer.)
GOALS = [("jasyncio-protocol-io_uring", "netty-io_uring", 1024, 100, 1.00),
         ("jasyncio-protocol-io_uring", "c-epoll", 1024, 100, 0.95),
         ("jasyncio-protocol-io_uring", "jasyncio-protocol-epoll", 1024, 10, 1.00),
         ("jasyncio-protocol-io_uring", "c-epoll", 102400, 10, 1.10),
         ("jasyncio-protocol-io_uring", "c-epoll", 102400, 100, 1.10),
         ("jasyncio-streams-io_uring", "c-epoll", 102400, 10, 1.10),
         ("jasyncio-streams-io_uring", "c-epoll", 102400, 100, 1.10)]
NUMBERS = ["msgs_per_s", "mib_per_s", "p50_us", "p99_us", "p999_us", "errors",
           "server_cpu_s", "server_cpu_us_per_msg"]


def size_label(size):
    return f"{size // 1024} KiB" if size % 1024 == 0 else f"{size} B"


def load(results_path):
    """{(server, size, connections): the median round, with the rounds' CPU-per-message range and
    {round: CPU per message}}."""
    runs = {}
    with open(results_path, newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            key = (row["server"], int(row["size"]), int(row["connections"]))
            runs.setdefault(key, []).append(dict({k: float(row[k]) for k in NUMBERS}, round=row["round"]))
    cells = {}
    for key, rows in runs.items():
        rows.sort(key=lambda r: r["server_cpu_us_per_msg"])
        median = rows[(len(rows) - 1) // 2]
        cpu = [r["server_cpu_us_per_msg"] for r in rows]
        cells[key] = dict(median, rounds=len(rows), errors=sum(r["errors"] for r in rows),
                          cpu_min=min(cpu), cpu_max=max(cpu),
                          by_round={r["round"]: r["server_cpu_us_per_msg"] for r in rows})
    return cells


def load_meta(meta_path):
    meta = {}
    with open(meta_path) as f:
        for line in f:
            if "=" in line:
                k, v = line.rstrip("\n").split("=", 1)
                meta[k] = v
    return meta


def ordered_servers(cells):
    present = {k[0] for k in cells}
    return [s for s in NAMES if s in present] + sorted(present - set(NAMES))


def matrix(cells):
    sizes = sorted({k[1] for k in cells})
    conns = sorted({k[2] for k in cells})
    return [(s, c) for s in sizes for c in conns]


def fmt(x, digits=2):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return f"{x:,.{digits}f}"


def round_ratios(cells, server, ref, size, conns):
    """The CPU-per-message ratio of each round both servers ran in."""
    a, b = cells.get((server, size, conns)), cells.get((ref, size, conns))
    if a is None or b is None:
        return []
    return [a["by_round"][r] / b["by_round"][r] for r in a["by_round"]
            if r in b["by_round"] and b["by_round"][r] > 0]


def with_spread(value, low, high, rounds, digits=2):
    """'1.23 (1.10-1.40)' with several rounds, '1.23' with one."""
    if value is None:
        return "-"
    return fmt(value, digits) + (f" ({fmt(low, digits)}-{fmt(high, digits)})" if rounds > 1 else "")


def geomean(values):
    values = [v for v in values if v is not None and v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def markdown(cells, meta, chart_name):
    servers, cellkeys = ordered_servers(cells), matrix(cells)
    head = " | ".join(f"{size_label(s)} x {c}" for s, c in cellkeys)
    sep = "|".join(["---"] + ["---:"] * len(cellkeys))
    out = [ECHO_BEGIN, "", "### Echo: the server's CPU time per message", ""]
    out.append(f"Measured {meta.get('date', '?')} on {meta.get('cpu', '?')}, {meta.get('memory', '?')}, "
               f"{meta.get('os', '?')} ({meta.get('kernel', '?')}). {meta.get('java', '')}; "
               f"{meta.get('python', '')}; Node.js {meta.get('node', '')}; Netty {meta.get('netty', '')}; "
               f"{meta.get('gcc', '')}.")
    out.append("")
    out.append(f"Each run: {meta.get('warmup', '?')} s warm-up, then {meta.get('duration', '?')} s measured; "
               f"{meta.get('rounds', '1')} round(s) per cell, the median round shown (the lower middle one for an even count). Server pinned to CPU 0, client to CPU 1 "
               f"(pinned: {meta.get('pinned', '?')}). Load average (1, 5, 15 min) at the start "
               f"{meta.get('load_start', '?')}, at the end {meta.get('load_end', '?')}: pinning keeps server and "
               f"client apart, not other processes away. Command: `{meta.get('command', '')}`")
    out.append("")
    out.append(f"![echo: server CPU per message]({chart_name})")
    out.append("")
    out.append("Server CPU microseconds per echoed message (lower is better), by message size x connections:")
    out.append("")
    out.append(f"| server | {head} |")
    out.append(f"|{sep}|")
    for s in servers:
        vals = [with_spread(cells[(s, z, c)]["server_cpu_us_per_msg"], cells[(s, z, c)]["cpu_min"],
                            cells[(s, z, c)]["cpu_max"], cells[(s, z, c)]["rounds"])
                if (s, z, c) in cells else "-" for z, c in cellkeys]
        out.append(f"| {NAMES.get(s, s)} | " + " | ".join(vals) + " |")
    if any(cell["rounds"] > 1 for cell in cells.values()):
        out += ["", "(median round; in brackets the lowest and the highest round. Ratios below: taken round by "
                    "round, both servers of a round having run in the same rotation; the median of those ratios, "
                    "in brackets their range. A ratio whose range includes 1.00 is inconclusive.)"]
    for ref, ref_name in REFERENCES:
        if not any(k[0] == ref for k in cells):
            out += ["", f"(no {ref_name} results: no ratios to it)"]
            continue
        out += ["", f"CPU per message relative to {ref_name} (1.00 = the same CPU; 0.50 = half of it; "
                    f"geometric mean in the last column):", ""]
        out.append(f"| server | {head} | geo. mean |")
        out.append(f"|{sep}|---:|")
        for s in servers:
            spreads = [sorted(round_ratios(cells, s, ref, z, c)) for z, c in cellkeys]
            rs = [rr[(len(rr) - 1) // 2] if rr else None for rr in spreads]
            shown = [with_spread(r, rr[0] if rr else None, rr[-1] if rr else None, len(rr))
                     for r, rr in zip(rs, spreads)]
            out.append(f"| {NAMES.get(s, s)} | " + " | ".join(shown) + f" | {fmt(geomean(rs))} |")
    out += goals(cells)
    out += ["", "Throughput and latency beside it (the client's view; on one client core the faster servers "
                "can be client-bound, which is why CPU per message is the judged figure):", ""]
    for z, c in cellkeys:
        out.append(f"**{size_label(z)} messages, {c} connections**")
        out.append("")
        out.append("| server | CPU us/msg | msgs/s | MiB/s | p50 us | p99 us | p99.9 us | errors |")
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|")
        for s in servers:
            r = cells.get((s, z, c))
            if r is None:
                continue
            out.append(f"| {NAMES.get(s, s)} | {fmt(r['server_cpu_us_per_msg'])} | {fmt(r['msgs_per_s'], 0)} | "
                       f"{fmt(r['mib_per_s'], 1)} | {fmt(r['p50_us'], 0)} | {fmt(r['p99_us'], 0)} | "
                       f"{fmt(r['p999_us'], 0)} | {int(r['errors'])} |")
        out.append("")
    out.append(ECHO_END)
    return "\n".join(out)


def goals(cells):
    """The table of GOALS whose servers both ran, with a verdict each."""
    rows = []
    for server, ref, size, conns, bound in GOALS:
        rr = sorted(round_ratios(cells, server, ref, size, conns))
        if not rr:
            continue
        verdict = "met" if rr[-1] <= bound else "not met" if rr[0] > bound else "inconclusive"
        if len(rr) == 1:
            verdict += " (one round: no spread to judge it against)"
        rows.append(f"| {NAMES.get(server, server)} / {NAMES.get(ref, ref)}, {size_label(size)} x {conns} | "
                    f"<= {bound:.2f} | {with_spread(rr[(len(rr) - 1) // 2], rr[0], rr[-1], len(rr))} | {verdict} |")
    if not rows:
        return []
    return ["", "The io_uring loop against its goals (issue 28; CPU per message, ratios taken round by round: "
                "met when the highest is within the bound, not met when the lowest is beyond it):", "",
            "| ratio | goal | measured | verdict |", "|---|---:|---:|---|"] + rows


def svg(cells):
    """Small multiples: one panel per (size, connections), one bar per server, own scale."""
    servers, cellkeys = ordered_servers(cells), matrix(cells)
    conns = sorted({c for _, c in cellkeys})
    sizes = sorted({s for s, _ in cellkeys})
    label_w, bar_w, bar_h, gap = 170, 230, 14, 4
    panel_w = label_w + bar_w + 60
    panel_h = 28 + len(servers) * (bar_h + gap) + 10
    width, top = max(760, panel_w * len(conns) + 20), 50
    height = top + panel_h * len(sizes) + 30
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<text x="10" y="22" font-size="15" font-weight="bold">Echo server: CPU microseconds per message '
             f'(lower is better)</text>',
             f'<text x="10" y="40" fill="#555">server pinned to one core; each panel has its own scale; '
             f'orange: jasyncio, blue: the references ({", ".join(n for _, n in REFERENCES)})</text>']
    for row, size in enumerate(sizes):
        for col, c in enumerate(conns):
            x0, y0 = 10 + col * panel_w, top + row * panel_h
            parts.append(f'<text x="{x0}" y="{y0 + 16}" font-weight="bold">{size_label(size)} messages, '
                         f'{c} connections</text>')
            vals = [cells[(s, size, c)]["server_cpu_us_per_msg"] for s in servers if (s, size, c) in cells]
            top_val = max(vals) if vals else 1.0
            for i, s in enumerate(servers):
                y = y0 + 26 + i * (bar_h + gap)
                parts.append(f'<text x="{x0 + label_w - 6}" y="{y + bar_h - 3}" text-anchor="end">'
                             f'{html.escape(NAMES.get(s, s))}</text>')
                r = cells.get((s, size, c))
                if r is None:
                    parts.append(f'<text x="{x0 + label_w}" y="{y + bar_h - 3}" fill="#999">not run</text>')
                    continue
                v = r["server_cpu_us_per_msg"]
                w = max(1.0, bar_w * v / top_val) if top_val > 0 else 1.0
                color = "#e8710a" if s.startswith("jasyncio") else "#1a73e8" if s in dict(REFERENCES) \
                    else "#7f7f7f"
                parts.append(f'<rect x="{x0 + label_w}" y="{y}" width="{w:.1f}" height="{bar_h}" fill="{color}"/>')
                parts.append(f'<text x="{x0 + label_w + w + 4:.1f}" y="{y + bar_h - 3}">{v:.2f}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


SKELETON = """# Benchmarks

{echo}
"""


def main():
    results_path, meta_path, md_path, svg_path = sys.argv[1:5]
    cells = load(results_path)
    if not cells:
        sys.exit("report.py: no results to report")
    meta = load_meta(meta_path)
    section = markdown(cells, meta, os.path.basename(svg_path))
    text = open(md_path).read() if os.path.exists(md_path) else SKELETON.format(echo=ECHO_BEGIN + "\n" + ECHO_END)
    if ECHO_BEGIN not in text or ECHO_END not in text:
        text = text.rstrip("\n") + "\n\n" + ECHO_BEGIN + "\n" + ECHO_END + "\n"
    before, rest = text.split(ECHO_BEGIN, 1)
    after = rest.split(ECHO_END, 1)[1]
    with open(md_path, "w") as f:
        f.write(before + section + after)
    with open(svg_path, "w") as f:
        f.write(svg(cells))


if __name__ == "__main__":
    main()

"""Reads wrk's --latency report on stdin and prints one line for bench/compare-http.sh:
requests_per_s=... p50_us=... p99_us=... errors=... server_cpu_s=... server_cpu_us_per_request=...
usage: wrk ... --latency URL | wrk_result.py CPU_TICKS_BEFORE CPU_TICKS_AFTER CLK_TCK
(errors: socket errors plus non-2xx responses). Prints nothing when the report has no result."""
import re
import sys

UNITS = {"us": 1.0, "ms": 1000.0, "s": 1e6, "m": 60e6}


def micros(text):
    m = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text)
    return float(m.group(1)) * UNITS[m.group(2)]


def main():
    before, after, tck = float(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
    report = sys.stdin.read()
    total = re.search(r"(\d+) requests in ([\d.]+)(us|ms|s|m)", report)
    rate = re.search(r"Requests/sec:\s+([\d.]+)", report)
    p50 = re.search(r"^\s+50%\s+(\S+)", report, re.M)
    p99 = re.search(r"^\s+99%\s+(\S+)", report, re.M)
    if not (total and rate and p50 and p99) or int(total.group(1)) == 0:
        return
    errors = sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", report))
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", report)
    errors += int(non2xx.group(1)) if non2xx else 0
    cpu_s = (after - before) / tck
    requests = int(total.group(1))
    print("requests_per_s=%.0f p50_us=%.1f p99_us=%.1f errors=%d server_cpu_s=%.2f server_cpu_us_per_request=%.2f"
          % (float(rate.group(1)), micros(p50.group(1)), micros(p99.group(1)), errors, cpu_s, cpu_s * 1e6 / requests))


main()

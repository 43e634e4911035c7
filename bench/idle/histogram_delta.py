"""What each connection holds, class by class: the difference of two class histograms
(jcmd GC.class_histogram, as IdleConnectionMemory writes them to PREFIX.before and
PREFIX.after), per connection, largest first (bench/idle-memory.sh with HISTOGRAM=1)."""
import re
import sys


def read(path):
    classes = {}
    for line in open(path):
        m = re.match(r"\s*\d+:\s+(\d+)\s+(\d+)\s+(\S+)", line)
        if m:
            classes[m.group(3)] = (int(m.group(1)), int(m.group(2)))
    return classes


prefix, n = sys.argv[1], int(sys.argv[2])
before, after = read(prefix + ".before"), read(prefix + ".after")
rows = []
for name, (count, size) in after.items():
    c0, s0 = before.get(name, (0, 0))
    if size - s0 > 0:
        rows.append(((size - s0) / n, (count - c0) / n, name))
rows.sort(reverse=True)
total = sum(r[0] for r in rows)
print(f"{prefix}: {total:.0f} bytes per connection in the histogram")
for per_conn, count, name in rows[:25]:
    if per_conn < 1:
        break
    print(f"  {per_conn:8.1f} B  {count:6.2f} objects  {name}")

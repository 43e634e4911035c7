"""The attacking side of bench/http-dos.sh (Debian's python3, asyncio only).

Starts bench/dos/DosServer.java, measures its heap after a GC, opens N connections that each send
a request head announcing a 16 MiB body and nothing more, measures the heap again, and times
ordinary GETs on fresh connections all the while. Prints one RESULT line (key=value ...).
"""
import argparse
import asyncio
import statistics
import subprocess
import sys
import time

HEAD = b"POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 16777216\r\n\r\n"
GET = b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"


async def ask_heap(server):
    server.stdin.write(b"heap\n")
    await server.stdin.drain()
    line = (await server.stdout.readline()).decode().split()
    return int(line[1]), int(line[3])


async def one_get(port):
    began = time.monotonic()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(GET)
    data = b""
    while b"Hello, world!" not in data:
        more = await asyncio.wait_for(reader.read(4096), 10)
        if not more:
            raise IOError("EOF before the response")
        data += more
    writer.close()
    return time.monotonic() - began


async def prober(port, latencies, failures, stop):
    while not stop.is_set():
        try:
            latencies.append(await one_get(port))
        except Exception as e:  # a GET not served counts as a failure, and the run goes on
            failures.append(repr(e))
        await asyncio.sleep(0.1)


async def main():
    p = argparse.ArgumentParser()
    p.add_argument("--java", required=True)
    p.add_argument("--cp", required=True)
    p.add_argument("--jvm", default="")
    p.add_argument("--loop", default="nio")
    p.add_argument("--connections", type=int, default=10000)
    p.add_argument("--hold", type=float, default=3.0, help="seconds to hold the connections after the last")
    p.add_argument("--floors", action="store_true", help="keep the server's rate floors (attackers refused after 5 s)")
    a = p.parse_args()
    cmd = [a.java] + a.jvm.split() + ["-cp", a.cp, "bench/dos/DosServer.java", "--loop", a.loop]
    if not a.floors:
        cmd.append("--no-floors")
    server = await asyncio.create_subprocess_exec(*cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        line = (await asyncio.wait_for(server.stdout.readline(), 120)).decode()
        port = int(line.split()[-1])
        for _ in range(300):  # warm the JIT a little, and the server's first allocations
            await one_get(port)
        before, _ = await ask_heap(server)
        latencies, failures, stop = [], [], asyncio.Event()
        probe = asyncio.create_task(prober(port, latencies, failures, stop))
        attackers = []
        began = time.monotonic()
        for i in range(0, a.connections, 250):
            batch = await asyncio.gather(*[asyncio.open_connection("127.0.0.1", port)
                                           for _ in range(min(250, a.connections - i))])
            for reader, writer in batch:
                writer.write(HEAD)
                attackers.append((reader, writer))
        opened = time.monotonic() - began
        await asyncio.sleep(a.hold)
        during, open_count = await ask_heap(server)
        stop.set()
        await probe
        refused = sum(1 for r, _ in attackers if r._buffer or r._eof)  # answered (408) or closed by the server
        for _, w in attackers:
            w.close()
        grown = during - before
        print(f"RESULT loop={a.loop} connections={a.connections} floors={'on' if a.floors else 'off'} "
              f"open_seconds={opened:.1f} server_connections={open_count} "
              f"heap_before_mib={before / 2**20:.1f} heap_during_mib={during / 2**20:.1f} "
              f"heap_grown_mib={grown / 2**20:.1f} per_connection_bytes={grown / a.connections:.0f} "
              f"gets={len(latencies)} get_failures={len(failures)} "
              f"get_median_ms={statistics.median(latencies) * 1000 if latencies else float('nan'):.1f} "
              f"get_max_ms={max(latencies) * 1000 if latencies else float('nan'):.1f} "
              f"attackers_answered={refused}")
        if failures:
            print("GET failures: " + "; ".join(failures[:5]), file=sys.stderr)
    finally:
        if server.returncode is None:
            server.stdin.write(b"quit\n")
            try:
                await asyncio.wait_for(server.wait(), 10)
            except asyncio.TimeoutError:
                server.kill()


asyncio.run(main())

"""What an idle connection costs a CPython asyncio (or uvloop) echo server: the resident set size
after N connections (gc.collect()) against the same once listening, per connection. The same
method as jasyncio's IdleConnectionMemory (bench/idle-memory.sh): prints PORT p, then
RESULT api=A loop=L connections=N heap_bytes_per_conn=-1 rss_bytes_per_conn=R."""
import asyncio
import gc
import sys


def rss():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS")


class Echo(asyncio.Protocol):
    def __init__(self, made):
        self.made = made
        self.transport = None

    def connection_made(self, transport):
        self.transport = transport
        self.made()

    def data_received(self, data):
        self.transport.write(data)


async def main(n, api, loop_name):
    all_in = asyncio.get_running_loop().create_future()
    count = 0

    def one_more():
        nonlocal count
        count += 1
        if count == n:
            all_in.set_result(None)

    async def echo(reader, writer):
        one_more()
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
        writer.close()

    if api == "protocol":
        server = await asyncio.get_running_loop().create_server(lambda: Echo(one_more), "127.0.0.1", 0, backlog=4096)
    else:
        server = await asyncio.start_server(echo, "127.0.0.1", 0, backlog=4096)
    gc.collect()
    before = rss()
    print("PORT", server.sockets[0].getsockname()[1], flush=True)
    await all_in
    await asyncio.sleep(1.0)
    gc.collect()
    after = rss()
    print(f"RESULT api={api} loop={loop_name} connections={n} heap_bytes_per_conn=-1 "
          f"rss_bytes_per_conn={(after - before) // n}", flush=True)


if __name__ == "__main__":
    n, api, loop_name = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    if loop_name == "uvloop":
        import uvloop
        uvloop.install()
    asyncio.run(main(n, api, loop_name))

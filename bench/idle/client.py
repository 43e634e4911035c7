"""Opens N idle connections to 127.0.0.1:PORT and keeps them open until it is killed (bench/idle-memory.sh)."""
import signal
import socket
import sys

n, port = int(sys.argv[1]), int(sys.argv[2])
conns = [socket.create_connection(("127.0.0.1", port)) for _ in range(n)]
print("CONNECTED", len(conns), flush=True)
signal.pause()

"""Checks one TechEmpower implementation's answers against the tests' requirements before it is
timed (a wrong answer is not a result): the six test types, their headers (Server, Date,
Content-Type, a length), the queries parameter's clamping, the fortunes page (the extra fortune,
sorted, escaped, the exact template) and that /db, /queries and /updates agree with the database.

usage: validate.py BASE_URL NAME      (the database from PGHOST, PGPORT, PGUSER, PGDATABASE; psql)
Prints one line per failed check and exits 1 if any failed; prints "NAME: valid" otherwise."""
import html
import html.parser
import http.client
import json
import os
import socket
import subprocess
import sys
import urllib.parse

ADDITIONAL = "Additional fortune added at request time."
failures = []


def fail(what):
    failures.append(what)


def psql(sql):
    out = subprocess.run(["psql", "-X", "-A", "-t", "-F", "\t", "-c", sql], check=True,
                         capture_output=True, text=True, env=os.environ).stdout
    return [line.split("\t") for line in out.splitlines() if line]


def world_table():
    return {int(i): int(n) for i, n in psql("SELECT id, randomNumber FROM World")}


def get(base, path):
    u = urllib.parse.urlsplit(base)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=10)
    conn.request("GET", path)
    r = conn.getresponse()
    body = r.read()
    conn.close()
    return r.status, {k.lower(): v for k, v in r.getheaders()}, body


def check_headers(path, status, headers, body, content_type):
    if status != 200:
        fail(f"{path}: status {status}, not 200")
    for name in ("server", "date"):
        if name not in headers:
            fail(f"{path}: no {name.capitalize()} header")
    if "content-length" not in headers and "chunked" not in headers.get("transfer-encoding", ""):
        fail(f"{path}: neither Content-Length nor chunked")
    if "content-length" in headers and int(headers["content-length"]) != len(body):
        fail(f"{path}: Content-Length {headers['content-length']} for a body of {len(body)} bytes")
    got = headers.get("content-type", "").lower().replace(" ", "")
    if not got.startswith(content_type):
        fail(f"{path}: Content-Type {headers.get('content-type')!r}, expected {content_type}")


def json_body(path, body):
    try:
        return json.loads(body.decode("utf-8"))
    except ValueError as e:
        fail(f"{path}: not JSON ({e}): {body[:80]!r}")
        return None


def check_world(path, w, worlds):
    if not (isinstance(w, dict) and set(w) == {"id", "randomNumber"}
            and isinstance(w["id"], int) and isinstance(w["randomNumber"], int)):
        fail(f"{path}: not a world object with integer id and randomNumber: {w!r}")
        return None
    if not 1 <= w["id"] <= 10000:
        fail(f"{path}: id {w['id']} out of 1..10000")
        return None
    if worlds is not None and worlds.get(w["id"]) != w["randomNumber"]:
        fail(f"{path}: world {w['id']} has randomNumber {worlds.get(w['id'])} in the database, answered {w['randomNumber']}")
    return w


def check_plaintext(base):
    status, headers, body = get(base, "/plaintext")
    check_headers("/plaintext", status, headers, body, "text/plain")
    if body != b"Hello, World!":
        fail(f"/plaintext: body {body!r}")
    # 16 requests in one write: 16 answers, in order, on the same connection
    u = urllib.parse.urlsplit(base)
    with socket.create_connection((u.hostname, u.port), timeout=10) as s:
        s.sendall(b"GET /plaintext HTTP/1.1\r\nHost: x\r\n\r\n" * 16)
        data = b""
        answers = 0
        while answers < 16:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
            answers = data.count(b"Hello, World!")
        if answers != 16 or data.count(b"HTTP/1.1 200") != 16:
            fail(f"/plaintext pipelined 16 deep: {answers} answers")


def check_json(base):
    status, headers, body = get(base, "/json")
    check_headers("/json", status, headers, body, "application/json")
    if json_body("/json", body) != {"message": "Hello, World!"}:
        fail(f"/json: body {body!r}")


def check_db(base, worlds):
    for _ in range(5):
        status, headers, body = get(base, "/db")
        check_headers("/db", status, headers, body, "application/json")
        w = json_body("/db", body)
        if w is not None:
            check_world("/db", w, worlds)


QUERIES_CASES = [("", 1), ("?queries=", 1), ("?queries=foo", 1), ("?queries=0", 1), ("?queries=1", 1),
                 ("?queries=20", 20), ("?queries=501", 500)]


def check_queries(base, worlds, path):
    for query, n in QUERIES_CASES:
        target = path + query
        status, headers, body = get(base, target)
        check_headers(target, status, headers, body, "application/json")
        ws = json_body(target, body)
        if not isinstance(ws, list) or len(ws) != n:
            fail(f"{target}: expected an array of {n}, got {body[:80]!r}")
            continue
        if path == "/updates":
            # after the update the database holds the answered numbers; an id drawn twice holds one of its two
            now = world_table()
            for w in ws:
                if check_world(target, w, None) is not None:
                    answered = {x["randomNumber"] for x in ws if isinstance(x, dict) and x.get("id") == w["id"]}
                    if now[w["id"]] not in answered:
                        fail(f"{target}: world {w['id']} holds {now[w['id']]} in the database, answered {sorted(answered)}")
            continue
        for w in ws:
            check_world(target, w, worlds)
        if path == "/queries" and n == 500 and len({w["id"] for w in ws if isinstance(w, dict)}) < 50:
            fail(f"{target}: the ids are not random")


class Page(html.parser.HTMLParser):
    """The page as a list of events: ('start', tag), ('end', tag), ('text', s), whitespace dropped."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.events = []

    def handle_decl(self, decl):
        self.events.append(("decl", decl.lower()))

    def handle_starttag(self, tag, attrs):
        self.events.append(("start", tag))

    def handle_endtag(self, tag):
        self.events.append(("end", tag))

    def handle_data(self, data):
        if data.strip():
            if self.events and self.events[-1][0] == "text":
                self.events[-1] = ("text", self.events[-1][1] + data)
            else:
                self.events.append(("text", data))


def events(text):
    p = Page()
    p.feed(text)
    p.close()
    return p.events


def check_fortunes(base):
    status, headers, body = get(base, "/fortunes")
    check_headers("/fortunes", status, headers, body, "text/html;charset=utf-8")
    text = body.decode("utf-8", errors="replace")
    rows = [(int(i), m) for i, m in psql("SELECT id, message FROM Fortune")]
    rows.append((0, ADDITIONAL))
    rows.sort(key=lambda r: r[1])
    expected = ("<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table>"
                "<tr><th>id</th><th>message</th></tr>"
                + "".join(f"<tr><td>{i}</td><td>{html.escape(m)}</td></tr>" for i, m in rows)
                + "</table></body></html>")
    got, want = events(text), events(expected)
    if got != want:
        first = next((k for k in range(min(len(got), len(want))) if got[k] != want[k]), min(len(got), len(want)))
        fail(f"/fortunes: the page differs from the template at event {first}: "
             f"got {got[first:first + 3]!r}, expected {want[first:first + 3]!r}")
    if "<script>" in text:
        fail("/fortunes: a message is not HTML-escaped (<script> in the page)")


def main():
    base, name = sys.argv[1], sys.argv[2]
    worlds = world_table()
    check_plaintext(base)
    check_json(base)
    check_db(base, worlds)
    check_queries(base, worlds, "/queries")
    check_fortunes(base)
    check_queries(base, None, "/updates")
    for f in failures:
        print(f"{name}: INVALID: {f}")
    if failures:
        sys.exit(1)
    print(f"{name}: valid")


main()

#!/usr/bin/env python3
"""A misbehaving HTTP server for openloop's hostile-target tests (127.0.0.1 only).

It listens on two ports and prints "hostile listening PORT SILENT_PORT" once both are open:
  PORT         reads each request and misbehaves as the request's path says (one behaviour per path, below);
  SILENT_PORT  accepts connections and never reads from them, never answers.
Connections stay open until the client closes them (or the server is killed), unless the behaviour closes them.
Every loop ends when the client goes away; the test's EXIT trap kills the server.
"""
import os
import socket
import sys
import tempfile
import threading
import time

OK = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
FLOOD_BYTES = 1 << 20  # 1 MiB of header lines before the end of the header section
CHUNKS = None  # a file of 16 MiB of 16 KiB chunks (endless_chunked), made at start in the temp dir


def read_request(conn, buf):
    """Reads up to the end of one request head (GETs: no body). Returns (path, rest) or (None, b"") at EOF."""
    while b"\r\n\r\n" not in buf:
        data = conn.recv(65536)
        if not data:
            return None, b""
        buf += data
    head, rest = buf.split(b"\r\n\r\n", 1)
    parts = head.split(b"\r\n", 1)[0].split(b" ")
    return (parts[1].decode("latin-1") if len(parts) > 1 else "/"), rest


def hold_until_client_closes(conn):
    """Keeps the connection open, reading and discarding, until the client closes it."""
    try:
        while conn.recv(65536):
            pass
    except OSError:
        pass


def reset(conn):
    """Half a response, then an RST (SO_LINGER 0)."""
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n" + b"x" * 10)
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
    return "close"


def garbage(conn):
    conn.sendall(b"\x16\x03\x01 this is not HTTP at all\r\n\r\n")
    return "hold"


def truncated(conn):
    """Promises 100 body bytes, sends 10, closes (FIN)."""
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n" + b"x" * 10)
    return "close"


def short_body(conn):
    """Promises 1000 body bytes, sends 10, keeps the connection open."""
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n" + b"x" * 10)
    return "hold"


def endless_chunked(conn):
    """A chunked body that never ends, sent as fast as the client reads: sendfile(2) from a file of 16 MiB of
    chunks, so the sender outpaces a reader's 64 KiB reads and the client's receive buffer never drains."""
    conn.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
    with open(CHUNKS, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        while True:
            offset = 0
            while offset < size:
                offset += os.sendfile(conn.fileno(), f.fileno(), offset, size - offset)


def make_flood():
    line = b"X-Flood-%06d: " + b"f" * 100 + b"\r\n"
    lines = [line % i for i in range(FLOOD_BYTES // len(line % 0) + 1)]
    return b"HTTP/1.1 200 OK\r\n" + b"".join(lines) + b"Content-Length: 2\r\n\r\nok"


FLOOD = make_flood()  # built once: building it per request is slow on a loaded machine


def header_flood(conn):
    """1 MiB of header lines, then a well-formed 2-byte body; keep-alive."""
    conn.sendall(FLOOD)
    return "next"


def drip(conn):
    """A well-formed response, one byte every 100 ms."""
    for b in OK:
        conn.sendall(bytes([b]))
        time.sleep(0.1)
    return "next"


def half_close(conn):
    """A body delimited by the end of the stream: the server half-closes (FIN) and still reads."""
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nok")
    conn.shutdown(socket.SHUT_WR)
    return "hold"


def half_close_silent(conn):
    """Half-closes (FIN) without answering, and still reads."""
    conn.shutdown(socket.SHUT_WR)
    return "hold"


def close(conn):
    conn.sendall(b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok")
    return "close"


def http10(conn):
    """HTTP/1.0 with a Content-Length and no keep-alive: the client must not reuse the connection (this one
    answers nothing more) nor wait for a close to end the response."""
    conn.sendall(b"HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok")
    return "hold"


def http10_close(conn):
    """HTTP/1.0 without Content-Length: the body ends when the server closes."""
    conn.sendall(b"HTTP/1.0 200 OK\r\n\r\nok")
    return "close"


def interim(conn):
    """100 Continue, then (in a later segment) 103 Early Hints and the final 200; keep-alive."""
    conn.sendall(b"HTTP/1.1 100 Continue\r\n\r\n")
    time.sleep(0.005)
    conn.sendall(b"HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n" + OK)
    return "next"


def ok(conn):
    conn.sendall(OK)
    return "next"


BEHAVIOURS = {f.__name__: f for f in (reset, garbage, truncated, short_body, endless_chunked, header_flood,
                                       drip, half_close, half_close_silent, close, http10, http10_close,
                                       interim, ok)}


def serve(conn):
    buf = b""
    try:
        while True:
            path, buf = read_request(conn, buf)
            if path is None:
                return
            behaviour = BEHAVIOURS.get(path.strip("/").split("?")[0], ok)
            then = behaviour(conn)
            if then == "close":
                return
            if then == "hold":
                hold_until_client_closes(conn)
                return
    except OSError:
        pass  # the client went away (reset, broken pipe): expected for most behaviours
    finally:
        conn.close()


def accept_loop(listener, handler):
    while True:
        conn, _ = listener.accept()
        threading.Thread(target=handler, args=(conn,), daemon=True).start()


def make_chunks():
    global CHUNKS
    f = tempfile.NamedTemporaryFile(prefix="hostile-chunks.", delete=False)
    f.write((b"4000\r\n" + b"y" * 0x4000 + b"\r\n") * 1024)
    f.close()
    CHUNKS = f.name


def main():
    make_chunks()
    listeners = []
    for _ in range(2):
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", 0))
        s.listen(1024)
        listeners.append(s)
    silent = []  # accepted and never read; kept referenced so they stay open
    threading.Thread(target=accept_loop, args=(listeners[0], serve), daemon=True).start()
    threading.Thread(target=accept_loop, args=(listeners[1], silent.append), daemon=True).start()
    print("hostile listening %d %d" % (listeners[0].getsockname()[1], listeners[1].getsockname()[1]), flush=True)
    # Ends when killed (the test's EXIT trap), or after 10 minutes whatever happens.
    time.sleep(600)


if __name__ == "__main__":
    sys.exit(main())

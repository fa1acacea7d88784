#!/usr/bin/env python3
"""A misbehaving HTTP/2 (h2c, prior knowledge) server for openloop's hostile-target tests (127.0.0.1 only).

One listener per behaviour; prints "hostile-h2 NAME PORT" for each, then "hostile-h2 ready" once all are open:
  bad_preface     answers the client's preface with bytes that are not a SETTINGS frame, then holds the connection
  rst_every       a proper SETTINGS, then RST_STREAM INTERNAL_ERROR on every stream the client opens
  refuse_every    a proper SETTINGS, then RST_STREAM REFUSED_STREAM on every stream the client opens
  goaway_at_once  SETTINGS then GOAWAY (last stream 0, NO_ERROR) before reading anything, then holds
  window_closed   SETTINGS with INITIAL_WINDOW_SIZE 0: a request body can never be sent; never answers (prints a
                  line for each stream it holds, so a test can wait for a stream to be open)
  settings_flood  SETTINGS, then before each response 10,000 more SETTINGS frames (each one the client must ack)
  oversized_headers  answers each stream with a 256 KiB header block: HEADERS and 15 CONTINUATION frames
  unknown_frame   before each response a frame of an unknown type (0xfa) on the connection and on the stream, which
                  RFC 9113 section 4.1 says the client must ignore; then a proper 200
  data_on_stream0 answers each stream with a DATA frame on stream 0 (a connection PROTOCOL_ERROR, section 6.1)
  grpc_no_trailers   a gRPC answer (200, application/grpc) with an empty message and no grpc-status at all
  grpc_bad_prefix    a gRPC answer whose message's length prefix says 16 bytes and 3 follow, then grpc-status 0
  grpc_huge_message  a gRPC answer announcing a 2 GiB message (length prefix 0x7fffffff), 1000 bytes of it, then
                     silence: the client must give up on the prefix, not wait for (or keep) the message
  grpc_status_garbage  a Trailers-Only gRPC answer whose grpc-status is "abc"
Frames are written by hand (RFC 9113 section 4.1); the only HPACK needed is a response's ":status: 200", one byte
(0x88, static table index 8), and a literal header without indexing for the oversized block (RFC 7541 section 6.2.2).
Every loop ends when the client goes away; the test's EXIT trap kills the server (or it ends after 10 minutes).
"""
import socket
import struct
import sys
import threading
import time

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
DATA, HEADERS, RST_STREAM, SETTINGS, PING, GOAWAY, CONTINUATION = 0x0, 0x1, 0x3, 0x4, 0x6, 0x7, 0x9
UNKNOWN = 0xFA
ACK = END_STREAM = 0x1
END_HEADERS = 0x4
STATUS_200 = b"\x88"
MAX_FRAME = 16384  # SETTINGS_MAX_FRAME_SIZE's initial value: what a client accepts unless it raised it
BIG_HEADER = 256 * 1024  # oversized_headers' header value: past nghttp2's 64 KiB bound on one header field
NO_ERROR, INTERNAL_ERROR, REFUSED_STREAM = 0x0, 0x2, 0x7
INITIAL_WINDOW_SIZE = 0x4


def frame(kind, flags, stream, payload=b""):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload


def read_exact(conn, n, buf):
    """Returns (n bytes, rest) or (None, b"") at EOF."""
    while len(buf) < n:
        data = conn.recv(65536)
        if not data:
            return None, b""
        buf += data
    return buf[:n], buf[n:]


def frames(conn):
    """Yields (type, flags, stream) of each frame the client sends after its preface, until it goes away."""
    preface, buf = read_exact(conn, len(PREFACE), b"")
    if preface is None:
        return
    while True:
        head, buf = read_exact(conn, 9, buf)
        if head is None:
            return
        length = struct.unpack(">I", b"\0" + head[:3])[0]
        _, buf = read_exact(conn, length, buf)
        if _ is None:
            return
        yield head[3], head[4], struct.unpack(">I", head[5:9])[0] & 0x7FFFFFFF


def serve_frames(conn, on_headers):
    """Acks the client's SETTINGS and PINGs; calls on_headers(stream) for each HEADERS frame."""
    for kind, flags, stream in frames(conn):
        if kind == SETTINGS and not flags & ACK:
            conn.sendall(frame(SETTINGS, ACK, 0))
        elif kind == PING and not flags & ACK:
            conn.sendall(frame(PING, ACK, 0, b"\0" * 8))
        elif kind == HEADERS and on_headers is not None:
            on_headers(stream)


def bad_preface(conn):
    conn.sendall(b"\x00\x00\x08\x06\x00\x00\x00\x00\x00 not an HTTP/2 SETTINGS frame at all\r\n")
    serve_frames(conn, None)


def rst_every(conn):
    conn.sendall(frame(SETTINGS, 0, 0))
    serve_frames(conn, lambda s: conn.sendall(frame(RST_STREAM, 0, s, struct.pack(">I", INTERNAL_ERROR))))


def refuse_every(conn):
    conn.sendall(frame(SETTINGS, 0, 0))
    serve_frames(conn, lambda s: conn.sendall(frame(RST_STREAM, 0, s, struct.pack(">I", REFUSED_STREAM))))


def goaway_at_once(conn):
    conn.sendall(frame(SETTINGS, 0, 0) + frame(GOAWAY, 0, 0, struct.pack(">II", 0, NO_ERROR)))
    serve_frames(conn, None)


def window_closed(conn):
    conn.sendall(frame(SETTINGS, 0, 0, struct.pack(">HI", INITIAL_WINDOW_SIZE, 0)))
    serve_frames(conn, lambda s: print("hostile-h2 window_closed holds stream %d" % s, flush=True))


def respond_200(conn, stream, before=b""):
    conn.sendall(before + frame(HEADERS, END_STREAM | END_HEADERS, stream, STATUS_200))


def settings_flood(conn):
    conn.sendall(frame(SETTINGS, 0, 0))
    flood = frame(SETTINGS, 0, 0) * 10000
    serve_frames(conn, lambda s: respond_200(conn, s, flood))


def hpack_int(value, prefix_bits, first_byte=0):
    """An HPACK integer (RFC 7541 section 5.1) with a prefix of prefix_bits bits, or'ed into first_byte."""
    limit = (1 << prefix_bits) - 1
    if value < limit:
        return bytes([first_byte | value])
    out, value = [first_byte | limit], value - limit
    while value >= 128:
        out.append(value % 128 + 128)
        value //= 128
    return bytes(out + [value])


def oversized_headers(conn):
    conn.sendall(frame(SETTINGS, 0, 0))
    value = b"x" * BIG_HEADER
    block = STATUS_200 + b"\x00" + hpack_int(5, 7) + b"x-big" + hpack_int(len(value), 7) + value
    chunks = [block[i:i + MAX_FRAME] for i in range(0, len(block), MAX_FRAME)]

    def answer(stream):
        out = b""
        for i, chunk in enumerate(chunks):
            last = END_HEADERS if i == len(chunks) - 1 else 0
            out += frame(CONTINUATION, last, stream, chunk) if i else frame(HEADERS, END_STREAM | last, stream, chunk)
        conn.sendall(out)

    serve_frames(conn, answer)


def unknown_frame(conn):
    conn.sendall(frame(SETTINGS, 0, 0))
    serve_frames(conn, lambda s: respond_200(conn, s, frame(UNKNOWN, 0xFF, 0, b"?" * 8) + frame(UNKNOWN, 0, s, b"!")))


def data_on_stream0(conn):
    conn.sendall(frame(SETTINGS, 0, 0))
    serve_frames(conn, lambda s: conn.sendall(frame(DATA, 0, 0, b"hello")))


def literal(name, value):
    """A header as an HPACK literal without indexing, its name a literal too (RFC 7541 section 6.2.2)."""
    return b"\x00" + hpack_int(len(name), 7) + name + hpack_int(len(value), 7) + value


GRPC_HEAD = STATUS_200 + literal(b"content-type", b"application/grpc")


def grpc_answer(frames_of):
    """A behaviour answering each stream with the frames frames_of(stream) gives."""
    def behaviour(conn):
        conn.sendall(frame(SETTINGS, 0, 0))
        serve_frames(conn, lambda s: conn.sendall(frames_of(s)))
    return behaviour


grpc_no_trailers = grpc_answer(lambda s: frame(HEADERS, END_HEADERS, s, GRPC_HEAD) +
                               frame(DATA, END_STREAM, s, b"\0\0\0\0\0"))
grpc_bad_prefix = grpc_answer(lambda s: frame(HEADERS, END_HEADERS, s, GRPC_HEAD) +
                              frame(DATA, 0, s, b"\0\0\0\0\x10abc") +
                              frame(HEADERS, END_STREAM | END_HEADERS, s, literal(b"grpc-status", b"0")))
grpc_huge_message = grpc_answer(lambda s: frame(HEADERS, END_HEADERS, s, GRPC_HEAD) +
                                frame(DATA, 0, s, b"\0\x7f\xff\xff\xff" + b"x" * 1000))
grpc_status_garbage = grpc_answer(lambda s: frame(HEADERS, END_STREAM | END_HEADERS, s,
                                                  GRPC_HEAD + literal(b"grpc-status", b"abc")))
for name in ("grpc_no_trailers", "grpc_bad_prefix", "grpc_huge_message", "grpc_status_garbage"):
    globals()[name].__name__ = name

BEHAVIOURS = [bad_preface, rst_every, refuse_every, goaway_at_once, window_closed, settings_flood, oversized_headers,
              unknown_frame, data_on_stream0, grpc_no_trailers, grpc_bad_prefix, grpc_huge_message, grpc_status_garbage]


def handle(conn, behaviour):
    try:
        behaviour(conn)
    except OSError:
        pass  # the client went away: expected
    finally:
        conn.close()


def accept_loop(listener, behaviour):
    while True:
        conn, _ = listener.accept()
        threading.Thread(target=handle, args=(conn, behaviour), daemon=True).start()


def main():
    for behaviour in BEHAVIOURS:
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", 0))
        s.listen(1024)
        threading.Thread(target=accept_loop, args=(s, behaviour), daemon=True).start()
        print("hostile-h2 %s %d" % (behaviour.__name__, s.getsockname()[1]), flush=True)
    print("hostile-h2 ready", flush=True)
    time.sleep(600)


if __name__ == "__main__":
    sys.exit(main())

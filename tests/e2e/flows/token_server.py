# A tiny HTTP/1.1 server for the flows e2e test (127.0.0.1 only): POST /login answers {"token": "tok-N", "ok":
# true} (a new token each time) with a Set-Cookie; GET /me answers 200 {"hello": ...} only to
# "Authorization: Bearer tok-N" with a token it issued and not seen before on /me (else 401); GET /stats answers its
# counts as JSON. Usage: python3 token_server.py PORT
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

lock = threading.Lock()
state = {"logins": 0, "me_ok": 0, "me_bad": 0, "me_reused": 0}
issued = set()
used = set()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, body, headers=()):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        if length:
            self.rfile.read(length)
        if self.path != "/login":
            return self.reply(404, {"error": "no such path"})
        with lock:
            state["logins"] += 1
            token = "tok-%d" % state["logins"]
            issued.add(token)
        self.reply(200, {"ok": True, "token": token, "user": {"id": state["logins"]}},
                   [("Set-Cookie", "sid=s-%s; Path=/; HttpOnly" % token)])

    def do_GET(self):
        if self.path == "/stats":
            with lock:
                return self.reply(200, dict(state))
        if self.path != "/me":
            return self.reply(404, {"error": "no such path"})
        auth = self.headers.get("Authorization", "")
        token = auth[len("Bearer "):] if auth.startswith("Bearer ") else ""
        with lock:
            if token not in issued:
                state["me_bad"] += 1
                return self.reply(401, {"error": "bad token"})
            if token in used:
                state["me_reused"] += 1
            used.add(token)
            state["me_ok"] += 1
        self.reply(200, {"hello": token})


ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()

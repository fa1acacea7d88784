"""A tiny HTTP/1.1 server for end-to-end tests: answers 200 "ok" to every request and appends what it received
(method, path, headers, body) to a JSON-lines file, so a test can check what openloop sent.
Usage: capture_server.py LOG_FILE   (prints the port it listens on, on 127.0.0.1, then serves until killed)."""
import http.server
import json
import sys

LOG = open(sys.argv[1], "a", buffering=1)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
        LOG.write(json.dumps({"method": self.command, "path": self.path,
                              "headers": {k.lower(): v for k, v in self.headers.items()}, "body": body}) + "\n")
        self.send_response(200)
        self.send_header("Content-Length", "3")
        self.end_headers()
        self.wfile.write(b"ok\n")

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = answer

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()

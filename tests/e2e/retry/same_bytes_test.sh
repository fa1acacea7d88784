# A retry resends the same request: with templated keys (sequence: one key per logical request) a server that fails
# the first request for each key and serves the second sees every retry carry its first attempt's key; each attempt
# carries its own X-Deadline, none twice.
# e2e: light (the bytes each retry carried at 50/s)
source "$OPENLOOP_E2E_LIB"
source "$(dirname "$0")/retry_lib.sh"
port=$(free_port)
python3 - "$port" "$E2E_TMP/server.log" <<'PY' &
import http.server, sys, threading
seen, lock = set(), threading.Lock()
log = open(sys.argv[2], "w", buffering=1)
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_GET(self):
        deadlines = self.headers.get_all("X-Deadline") or []
        with lock:
            first = self.path not in seen
            seen.add(self.path)
            log.write(f"{self.path} {','.join(deadlines)}\n")
        status = 500 if first else 200
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()
    def log_message(self, *a): pass
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
PY
E2E_PIDS+=($!)
wait_port "$port"
cat >"$E2E_TMP/plan.yaml" <<YAML
target: http://127.0.0.1:$port
variables:
  id: sequence(1)
requests:
  get: GET /item/{{id}}
scenarios:
  once:
    model: open
    rate: 50/s
    duration: 2s
    request: get
YAML
code=0
"$OPENLOOP" run "$E2E_TMP/plan.yaml" --threads 2 --retry-attempts 2 --retry-on 5xx --send-deadline X-Deadline \
  --json "$E2E_TMP/r.json" >"$E2E_TMP/out.txt" 2>&1 || code=$?
r=$E2E_TMP/r.json
accept_invalid_only_for "$code" "$r" '^(once: )?send lateness'  # the generator's own, on a busy box
assert_conserved "$r"
summary=$(jq -c .summary.counts "$r")
echo "counts: $summary"
assert_cmp "$(jq .intended <<<"$summary")" == 100 "100 logical requests"
assert_cmp "$(jq .ok <<<"$summary")" == 100 "every retry resent its own key (a new key would fail again)"
assert_cmp "$(jq .retries <<<"$summary")" == 100 "one retry each"
assert_cmp "$(wc -l <"$E2E_TMP/server.log")" == 200 "the server saw 200 requests"
assert_cmp "$(cut -d' ' -f1 "$E2E_TMP/server.log" | sort | uniq -c | awk '$1 != 2' | wc -l)" == 0 "each key exactly twice"
assert_cmp "$(awk '$2 == "" || $2 ~ /,/' "$E2E_TMP/server.log" | wc -l)" == 0 "each attempt carries exactly one X-Deadline"
assert_cmp "$(awk '{print $2}' "$E2E_TMP/server.log" | sort -n | tail -1)" "<=" 5000 "the remaining deadline, in ms"
pass "retries resend the same templated request with a fresh deadline header"

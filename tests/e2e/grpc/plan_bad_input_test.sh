#!/usr/bin/env bash
# e2e: parallel-safe (refusals before anything is sent; no timing judged)
# Bad gRPC calls in plan files: `openloop validate` and `openloop run` exit 2 before anything is sent, naming the
# plan file, the request and its scenario: an unknown method (listing those there are), a streaming method, a
# message that does not fit (its field), reserved or non-base64 metadata, HTTP/1.1 asked for, no reflection at
# the target. validate describes a good plan's calls.
source "$OPENLOOP_E2E_LIB"
source "$(dirname "$0")/grpc_server.sh"
grpc_require

port=$(free_port)  # nothing listens there: any attempt to send would fail otherwise than exit 2
# plan NAME REQUEST [TOP]: a plan file with the request `lookup` (REQUEST, YAML) beside `page`, both steps of
# one sessions scenario `mixed`, its schema bench.proto unless TOP says otherwise.
plan() {
  local top=${3:-"defaults: {grpc: {proto: $GRPC_PROTOS/bench.proto, import_paths: [$GRPC_PROTOS]}}"}
  printf 'target: grpc://127.0.0.1:%s\n%s\nrequests:\n  page: GET /page\n  lookup: %s\nscenarios:\n  mixed: {model: sessions, session_rate: 10/s, duration: 1s, steps: [page, lookup]}\n' \
    "$port" "$top" "$2" >"$E2E_TMP/$1.yaml"
}
# refused NAME MESSAGE: validate and run both exit 2 with MESSAGE, naming the file.
refused() {
  local f=$E2E_TMP/$1.yaml command code
  for command in validate run; do
    code=0
    "$OPENLOOP" "$command" "$f" >"$E2E_TMP/out.txt" 2>&1 || code=$?
    [[ $code == 2 ]] || fail "$command $1: exit $code, expected 2: $(cat "$E2E_TMP/out.txt")"
    grep -qF -- "$f:" "$E2E_TMP/out.txt" || fail "$command $1 does not name the file: $(cat "$E2E_TMP/out.txt")"
    grep -qF -- "$2" "$E2E_TMP/out.txt" || fail "$command $1 lacks '$2': $(cat "$E2E_TMP/out.txt")"
  done
}

plan unknown '{call: openloop.test.v1.Bench/Nope}'
refused unknown 'requests.lookup (scenario mixed): call openloop.test.v1.Bench/Nope: service openloop.test.v1.Bench has no method Nope; its methods: Call, Watch'
plan service '{call: openloop.test.v1.Nope/Call}'
refused service 'no service openloop.test.v1.Nope in the schema; its services: openloop.test.v1.Bench'
plan streaming '{call: openloop.test.v1.Bench/Watch}'
refused streaming 'unary methods only'
plan unfit '{call: openloop.test.v1.Bench/Call, message: {key: {nope: 1}}}'
refused unfit 'requests.lookup (scenario mixed): message'
grep -qF 'nope' "$E2E_TMP/out.txt" || fail "the unfit message's field is not named: $(cat "$E2E_TMP/out.txt")"
plan unfit_template '{call: openloop.test.v1.Bench/Call, message: {size: "x{{uniform(1, 9)}}"}}'
refused unfit_template 'message (each {{...}} as 0)'
plan reserved '{call: openloop.test.v1.Bench/Call, metadata: {te: gzip}}'
refused reserved 'requests.lookup.metadata.te: te is reserved by gRPC'
plan binary '{call: openloop.test.v1.Bench/Call, metadata: {k-bin: "no!"}}'
refused binary 'k-bin is binary metadata (a key ending in -bin), whose value is base64'
plan h1 '{call: openloop.test.v1.Bench/Call}' \
  "defaults: {protocol: h1, grpc: {proto: $GRPC_PROTOS/bench.proto, import_paths: [$GRPC_PROTOS]}}"
refused h1 'requests.lookup is a gRPC call, which needs HTTP/2; scenario "mixed" is asked for HTTP/1.1 (defaults.protocol: h1)'
plan noproto '{call: openloop.test.v1.Bench/Call}' "defaults: {grpc: {proto: nope.proto}}"
refused noproto 'defaults.grpc: proto'
plan reflection '{call: openloop.test.v1.Bench/Call}' "seed: 1"
refused reflection 'requests.lookup (scenario mixed): '
grep -qF 'pass --proto FILE or --protoset FILE' "$E2E_TMP/out.txt" || fail "no reflection: $(cat "$E2E_TMP/out.txt")"
pass "each bad call refused by validate and run with exit 2, naming the file, the request and its scenario"

plan good '{call: openloop.test.v1.Bench.Call, message: {key: {id: "u{{sequence(1)}}"}}, metadata: {x-user: ada}}'
"$OPENLOOP" validate "$E2E_TMP/good.yaml" >"$E2E_TMP/out.txt" 2>&1 || fail "validate good: $(cat "$E2E_TMP/out.txt")"
for want in "gRPC: schema from proto $GRPC_PROTOS/bench.proto" \
  'lookup: call openloop.test.v1.Bench/Call (scenario mixed), message {"key":{"id":"u{{sequence(1)}}"}} (rendered and encoded per call)' \
  "good.yaml: valid"; do
  grep -qF -- "$want" "$E2E_TMP/out.txt" || fail "validate lacks '$want': $(cat "$E2E_TMP/out.txt")"
done
pass "validate describes a call: its method, its schema's source and its message"

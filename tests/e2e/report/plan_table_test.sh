# What the user set, in their words: the HTML plan table leaves out defaults and internals (one attempt, no
# coalescing, the report interval, a seed a constant schedule never draws) and shows a constant rate as a rate, not a
# stage list; a slow rate (500/h) reads with the same precision in the model line and the rates line.
# e2e: parallel-safe (the plan table and wording)
source "$OPENLOOP_E2E_LIB"
port=$(free_port)
start_nginx "$port"
cd "$E2E_TMP"
url="http://127.0.0.1:$port/"
run() { "$OPENLOOP" run "$url" -d 1s --threads 1 -q "$@" >out.txt 2>&1 || [[ $? == 3 ]] || fail "run $*: $(cat out.txt)"; }
row() { grep -q "<tr><th>$1</th><td>$2</td></tr>" "$3" || fail "$3: no row '$1 | $2': $(grep -o '<tr><th>[^/]*</th><td>[^<]*</td></tr>' "$3" | head -30)"; }
no_row() { ! grep -q "<tr><th>$1</th>" "$2" || fail "$2 shows the internal row '$1'"; }

run --rate 100/s --json a.json
row Rate '100.0/s (constant)' a.html
for internal in 'Rate stages' Retries 'Coalesce us' Interval 'Spin below us' Seed 'Body bytes' Insecure Requests; do
  no_row "$internal" a.html
done
pass "a constant run's plan table shows the rate and no internals"

run --stages 1s:100/s --retry-attempts 3 --arrival poisson --json b.json
row 'Rate stages' '1s → 100.0/s' b.html
no_row Rate b.html
grep -q '<tr><th>Retries</th><td>3 attempts, ' b.html || fail "b.html: retries not in words"
row Seed 1 b.html
pass "stages, retries and a Poisson seed shown when set"

run --rate 500/h
grep -qE '^model: OPEN \(constant arrivals at 0\.139/s \(500/h\) planned\)' out.txt || fail "model line: $(grep '^model' out.txt)"
grep -qE '^rates \(per second\) +offered [0-9]\.[0-9]{3} +sent [0-9]\.[0-9]{3} ' out.txt || fail "rates line: $(grep '^rates' out.txt)"
pass "500/h: planned and offered with the same precision"

# Output files: --json implies the HTML report beside it (results.json -> results.html), --no-html skips it, --html
# names it; --report-dir DIR writes results.json, results.hlog and report.html together.
# e2e: parallel-safe (files written)
source "$OPENLOOP_E2E_LIB"
port=$(free_port)
start_nginx "$port"
cd "$E2E_TMP"
run() { "$OPENLOOP" run "http://127.0.0.1:$port/" --rate 20/s -d 1s --threads 1 -q "$@" >out.txt 2>&1 || [[ $? == 3 ]] || fail "run $*: $(cat out.txt)"; }

run --json a.json
[[ -s a.json && -s a.html ]] || fail "--json a.json did not write a.html: $(ls)"
grep -q '<html' a.html || fail "a.html is not an HTML page"
run --json b.json --no-html
[[ -s b.json && ! -e b.html ]] || fail "--no-html still wrote b.html"
run --json c.json --html other.html
[[ -s c.json && -s other.html && ! -e c.html ]] || fail "--html other.html: $(ls)"
run --json noext
[[ -s noext && -s noext.html ]] || fail "--json noext: the report goes to noext.html: $(ls)"
pass "--json implies --html beside it; --no-html and --html override"

run --report-dir rep
for f in results.json results.hlog report.html; do [[ -s rep/$f ]] || fail "--report-dir: rep/$f missing: $(ls rep)"; done
[[ $(json rep/results.json .schema) == openloop.results/1 ]] || fail "rep/results.json schema"
run --report-dir rep3/  # a trailing slash names the same directory
for f in results.json results.hlog report.html; do [[ -s rep3/$f ]] || fail "--report-dir rep3/: rep3/$f missing"; done
run --report-dir rep2 --no-html
[[ -s rep2/results.json && ! -e rep2/report.html ]] || fail "--report-dir with --no-html: $(ls rep2)"
pass "--report-dir writes json, hlog and html together"

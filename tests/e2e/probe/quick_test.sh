# probe metastable --quick: every phase short (warm-up 2 s, baseline 4 s, trigger 3 s, observe 10 s, window 2 s),
# and a lab stall that begins when the trigger phase does, not before: the baseline's last requests are not frozen,
# so a stall against a lab with spare capacity recovers from a steady baseline. The trigger and the engine once
# counted phases from different starts (the engine's ~60 ms of calibrations apart), so a stall reached the end of
# a short baseline and made it unsteady: the probe said INCONCLUSIVE. The probe here observes for 4 s, not 10
# (--observe-for beside --quick wins, which it checks too): the stall's effect on the baseline is before the observe
# phase, and --quick's own 10 s is named by the refusal of a longer --window below.
source "${OPENLOOP_E2E_LIB:-$(dirname "$0")/../lib.sh}"
start_lab --workers 4 --service 2ms
cd "$E2E_TMP"

# INCONCLUSIVE for the generator's lateness alone is accepted below when the verdict behind it is RECOVERED: a first
# try that says so is kept (probe_metastable), not made again for another accepted outcome (each retry 9-13 s; on
# the quiet host of stop 47 and at load 3 here, both probes were retried every time).
export PROBE_ACCEPTED_WOULD_READ='^RECOVERED '
started=$(date +%s)
code=0
probe_metastable "$LAB_URL/" --base 200/s --trigger stall --quick --observe-for 4s --timeout 5s --threads 1 \
  --json p.json -q || code=$?
cat p.txt
took=$(($(date +%s) - started))
# RECOVERED (exit 0); or, on a machine too loaded for the generator to send on time, INCONCLUSIVE (exit 3) for that
# reason alone, as in lab_triggers_test.sh (from a first try only with RECOVERED behind it; a second try's, as
# before, whatever it would read). Never for an unsteady baseline: that is what the stall once caused.
generator_only() { [[ $1 == 3 ]] && grep -q "the generator's send lateness could have decided the verdict" p.txt; }
[[ $code == 0 ]] || generator_only "$code" || fail "--quick stall probe exit $code (expected 0, RECOVERED): $(cat p.err)"
[[ $(json p.json '.runs[0].baseline.steady') == true ]] || fail "the baseline should be steady"
! grep -q 'baseline was not steady' p.txt || fail "INCONCLUSIVE for the baseline"
for want in 'warmup_s 2' 'baseline_for_s 4' 'trigger_for_s 3' 'observe_for_s 4' 'window_s 2'; do
  [[ $(json p.json ".probe.${want% *}") == "${want#* }" ]] || fail "--quick: ${want% *} $(json p.json ".probe.${want% *}")"
done
# A RECOVERED probe stops early at the base load only with --descend; here it runs every phase: 13 s, and two
# runs at most (probe_metastable retries once on a loaded machine).
[[ $took -le 60 ]] || fail "--quick took ${took}s"
pass "--quick (observing 4 s), stall 3 s: $(json p.json .verdict) from a steady baseline in ${took}s"

# A phase flag given beside --quick wins; a layout that does not fit is refused naming both lengths.
code=0
"$OPENLOOP" probe metastable "$LAB_URL/" --base 200/s --trigger stall --quick --window 12s >out.txt 2>&1 || code=$?
[[ $code == 2 ]] || fail "--quick --window 12s: exit $code, expected 2: $(cat out.txt)"
grep -qF -- "--window: 12s is longer than --observe-for 10s" out.txt || fail "the refusal: $(cat out.txt)"
pass "--quick with a --window longer than its observe phase: refused, both lengths named"

# The lengths the issue reported by hand (baseline 2 s, a 2-s stall): the stall no longer reaches the baseline.
code=0
probe_metastable "$LAB_URL/" --base 200/s --trigger stall:2s --baseline-for 2s --observe-for 4s --window 2s \
  --warmup 1s --timeout 5s --threads 1 --json p2.json -q || code=$?
cat p.txt
[[ $(json p2.json '.runs[0].baseline.steady') == true ]] || fail "baseline 2 s before a 2-s stall: not steady: $(cat p.txt)"
[[ $code == 0 ]] || generator_only "$code" || fail "baseline 2 s, stall 2 s: exit $code: $(cat p.err)"
pass "baseline 2 s, stall:2s: $(json p2.json .verdict), steady baseline"

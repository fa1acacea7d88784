# deploy/: the Kubernetes kustomization renders (kubectl kustomize), its objects are valid against the Kubernetes
# API schema (npm kubernetes-models: unknown kinds, wrong types and enum values are refused) and hold what the
# shards need (Indexed Job, the shard count where openloop reads it, exit 75 failing the Job, the results volume);
# the pdsh, Slurm and GNU parallel scripts parse. Offline: no cluster is contacted.
# e2e: parallel-safe (no timing judged: see tests/e2e/CMakeLists.txt)
source "$OPENLOOP_E2E_LIB"
require_tools kubectl node python3
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
[[ -d $root/node_modules/kubernetes-models ]] || { echo "skip: npm ci not run (kubernetes-models)"; exit 77; }
python3 -c 'import yaml' 2>/dev/null || { echo "skip: python3-yaml missing"; exit 77; }

kubectl kustomize "$root/deploy/kubernetes" >"$E2E_TMP/rendered.yaml" || fail "kubectl kustomize did not render"
python3 -c 'import sys, yaml, json; print(json.dumps(list(yaml.safe_load_all(open(sys.argv[1])))))' \
  "$E2E_TMP/rendered.yaml" >"$E2E_TMP/objects.json"
node "$root/tests/e2e/deploy/validate_k8s.mjs" <"$E2E_TMP/objects.json" || fail "objects invalid against the schema"
pass "kustomization renders; objects valid against the Kubernetes schema"

# The validator refuses what it should (so it is not a test that cannot fail).
jq '(.[] | select(.kind == "Job") | .spec.podFailurePolicy.rules[0].onExitCodes.operator) = "Equals"' \
  "$E2E_TMP/objects.json" | node "$root/tests/e2e/deploy/validate_k8s.mjs" >/dev/null &&
  fail "the validator accepted an unknown podFailurePolicy operator"

python3 - "$E2E_TMP/objects.json" <<'PY' || fail "the Job does not hold what shards need"
import json, sys
objs = json.load(open(sys.argv[1]))
job = next(o for o in objs if o["kind"] == "Job")
pvc = next(o for o in objs if o["kind"] == "PersistentVolumeClaim")
spec, pod = job["spec"], job["spec"]["template"]["spec"]
def need(cond, what):
    if not cond:
        sys.exit(f"Job: {what}")
need(spec.get("completionMode") == "Indexed", "completionMode Indexed (JOB_COMPLETION_INDEX is the shard)")
c = next(c for c in pod["containers"] if c["name"] == "openloop")
env = {e["name"]: e.get("value") for e in c["env"]}
need(spec["completions"] == spec["parallelism"] == int(env["OPENLOOP_SHARD_COUNT"]),
     "completions = parallelism = OPENLOOP_SHARD_COUNT")
need(pod["restartPolicy"] == "Never", "restartPolicy Never (podFailurePolicy needs it)")
need(spec.get("backoffLimit") == 0, "backoffLimit 0 (a retried shard starts late)")
rules = spec["podFailurePolicy"]["rules"]
need(any(r["action"] == "FailJob" and r["onExitCodes"]["operator"] == "In" and 75 in r["onExitCodes"]["values"]
         and r["onExitCodes"].get("containerName") == "openloop" for r in rules), "FailJob on exit 75")
script = " ".join(c.get("command", []) + c.get("args", []))
for word in ("--start-at", "JOB_COMPLETION_INDEX", "--json"):
    need(word in script, f"the command uses {word}")
vol = next(v for v in pod["volumes"] if v["name"] == "results")
need(vol["persistentVolumeClaim"]["claimName"] == pvc["metadata"]["name"], "the results volume is the PVC")
need(any(m["name"] == "results" for m in c["volumeMounts"]), "results mounted")
need(len({o["metadata"].get("namespace") for o in objs if o["kind"] != "Namespace"}) == 1, "one namespace")
PY
pass "Indexed Job: shard count, exit 75 fails the Job, results volume"

# The Job's shell line maps exit codes as documented: 0, 1 and 3 succeed (results written), 75 fails.
line=$(jq -r '.[] | select(.kind == "Job") | .spec.template.spec.containers[0].args[0]' "$E2E_TMP/objects.json")
mkdir -p "$E2E_TMP/bin" "$E2E_TMP/results"
for code in 0 1 3 4 75; do
  printf '#!/bin/sh\nexit %s\n' "$code" >"$E2E_TMP/bin/openloop" && chmod +x "$E2E_TMP/bin/openloop"
  set +e
  PATH="$E2E_TMP/bin:$PATH" JOB_COMPLETION_INDEX=2 sh -c "${line//\/results/$E2E_TMP/results}"
  got=$?
  set -e
  case $code in 0 | 1 | 3) want=0 ;; *) want=$code ;; esac
  [[ $got == "$want" ]] || fail "openloop exit $code: the pod exits $got, expected $want"
  [[ $(cat "$E2E_TMP/results/shard-2.exit") == "$code" ]] || fail "exit code $code not recorded"
done
pass "pod exit codes: 0/1/3 succeed, 4 and 75 fail"

for script in "$root/deploy/pdsh/openloop-shards" "$root/deploy/slurm/openloop.sbatch" \
  "$root/deploy/parallel/openloop-parallel.sh"; do
  bash -n "$script" || fail "$script does not parse"
done
grep -q '^#SBATCH --ntasks=' "$root/deploy/slurm/openloop.sbatch" || fail "sbatch file has no task count"
pass "pdsh, Slurm and GNU parallel scripts parse"

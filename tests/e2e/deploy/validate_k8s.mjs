// Validates Kubernetes objects (a JSON array on standard input) against the Kubernetes API schema with the
// kubernetes-models package (npm; its JSON schemas, checked by ajv). Prints one line per object; exit 1 when any
// object is invalid or of a kind it does not know.
import { readFileSync } from "node:fs";

const objects = JSON.parse(readFileSync(0, "utf8"));
const modules = {
  "v1/Namespace": ["kubernetes-models/v1", "Namespace"],
  "v1/PersistentVolumeClaim": ["kubernetes-models/v1", "PersistentVolumeClaim"],
  "batch/v1/Job": ["kubernetes-models/batch/v1", "Job"],
};
let failed = 0;
for (const o of objects) {
  const key = `${o.apiVersion}/${o.kind}`;
  if (!modules[key]) {
    console.log(`UNKNOWN ${key} ${o.metadata?.name}: no schema here; add it to validate_k8s.mjs`);
    failed++;
    continue;
  }
  const [path, name] = modules[key];
  const Model = (await import(path))[name];
  try {
    new Model(o).validate();
    console.log(`valid ${key} ${o.metadata.name}`);
  } catch (e) {
    console.log(`INVALID ${key} ${o.metadata?.name}: ${e.message}`);
    failed++;
  }
}
process.exit(failed ? 1 : 0);

// The verdict of check-suite.sh: glTF-Validator's reports (validate.mjs's array) of the
// shipped suite hold no error, except a member a draft the asset uses replaces (check-suite.sh says
// which). Exit 0 when so, 1 otherwise, each error printed.
import fs from "node:fs";
const reports = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const replaces = { KHR_animation2: "target", EXT_animation_sqlerp: "sampler" };
let errors = 0;
let drafts = 0;
for (const r of reports) {
  const file = decodeURIComponent(r.uri);
  const used = file.endsWith(".gltf") ? JSON.parse(fs.readFileSync(file, "utf8")).extensionsUsed ?? [] : [];
  for (const m of r.issues.messages) {
    if (m.severity !== 0) continue;
    const byDraft = m.code === "UNDEFINED_PROPERTY" && /^\/animations\/\d+\/channels\/\d+$/.test(m.pointer) &&
      used.some((e) => m.message === `Property '${replaces[e]}' must be defined.`);
    if (byDraft) { ++drafts; continue; }
    ++errors;
    console.error(`FAIL: ${decodeURIComponent(r.uri)}: ${m.code} at ${m.pointer}: ${m.message}`);
  }
}
if (reports.length < 80) { console.error(`FAIL: only ${reports.length} assets validated`); process.exit(1); }
console.log(`${reports.length} assets of the suite: ${errors} error(s) from glTF-Validator ` +
  `(and ${drafts} channel member(s) a draft replaces)`);
process.exit(errors === 0 ? 0 : 1);

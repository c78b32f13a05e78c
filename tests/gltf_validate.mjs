// unearth tests — runs the Khronos glTF validator (npm gltf-validator, pinned in package.json)
// over the files given: prints every issue, exits 1 on any error or non-allowed warning.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const validator = require('gltf-validator');

// Warnings we accept, each with its reason; docs/gltf-output.md keeps this list. Empty today:
// every warning the validator reports on our output is a bug.
const ALLOWED_WARNINGS = new Set([]);

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node gltf_validate.mjs FILE.glb|FILE.gltf...');
  process.exit(2);
}

let failed = false;
for (const file of files) {
  const data = await readFile(file);
  const report = await validator.validateBytes(new Uint8Array(data), {
    uri: path.basename(file),
    maxIssues: 0,
    writeTimestamp: false,
    externalResourceFunction: (uri) =>
      readFile(path.resolve(path.dirname(file), decodeURIComponent(uri))).then(
        (buf) => new Uint8Array(buf)),
  });
  const issues = report.issues;
  let bad = 0;
  for (const m of issues.messages) {
    const sev = ['error', 'warning', 'info', 'hint'][m.severity] ?? String(m.severity);
    const fatal = m.severity === 0 || (m.severity === 1 && !ALLOWED_WARNINGS.has(m.code));
    if (fatal) bad++;
    if (m.severity <= 1 || process.env.UE_VALIDATE_VERBOSE)
      console.log(`${file}: ${sev} ${m.code} ${m.pointer ?? ''} ${m.message}`);
  }
  console.log(`${file}: ${issues.numErrors} errors, ${issues.numWarnings} warnings, ` +
              `${issues.numInfos} infos, ${issues.numHints} hints` +
              (report.info?.resources ? `, ${report.info.resources.length} resources` : ''));
  if (bad) failed = true;
}
process.exit(failed ? 1 : 0);

// Checks unearth's --json output against the schemas in docs/schema (used by cli_verdict.sh).
// Usage: node json_schema_check.mjs SCHEMA.json FILE.json...  (exit 1 naming the first failure)
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import Ajv from "ajv";

const [schemaPath, ...files] = process.argv.slice(2);
const ajv = new Ajv({ allErrors: true, strict: false });
// Every schema in the directory, so that $ref between them resolves.
const dir = dirname(schemaPath);
for (const name of ["diagnostic", "error", "info", "list", "validate", "batch"])
  ajv.addSchema(JSON.parse(readFileSync(join(dir, `${name}.schema.json`), "utf8")), `${name}.schema.json`);
const validate = ajv.getSchema(schemaPath.split("/").pop());
let failed = 0;
for (const file of files) {
  const data = JSON.parse(readFileSync(file, "utf8"));
  if (!validate(data)) {
    failed++;
    console.error(`${file}: ${ajv.errorsText(validate.errors)}`);
  }
}
process.exit(failed ? 1 : 0);

/** `npm run bench`: runs every speed benchmark in test/perf/ (files named *.perf.ts) one after another and prints its figures. */
import { readdirSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import path from "node:path";

const directory = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(directory)
  .filter((file) => file.endsWith(".perf.ts"))
  .filter((file) => only.length === 0 || only.some((name) => file.includes(name)))
  .sort();
let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file} ===`);
  const result = spawnSync(process.execPath, ["--import", "tsx", path.join(directory, file)], { stdio: "inherit" });
  if (result.status !== 0) failed += 1;
}
process.exit(failed === 0 ? 0 : 1);

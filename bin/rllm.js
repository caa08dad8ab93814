#!/usr/bin/env node
// The rllm command. It runs the build, dist/, wherever that build is fresh: always in an installed package (which has no
// sources), and in a checkout when the build stamp matches the sources (npm's prepare script builds dist/ on `npm ci`).
// Otherwise, in a checkout with a missing or stale build, it runs the sources as they are through the tsx loader
// (tsconfig.json there maps "rllm-ts" and its subpaths, which the built-in plugins import by name, to the sources too).
// The build loads tsx only to import a user's TypeScript cookbook (src/evaluation/import-user-module.ts): registering it
// costs about a quarter of a second of start-up.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { isBuildFresh } from "./build-stamp.js";

const root = new URL("../", import.meta.url);
const sources = new URL("src/cli/main.ts", root);
if (!existsSync(sources) || (await isBuildFresh(fileURLToPath(root)))) {
  await import(new URL("dist/src/cli/main.js", root).href);
} else {
  // For ES modules and CommonJS both: a user's cookbook.ts in a project without "type": "module" is compiled as CommonJS.
  const { register } = await import("tsx/esm/api");
  const { register: registerCommonJs } = await import("tsx/cjs/api");
  register({ tsconfig: fileURLToPath(new URL("tsconfig.json", root)) });
  registerCommonJs();
  await import(sources.href);
}

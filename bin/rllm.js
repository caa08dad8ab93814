#!/usr/bin/env node
// The rllm command. It registers the tsx loader (for ES modules and CommonJS both: a user's cookbook.ts in a project
// without "type": "module" is compiled as CommonJS), which loads users' TypeScript cookbooks and, in a checkout of the
// repository, the CLI's own sources as they are, with no build step (tsconfig.json there maps "rllm-ts" to the
// sources too). An installed package has no sources and runs its build, dist/ (made by the prepack script).
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { register as registerCommonJs } from "tsx/cjs/api";
import { register } from "tsx/esm/api";

const sources = new URL("../src/cli/main.ts", import.meta.url);
const tsconfig = existsSync(sources) ? fileURLToPath(new URL("../tsconfig.json", import.meta.url)) : undefined;
register({ tsconfig });
registerCommonJs();
await import(existsSync(sources) ? sources.href : new URL("../dist/src/cli/main.js", import.meta.url).href);

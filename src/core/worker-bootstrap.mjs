// Entry of every worker thread: registers tsx in this thread, then runs the TypeScript module named in workerData.
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";
import { workerData } from "node:worker_threads";

// The checkout's tsconfig.json, whatever the working directory: its paths map "rllm-ts/core" and the other entries
// the plugins import to the sources, as in the main thread (bin/rllm.js); without them Node would resolve the names
// through the package's exports to dist/, a second copy of the classes or no file at all.
register({ tsconfig: fileURLToPath(new URL("../../tsconfig.json", import.meta.url)) });
await import(workerData.tsModuleUrl);

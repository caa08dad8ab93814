// Entry of every worker thread: registers tsx in this thread, then runs the TypeScript module named in workerData.
import { register } from "tsx/esm/api";
import { workerData } from "node:worker_threads";

register();
await import(workerData.tsModuleUrl);

/** Starts a worker thread on one of our modules: directly in the build, through a tsx bootstrap from the sources. */
import { Worker, type WorkerOptions } from "node:worker_threads";

const bootstrap = new URL("./worker-bootstrap.mjs", import.meta.url);
// The build is plain JavaScript, which a thread runs as it is; registering tsx in every thread would cost about a
// quarter of a second each (its loader starts a thread of its own).
const isRunningSources = import.meta.url.endsWith(".ts");

/**
 * A Worker running `moduleUrl`, a ".js" file URL (tsx maps it to the ".ts" source in a checkout; the build has the
 * ".js" itself). The module reads its own data from `workerData.data` (the `data` given here).
 */
export function startTsWorker(moduleUrl: URL, data?: unknown, options: WorkerOptions = {}): Worker {
  return new Worker(isRunningSources ? bootstrap : moduleUrl, { ...options, workerData: { tsModuleUrl: moduleUrl.href, data } });
}

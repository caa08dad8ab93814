/** Starts a worker thread on one of our modules, through a bootstrap that registers the tsx loader in the worker. */
import { Worker, type WorkerOptions } from "node:worker_threads";

const bootstrap = new URL("./worker-bootstrap.mjs", import.meta.url);

/**
 * A Worker running `moduleUrl`, a ".js" file URL (tsx maps it to the ".ts" source in a checkout; the build has the
 * ".js" itself). The module reads its own data from
 * `workerData.data` (the `data` given here).
 */
export function startTsWorker(moduleUrl: URL, data?: unknown, options: WorkerOptions = {}): Worker {
  return new Worker(bootstrap, { ...options, workerData: { tsModuleUrl: moduleUrl.href, data } });
}

/** The engine beside a bare node:http loop: the figures of test/perf/engine-throughput.perf.ts, measured once at the end. */
import { spawnSync } from "node:child_process";
import path from "node:path";
import type { PeerComparison } from "./peer-comparison.js";
import { fixed, log, type PeersEnvironment } from "./peers-environment.js";

interface EngineFigures {
  engine: number;
  nodeHttp: number;
}

/** The engine comparison against bare node:http (the engine benchmark alternates its own three rounds and reports their medians). */
export function engineComparison(environment: PeersEnvironment): PeerComparison {
  let figures: EngineFigures | undefined;
  return {
    name: "engine",
    async finish() {
      log("engine");
      figures = engineThroughput(environment.root);
    },
    rows() {
      if (!figures) return [];
      return [
        {
          comparison: "engine, concurrency 64, 0 ms server, episodes written",
          peer: `bare node:http loop (node ${process.version})`,
          peerFigure: `${fixed(figures.nodeHttp, 0)} requests/s`,
          oursFigure: `${fixed(figures.engine, 0)} episodes/s`,
          ratio: `${fixed((100 * figures.engine) / figures.nodeHttp, 0)}%`,
          goal: "≥ 50%",
        },
      ];
    },
  };
}

/** Engine and bare node:http requests/s at concurrency 64, from the engine-throughput benchmark's output. */
function engineThroughput(root: string): EngineFigures | undefined {
  const run = spawnSync(process.execPath, ["--import", "tsx", path.join(root, "test/perf/engine-throughput.perf.ts")], { cwd: root, encoding: "utf8" });
  const engine = /engine \(runEval\): (\d+) episodes\/s/.exec(run.stdout)?.[1];
  const nodeHttp = /bare node:http:\s+(\d+) requests\/s/.exec(run.stdout)?.[1];
  if (!engine || !nodeHttp) {
    log(`engine-throughput.perf.ts gave no figures:\n${run.stdout}\n${run.stderr.slice(-2000)}`);
    return undefined;
  }
  return { engine: Number(engine), nodeHttp: Number(nodeHttp) };
}

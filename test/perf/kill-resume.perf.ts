/**
 * Kill-and-resume soak (issue 22): `rllm eval arith -n 4 --rerank v1` on the embedded model, killed with SIGKILL at
 * random points and resumed, then checked against one uninterrupted run of the same flags: every task reranked, no
 * episode duplicated or lost, and the same judge calls (counted from tournaments.jsonl) and picks.
 *
 * A kill point is a random number of new records (episodes or tournament lines) plus a random delay of up to
 * 40 ms, so kills land between writes, mid-write, while starting up and between reranks.
 * Env: KILL_RESUME_LIMIT tasks (default 25), KILL_RESUME_KILLS (default 10), KILL_RESUME_SEED (default: random).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { EpisodeSchema } from "../../src/core/episode.js";
import { readJsonl } from "../../src/runs/append-only-jsonl.js";
import { TournamentErrorLineSchema, TournamentLineSchema } from "../../src/tournament/eval-reranker.js";
import { createRng, randomInt } from "../../src/core/random.js";
import { binPath } from "../helpers/run-cli.js";

const limit = Number(process.env.KILL_RESUME_LIMIT ?? 25);
const kills = Number(process.env.KILL_RESUME_KILLS ?? 10);
const seed = Number(process.env.KILL_RESUME_SEED ?? Math.floor(Math.random() * 1_000_000));
const attempts = 4;
const rng = createRng(seed);
const root = mkdtempSync(path.join(os.tmpdir(), "rllm-kill-resume-"));
const evalArgs = (out: string, resume: boolean) => [
  "eval", "arith", "-n", String(attempts), "--rerank", "v1", "--budget", "2", "--limit", String(limit), "--seed", "0",
  "--out", out, ...(resume ? ["--resume"] : []),
];
const TournamentLogLineSchema = z.union([TournamentLineSchema, TournamentErrorLineSchema]);

/** Records written so far: newline count of episodes.jsonl plus tournaments.jsonl. */
function recordsIn(out: string): number {
  let count = 0;
  for (const name of ["episodes.jsonl", "tournaments.jsonl"]) {
    const file = path.join(out, name);
    if (!existsSync(file)) continue;
    const bytes = readFileSync(file);
    for (let at = bytes.indexOf(0x0a); at !== -1; at = bytes.indexOf(0x0a, at + 1)) count += 1;
  }
  return count;
}

interface Invocation {
  code: number | null;
  killed: boolean;
  seconds: number;
  stderr: string;
}

/** Runs one `rllm eval`; with `killAfterRecords`, SIGKILLs it once that many new records appear (plus a random delay). */
function invoke(out: string, resume: boolean, killAfterRecords?: number): Promise<Invocation> {
  const started = performance.now();
  const child = spawn(process.execPath, [binPath, ...evalArgs(out, resume)], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  let killed = false;
  let poller: NodeJS.Timeout | undefined;
  if (killAfterRecords !== undefined) {
    const startRecords = recordsIn(out);
    const delayMs = randomInt(rng, 40);
    poller = setInterval(() => {
      if (recordsIn(out) - startRecords < killAfterRecords) return;
      clearInterval(poller);
      setTimeout(() => {
        killed = child.kill("SIGKILL");
      }, delayMs);
    }, 10);
  }
  return new Promise((resolve) =>
    child.on("close", (code) => {
      clearInterval(poller);
      resolve({ code, killed: killed && code === null, seconds: (performance.now() - started) / 1000, stderr });
    }),
  );
}

interface RunFigures {
  episodeLines: number;
  episodeIds: Map<string, number>;
  correctById: Map<string, boolean>;
  tournamentLines: number;
  tournaments: Map<string, z.infer<typeof TournamentLineSchema>>;
  judgeCalls: number;
  judgeSteps: number;
  summary: { status: string; rerank?: Record<string, { tasksReranked: number; tasksExpected: number }>; metrics: { "rerank@1"?: Record<string, number> } };
}

function figures(out: string): RunFigures {
  const episodes = readJsonl(path.join(out, "episodes.jsonl"), EpisodeSchema);
  const episodeIds = new Map<string, number>();
  const correctById = new Map<string, boolean>();
  for (const { record } of episodes) {
    episodeIds.set(record.id, (episodeIds.get(record.id) ?? 0) + 1);
    correctById.set(record.id, record.score?.isCorrect === true);
  }
  const lines = readJsonl(path.join(out, "tournaments.jsonl"), TournamentLogLineSchema).map(({ record }) => record);
  const tournaments = new Map<string, z.infer<typeof TournamentLineSchema>>();
  for (const line of lines) if (!("error" in line)) tournaments.set(line.taskId, line);
  const latest = [...tournaments.values()];
  return {
    episodeLines: episodes.length,
    episodeIds,
    correctById,
    tournamentLines: lines.length,
    tournaments,
    judgeCalls: latest.reduce((sum, line) => sum + line.judgeCalls, 0),
    judgeSteps: latest.reduce((sum, line) => sum + line.judgeTrajectory.steps.length, 0),
    summary: JSON.parse(readFileSync(path.join(out, "summary.json"), "utf8")),
  };
}

const tornBytes = (out: string) =>
  readdirSync(out)
    .filter((name) => name.endsWith(".torn"))
    .map((name) => `${name} ${statSync(path.join(out, name)).size} B (${readFileSync(path.join(out, name), "utf8").split("\n").length - 1} fragments)`);

console.log(`kill-resume soak: arith --limit ${limit} -n ${attempts} --rerank v1 --budget 2, ${kills} SIGKILLs, kill seed ${seed}`);
const referenceDirectory = path.join(root, "reference");
const reference = await invoke(referenceDirectory, false);
if (reference.code !== 0) throw new Error(`the uninterrupted run failed (exit ${reference.code}):\n${reference.stderr}`);
console.log(`uninterrupted run: ${reference.seconds.toFixed(1)} s`);

const soakDirectory = path.join(root, "soak");
const totalRecords = limit * attempts + limit;
const killLog: string[] = [];
let soakSeconds = 0;
let killsDone = 0;
for (let invocation = 0; killsDone < kills; invocation += 1) {
  const resume = existsSync(path.join(soakDirectory, "config.json"));
  const remaining = Math.max(0, totalRecords - recordsIn(soakDirectory));
  // Spread the kills over what is left; 0 new records kills it while it starts up.
  const target = randomInt(rng, Math.max(1, Math.floor((2 * remaining) / (kills - killsDone + 1))) + 1);
  const before = recordsIn(soakDirectory);
  const result = await invoke(soakDirectory, resume, target);
  soakSeconds += result.seconds;
  if (result.killed) {
    killsDone += 1;
    killLog.push(`${before}→${recordsIn(soakDirectory)}`);
  } else if (result.code !== 0) {
    throw new Error(`invocation ${invocation} failed (exit ${result.code}):\n${result.stderr}`);
  } else {
    killLog.push(`${before}→done`);
    break;
  }
}
const final = await invoke(soakDirectory, true);
soakSeconds += final.seconds;
if (final.code !== 0) throw new Error(`the final --resume failed (exit ${final.code}):\n${final.stderr}`);

const expected = figures(referenceDirectory);
const soak = figures(soakDirectory);
const duplicates = [...soak.episodeIds.values()].filter((count) => count > 1).length;
const lost = [...expected.episodeIds.keys()].filter((id) => !soak.episodeIds.has(id)).length;
const changed = [...expected.correctById].filter(([id, isCorrect]) => soak.correctById.get(id) !== isCorrect).length;
const picksDiffer = [...expected.tournaments].filter(([taskId, line]) => soak.tournaments.get(taskId)?.chosenIndex !== line.chosenIndex).length;
const rerank = soak.summary.rerank?.v1;

console.log(`kills: ${killsDone} (records before→at each kill: ${killLog.join(", ")}; ${totalRecords} records in all)`);
console.log(`soak wall time: ${soakSeconds.toFixed(1)} s over ${killLog.length + 1} invocations`);
console.log(`torn tails cut: ${tornBytes(soakDirectory).join("; ") || "none"}`);
console.log(`episodes: ${soak.episodeLines} lines, ${soak.episodeIds.size} distinct of ${limit * attempts}; duplicates ${duplicates}, lost ${lost}, graded differently ${changed}`);
console.log(`tournaments: ${soak.tournamentLines} lines, ${soak.tournaments.size} tasks; summary rerank.v1 ${rerank?.tasksReranked}/${rerank?.tasksExpected}, status ${soak.summary.status}`);
console.log(`judge calls (records): soak ${soak.judgeCalls} (${soak.judgeSteps} steps) · uninterrupted ${expected.judgeCalls} (${expected.judgeSteps} steps)`);
console.log(`rerank@1 [v1]: soak ${soak.summary.metrics["rerank@1"]?.v1} · uninterrupted ${expected.summary.metrics["rerank@1"]?.v1}; picks that differ ${picksDiffer}`);

const failures = [
  killsDone < kills && `only ${killsDone} of ${kills} kills landed before the run finished`,
  soak.summary.status !== "complete" && `status ${soak.summary.status}`,
  (rerank?.tasksReranked !== limit || soak.tournaments.size !== limit) && "not every task reranked",
  duplicates > 0 && `${duplicates} duplicated episodes`,
  (lost > 0 || soak.episodeIds.size !== limit * attempts) && `${lost} lost episodes`,
  soak.judgeCalls !== expected.judgeCalls && "judge calls differ from the uninterrupted run",
  picksDiffer > 0 && "picks differ from the uninterrupted run",
].filter((failure): failure is string => typeof failure === "string");
rmSync(root, { recursive: true, force: true });
if (failures.length > 0) {
  console.log(`FAILED: ${failures.join("; ")}`);
  process.exit(1);
}
console.log("ok: every task reranked, no duplicate or lost episode, judge calls and picks equal to the uninterrupted run");

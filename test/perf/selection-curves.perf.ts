/**
 * Accuracy against judge calls for V1, v1-top-bt, majority vote and adaptive-duel, with 95% intervals (markdown), over
 * candidate counts, judge accuracies, position bias and answer clusters. Produces docs/results/2026-12-adaptive-duel.md.
 *
 * CURVES_GRID=core (default: N 16, judge accuracy 0.7, with/without bias and clusters), sweep (N 4/8/32 at accuracy
 * 0.7 and accuracy 0.6/0.8/0.9 at N 16, clustered and distinct, no bias) or full (N 4/8/16/32 × accuracy 0.6–0.9 ×
 * bias 0/0.1 × clustered/distinct: 64 worlds, hours on one core). CURVES_TRIALS problems per cell
 * (default 600; the results doc uses 2000, 4000 for the goal cell). CURVES_SHARD=i/k runs every k-th world from the
 * i-th and prints JSON lines, so k processes split the grid; CURVES_ROWS=file,file prints the tables from such lines.
 */
import { readFileSync } from "node:fs";
import { simulateTournament, type SimulationRow } from "../../src/tournament/simulate-tournament.js";

interface World {
  n: number;
  judgeAccuracy: number;
  positionBias: number;
  answers: "clustered" | "distinct";
  trials: number;
}
type Row = SimulationRow & { world: World };

const trials = Number(process.env.CURVES_TRIALS ?? 600);
const budgets = [1, 1.5, 2, 3];
const duelBudgets = [0.5, 1, 1.5, 2, 3];

function worlds(grid: string): World[] {
  if (grid === "sweep") {
    // One axis at a time around the goal cell, no bias: what two shared cores finish in half an hour.
    const around = [
      ...[4, 8, 32].map((n) => ({ n, judgeAccuracy: 0.7 })),
      ...[0.6, 0.8, 0.9].map((judgeAccuracy) => ({ n: 16, judgeAccuracy })),
    ];
    return around.flatMap((world) => (["clustered", "distinct"] as const).map((answers) => ({ ...world, positionBias: 0, answers, trials })));
  }
  const sizes = grid === "full" ? [4, 8, 16, 32] : [16];
  const accuracies = grid === "full" ? [0.6, 0.7, 0.8, 0.9] : [0.7];
  const list: World[] = [];
  for (const n of sizes) {
    for (const judgeAccuracy of accuracies) {
      for (const positionBias of [0, 0.1]) {
        for (const answers of ["clustered", "distinct"] as const) {
          // The goal cell (N 16, p 0.7, no bias, clustered) gets twice the problems: its interval decides the goal.
          const isGoal = n === 16 && judgeAccuracy === 0.7 && positionBias === 0 && answers === "clustered";
          list.push({ n, judgeAccuracy, positionBias, answers, trials: isGoal ? 2 * trials : trials });
        }
      }
    }
  }
  return list;
}

function simulate(world: World): Row[] {
  const common = {
    world: { n: world.n, correctProb: 0.3, judgeAccuracy: world.judgeAccuracy, positionBias: world.positionBias, answers: world.answers },
    trials: world.trials,
    seed: 1,
  };
  // CURVES_ONLY=adaptive-duel re-runs only the new method (the baselines' rows do not change when it does).
  const baselines = process.env.CURVES_ONLY === "adaptive-duel" ? [] : simulateTournament({ ...common, methods: ["v1", "v1-top-bt", "majority"], budgets });
  return [...baselines, ...simulateTournament({ ...common, methods: ["adaptive-duel"], budgets: duelBudgets })].map((row) => ({ ...row, world }));
}

function format(rows: readonly Row[]): void {
  const keys = [...new Set(rows.map((row) => JSON.stringify(row.world)))];
  for (const key of keys) {
    const world = JSON.parse(key) as World;
    const block = rows.filter((row) => JSON.stringify(row.world) === key);
    const first = block[0]!;
    console.log(
      `\n### N ${world.n}, judge accuracy ${world.judgeAccuracy}, position bias ${world.positionBias}, answers ${world.answers}\n\n` +
        `${world.trials} problems; pass@1 ${first.passAt1.toFixed(3)}, pass@N ${first.passAtN.toFixed(3)}\n`,
    );
    console.log("| method | budget | judge calls (mean ± se) | accuracy | 95% CI |\n|---|---:|---:|---:|---|");
    for (const row of block) {
      console.log(
        `| ${row.method} | ${row.method === "majority" ? "–" : `${row.budget}×N`} | ${row.judgeCalls.toFixed(1)} ± ${row.judgeCallsStderr.toFixed(1)} | ` +
          `${row.selectAccuracy.toFixed(3)} | ${row.ci95[0].toFixed(3)}–${row.ci95[1].toFixed(3)} |`,
      );
    }
  }
}

const started = performance.now();
if (process.env.CURVES_ROWS) {
  const rows = process.env.CURVES_ROWS.split(",").flatMap((file) =>
    readFileSync(file, "utf8").split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line) as Row),
  );
  // Shards interleave worlds; print them in grid order.
  const order = worlds("full").map((world) => `${world.n}/${world.judgeAccuracy}/${world.positionBias}/${world.answers}`);
  const rank = (row: Row) => order.indexOf(`${row.world.n}/${row.world.judgeAccuracy}/${row.world.positionBias}/${row.world.answers}`);
  format([...rows].sort((first, second) => rank(first) - rank(second)));
} else {
  const all = worlds(process.env.CURVES_GRID ?? "core");
  const [index, shards] = (process.env.CURVES_SHARD ?? "0/1").split("/").map(Number) as [number, number];
  const mine = all.filter((_, position) => position % shards === index);
  for (const world of mine) {
    const rows = simulate(world);
    if (process.env.CURVES_SHARD) for (const row of rows) console.log(JSON.stringify(row));
    else format(rows);
  }
  if (!process.env.CURVES_SHARD) console.log(`\n${((performance.now() - started) / 1000).toFixed(1)} s`);
}

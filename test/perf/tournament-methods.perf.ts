/** Selection accuracy at equal judge calls: V1-Infer against the baselines and our variants, across judge accuracies (markdown tables). */
import { simulateTournament, type SimulationInput, type SimulationRow } from "../../src/tournament/simulate-tournament.js";

// TOURNAMENT_TRIALS=2000 reproduces docs/results/2026-12-tournament-simulation.md; the default keeps `npm run bench` short.
const trials = Number(process.env.TOURNAMENT_TRIALS ?? 600);
const accuracies = [0.6, 0.7, 0.8, 0.9];
const budgets = [1, 2, 3];

function table(title: string, input: Omit<SimulationInput, "trials" | "budgets">, label = (row: SimulationRow) => row.method): void {
  const started = performance.now();
  const rows = accuracies.flatMap((judgeAccuracy) =>
    simulateTournament({ ...input, world: { ...input.world, judgeAccuracy }, budgets, trials, seed: 1 }),
  );
  const labels = [...new Set(rows.map(label))];
  const columns = accuracies.flatMap((judgeAccuracy) => budgets.map((budget) => ({ judgeAccuracy, budget })));
  console.log(`\n### ${title}\n`);
  console.log(`| method | ${columns.map((column) => `p ${column.judgeAccuracy} · ${column.budget}×N`).join(" | ")} |`);
  console.log(`|---|${columns.map(() => "---:").join("|")}|`);
  for (const name of labels) {
    const cells = columns.map(({ judgeAccuracy, budget }) => {
      const matching = rows.filter((row) => label(row) === name && row.judgeAccuracy === judgeAccuracy);
      const row = matching.find((candidate) => candidate.budget === budget) ?? (matching.length === 1 ? matching[0] : undefined);
      if (!row) return "";
      // Methods that do not spend exactly the budget show their mean calls per problem.
      const spent = Math.abs(row.judgeCalls - budget * row.n) > 0.05 ? ` (${row.judgeCalls.toFixed(1)} calls)` : "";
      return `${row.selectAccuracy.toFixed(3)}${spent}`;
    });
    console.log(`| ${name} | ${cells.join(" | ")} |`);
  }
  const first = rows[0]!;
  const stderr = Math.max(...rows.map((row) => row.stderr));
  console.log(
    `\n${trials} problems per cell, N ${first.n}; pass@1 ${first.passAt1.toFixed(3)}, pass@N ${first.passAtN.toFixed(3)}; ` +
      `largest standard error ${stderr.toFixed(3)}; ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

const n = 16;
table("Published V1 against the baselines and our variants (ratings judge, no position bias)", {
  world: { n, correctProb: 0.3 },
  methods: ["v1", "random", "pointwise", "league", "knockout", "majority", "bt", "bt-weighted", "v1-top", "v1-top-bt", "v1-adaptive"],
});
table("Needle in a haystack: one correct candidate of 16", {
  world: { n, correctCount: 1 },
  methods: ["v1", "random", "pointwise", "knockout", "v1-top-bt"],
});
for (const slots of ["scheduled", "random", "both"] as const) {
  table(`Position bias b = 0.1, slots ${slots}`, { world: { n, correctProb: 0.3, positionBias: 0.1 }, methods: ["v1", "random", "v1-top-bt"], slots });
}
table("Pointwise judge without self-bias (g = 0): sensitivity of the pointwise comparison", {
  world: { n, correctProb: 0.3, pointwiseInflation: 0 },
  methods: ["v1", "pointwise"],
});
table("Persistent per-pair noise s = 0.5", { world: { n, correctProb: 0.3, persistence: 0.5 }, methods: ["v1", "random", "v1-top-bt"] });
table("The two readings of V1's ambiguities: Swiss repeats forbidden (prose)", {
  world: { n, correctProb: 0.3 },
  methods: ["v1"],
  v1: { swissRepeats: "forbid" },
});
table("The two readings of V1's ambiguities: last round overshoots the budget", {
  world: { n, correctProb: 0.3 },
  methods: ["v1"],
  v1: { budgetOverflow: "overshoot" },
});

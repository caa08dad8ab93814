/** The tournament simulator: Monte-Carlo selection accuracy of each method and budget on simulated problems. */
import { z } from "zod";
import { AdaptiveDuelOptionsSchema } from "./adaptive-duel.js";
import type { SelectionConfig, SelectionMethod } from "./selection-methods.js";
import { SelectionMethodSchema, SlotPolicySchema, selectionProcess } from "./selection-methods.js";
import { runSelectionSync } from "./selection-process.js";
import { createRng } from "../core/random.js";
import type { SimulatedWorld } from "./simulated-judge.js";
import { SimulatedWorldSchema, calibrateRatings, createSimulatedJudge, drawInstance } from "./simulated-judge.js";
import type { V1OptionsInput } from "./v1-infer.js";
import { V1OptionsSchema } from "./v1-infer.js";

export const SimulationSchema = z
  .object({
    world: SimulatedWorldSchema.default(SimulatedWorldSchema.parse({})),
    methods: z.array(SelectionMethodSchema).min(1),
    /** Budgets as multiples m of N (B = m·N judge calls). */
    budgets: z.array(z.number().positive()).min(1),
    trials: z.number().int().positive().default(2000),
    seed: z.number().int().default(1),
    knockoutK: z.number().int().positive().default(1),
    slots: SlotPolicySchema.default("scheduled"),
    v1: V1OptionsSchema.default(V1OptionsSchema.parse({})),
    duel: AdaptiveDuelOptionsSchema.default(AdaptiveDuelOptionsSchema.parse({})),
  })
  .strict();
export type Simulation = z.infer<typeof SimulationSchema>;
export type SimulationInput = Omit<z.input<typeof SimulationSchema>, "v1"> & { v1?: V1OptionsInput };

/** One line of the result: a method at a budget. Methods with a fixed cost report the multiple they used. */
export interface SimulationRow {
  method: SelectionMethod;
  budget: number;
  n: number;
  judgeAccuracy: number;
  selectAccuracy: number;
  stderr: number;
  /** Wilson 95% interval of selectAccuracy over the trials. */
  ci95: [number, number];
  /** Mean judge calls per problem, and their standard error (adaptive methods vary). */
  judgeCalls: number;
  judgeCallsStderr: number;
  passAt1: number;
  passAtN: number;
  /** (selectAccuracy − pass@1) / (pass@N − pass@1); 0 when pass@N = pass@1. */
  gapClosed: number;
}

const fixedCostMethods: ReadonlySet<SelectionMethod> = new Set(["knockout", "majority"]);

/** Mixes the run seed, the trial and a stream number into one 32-bit seed. */
function trialSeed(seed: number, trial: number, stream: number): number {
  return (Math.imul(seed, 0x9e3779b1) ^ Math.imul(trial + 1, 0x85ebca6b) ^ Math.imul(stream + 1, 0xc2b2ae35)) >>> 0;
}

/** Runs every method at every budget on the same `trials` problems (common random numbers across methods). */
export function simulateTournament(input: SimulationInput): SimulationRow[] {
  const simulation = SimulationSchema.parse(input);
  const world: SimulatedWorld = simulation.world;
  // The binary model needs no fitted constants.
  const calibration = world.judgeModel === "ratings" ? calibrateRatings(world) : { slope: 0, slotBonus: 0, noise: 0 };
  const instances = Array.from({ length: simulation.trials }, (_, trial) => drawInstance(world, createRng(trialSeed(simulation.seed, trial, 0))));
  const passAt1 = mean(instances.map((instance) => instance.correct.filter(Boolean).length / world.n));
  const passAtN = mean(instances.map((instance) => (instance.correct.some(Boolean) ? 1 : 0)));
  const rows: SimulationRow[] = [];
  for (const method of simulation.methods) {
    const budgets = fixedCostMethods.has(method) ? [simulation.budgets[0]!] : simulation.budgets;
    for (const multiple of budgets) {
      const config: SelectionConfig = {
        budget: Math.round(multiple * world.n),
        slots: simulation.slots,
        v1: simulation.v1,
        knockoutK: simulation.knockoutK,
        duel: simulation.duel,
      };
      let correct = 0;
      let calls = 0;
      let squaredCalls = 0;
      instances.forEach((instance, trial) => {
        const judge = createSimulatedJudge(world, instance, calibration, createRng(trialSeed(simulation.seed, trial, 1)));
        const process = selectionProcess(method, world.n, config, createRng(trialSeed(simulation.seed, trial, 2)), instance.answers);
        const selection = runSelectionSync(process, judge);
        if (instance.correct[selection.chosenIndex]) correct += 1;
        calls += selection.judgeCalls;
        squaredCalls += selection.judgeCalls ** 2;
      });
      const selectAccuracy = correct / simulation.trials;
      const judgeCalls = calls / simulation.trials;
      const callsVariance = Math.max(0, squaredCalls / simulation.trials - judgeCalls ** 2);
      rows.push({
        method,
        budget: fixedCostMethods.has(method) ? round(judgeCalls / world.n, 3) : multiple,
        n: world.n,
        judgeAccuracy: world.judgeAccuracy,
        selectAccuracy,
        stderr: Math.sqrt((selectAccuracy * (1 - selectAccuracy)) / simulation.trials),
        ci95: wilsonInterval(correct, simulation.trials),
        judgeCalls,
        judgeCallsStderr: Math.sqrt(callsVariance / simulation.trials),
        passAt1,
        passAtN,
        gapClosed: passAtN > passAt1 ? (selectAccuracy - passAt1) / (passAtN - passAt1) : 0,
      });
    }
  }
  return rows;
}

/** Wilson score interval at 95% (z 1.96): unlike ±1.96·se it stays inside [0, 1] near 0 and 1. */
export function wilsonInterval(successes: number, trials: number): [number, number] {
  if (trials === 0) return [0, 1];
  const z = 1.96;
  const share = successes / trials;
  const centre = (share + (z * z) / (2 * trials)) / (1 + (z * z) / trials);
  const half = (z * Math.sqrt((share * (1 - share)) / trials + (z * z) / (4 * trials * trials))) / (1 + (z * z) / trials);
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

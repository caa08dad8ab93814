/** config.json: what produced a run (the eval flags, or the train config), versioned; `--resume` compares it. */
import { z } from "zod";
import { SandboxRecordSchema } from "./sandbox.js";
import { SandboxSettingSchema } from "./sandbox-setting.js";

/**
 * The fields every reader of config.json uses; the rest is whatever produced the run, kept as it is so that
 * `--resume` can compare it. Files written before versioning have no formatVersion: format 1.
 */
export const RunConfigSchema = z
  .object({
    formatVersion: z.number().int().min(1).default(1),
    /** The benchmark run (verl's data_source on export); absent for some training runs. */
    benchmark: z.string().optional(),
    cookbook: z.string().optional(),
    /** Where the run's untrusted code ran (--sandbox); absent in runs made before it was recorded. */
    sandbox: SandboxSettingSchema.optional(),
    /** What the run was given: the sandbox as resolved (its interpreter and packages) and each pool it opened. */
    resources: z.object({ sandbox: SandboxRecordSchema, pools: z.record(z.string(), z.record(z.string(), z.unknown())) }).optional(),
  })
  .passthrough();
export type RunConfig = z.infer<typeof RunConfigSchema>;

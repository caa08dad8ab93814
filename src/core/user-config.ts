/** $RLLM_HOME/config.json: named endpoints (base URL, model, the name of the variable holding the key, prices) and the default sandbox. Never a secret. */
import { existsSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { InputError, describeIssues } from "./errors/input-error.js";
import { parseJsonFile } from "./parse-json-file.js";
import { ModelPriceSchema } from "./price-table.js";
import { defaultSandboxSetting, SandboxSettingInputSchema, withConfiguredKeys, type SandboxSetting } from "./sandbox-setting.js";

/** One named endpoint; the key is given only as the name of the environment variable that holds it. */
export const NamedEndpointSchema = z
  .object({
    baseUrl: z.string().url(),
    model: z.string().min(1),
    /** Environment variable holding the API key (default OPENAI_API_KEY). */
    apiKeyEnv: z.string().min(1).optional(),
    prices: ModelPriceSchema.optional(),
  })
  .strict();
export type NamedEndpoint = z.infer<typeof NamedEndpointSchema>;

export const UserConfigSchema = z
  .object({
    endpoints: z.record(z.string(), NamedEndpointSchema).default({}),
    /** The sandbox runs use when `--sandbox` names none: `local`, `docker`, `URL[,URL…]`, or the setting as an object. */
    sandbox: SandboxSettingInputSchema.optional(),
  })
  .strict();
export type UserConfig = z.infer<typeof UserConfigSchema>;

/** The user config file under an rllm home directory. */
export function userConfigFile(home: string): string {
  return path.join(home, "config.json");
}

/** Reads the user config (an empty one when the file is absent); a malformed file is an input error naming the field. */
export function readUserConfig(home: string): UserConfig {
  const file = userConfigFile(home);
  if (!existsSync(file)) return { endpoints: {} };
  const parsed = UserConfigSchema.safeParse(parseJsonFile(file));
  if (!parsed.success) throw new InputError(describeIssues(file, undefined, parsed.error));
  return parsed.data;
}

/**
 * The sandbox a run uses: `given` (its --sandbox), else the user config's, else the local one. Services `given` that
 * config.json lists with a key variable of their own keep it (withConfiguredKeys).
 */
export function configuredSandbox(home: string, given?: SandboxSetting): SandboxSetting {
  if (given?.provider === "remote") return withConfiguredKeys(given, readUserConfig(home).sandbox);
  return given ?? readUserConfig(home).sandbox ?? defaultSandboxSetting;
}

/** The endpoint called `name`, or an input error listing the names there are. */
export function namedEndpoint(config: UserConfig, name: string, home: string): NamedEndpoint {
  const endpoint = config.endpoints[name];
  if (endpoint) return endpoint;
  const known = Object.keys(config.endpoints);
  throw new InputError(`--endpoint ${name}: no such endpoint in ${userConfigFile(home)} (${known.length > 0 ? `known: ${known.join(", ")}` : "it names none"})`);
}

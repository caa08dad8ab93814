/** A cookbook's own options (`rllm eval --set key=value`), checked against its schema before any endpoint starts, then applied. */
import type { Cookbook } from "../core/cookbook.js";
import { InputError } from "../core/errors/input-error.js";
import { optionName, usageMessage } from "../core/errors/option-name.js";
import { parseSetOptions } from "../core/parse-set-options.js";
import type { SandboxSetting } from "../core/sandbox-setting.js";
import { createOpenAiClient } from "../llm/openai-client.js";
import type { EndpointPlan } from "./resolve-endpoint.js";

/** The cookbook's options checked against its schema (its defaults filled in), or undefined for a cookbook that takes none and got none. */
export function parseCookbookOptions(cookbook: Cookbook, given: Record<string, unknown>): Record<string, unknown> | undefined {
  if (!cookbook.optionsSchema) {
    const [key] = Object.keys(given);
    if (key !== undefined) throw new InputError(usageMessage`${optionName("cookbookOptions", { flag: "--set" })} ${key}: cookbook "${cookbook.name}" takes no options`);
    return undefined;
  }
  return parseSetOptions(cookbook.optionsSchema, given, `cookbook "${cookbook.name}"`);
}

/**
 * The cookbook configured with its parsed options; a client it asks for (a judge) runs on the planned endpoint. Called
 * before the endpoint opens, so a client the run cannot give (the embedded model serves only itself) is a usage error;
 * the sandbox is the one the run will open, so options it cannot honour are refused here too.
 */
export function configureCookbook(cookbook: Cookbook, options: Record<string, unknown> | undefined, plan: EndpointPlan, sandbox: SandboxSetting): Cookbook {
  if (options === undefined || !cookbook.configure) return cookbook;
  return cookbook.configure(options, {
    sandbox,
    createClient(model) {
      if (plan.isEmbedded) throw new InputError(usageMessage`cookbook "${cookbook.name}" asks for model "${model}", which needs ${optionName("baseUrl")} (it runs on the same endpoint)`);
      return createOpenAiClient({ baseUrl: plan.baseUrl, model, apiKey: plan.apiKey });
    },
  });
}

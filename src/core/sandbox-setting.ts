/**
 * Which sandbox runs a run's untrusted code: `--sandbox local|docker|URL[,URL…]`, config.json's or an eval set's
 * `sandbox:`. One syntax everywhere; the parsed setting is what a run folder's config.json records and `--resume`
 * compares.
 */
import { z } from "zod";
import { describeIssues, InputError } from "./errors/input-error.js";
import { runCodeUrl } from "./sandbox-fusion-protocol.js";

const HttpUrlSchema = z
  .string()
  .url()
  .refine((url) => /^https?:\/\//i.test(url), "expected an http(s) URL");

/**
 * One SandboxFusion-compatible service: its URL, or its URL with the environment variable holding the API key that
 * belongs to it alone (services of different owners each get their own key, and no key reaches a service it is not for).
 */
export const SandboxServiceSchema = z.union([HttpUrlSchema, z.object({ url: HttpUrlSchema, apiKeyEnv: z.string().min(1) }).strict()]);
export type SandboxService = z.infer<typeof SandboxServiceSchema>;

/**
 * local: bubblewrap, seccomp and cgroups on this machine (`python` names the interpreter programs run with;
 * `unsafeNoSandbox` runs them with rlimits only where bubblewrap is missing). docker: one container per episode.
 * remote: SandboxFusion-compatible services (`rllm sandbox serve`, or SandboxFusion); a service's key is read from the
 * variable its entry names, else from `apiKeyEnv`.
 */
export const SandboxSettingSchema = z.discriminatedUnion("provider", [
  z
    .object({
      provider: z.literal("local"),
      python: z.string().min(1).optional(),
      unsafeNoSandbox: z.boolean().optional(),
    })
    .strict(),
  z.object({ provider: z.literal("docker") }).strict(),
  z
    .object({
      provider: z.literal("remote"),
      urls: z.array(SandboxServiceSchema).min(1),
      /** The environment variable holding the key of every service without a key of its own (default RLLM_SANDBOX_API_KEY). */
      apiKeyEnv: z.string().min(1).optional(),
    })
    .strict(),
]);
export type SandboxSetting = z.infer<typeof SandboxSettingSchema>;

/** The sandbox a run uses when nothing names one. */
export const defaultSandboxSetting: SandboxSetting = { provider: "local" };

/** The variable a remote sandbox's key is read from when the setting names none. */
export const defaultSandboxApiKeyEnv = "RLLM_SANDBOX_API_KEY";

/** `local`, `docker` or `URL[,URL…]` as a setting; the message of a bad value says what is accepted. */
export function parseSandboxText(text: string): { setting: SandboxSetting } | { error: string } {
  const trimmed = text.trim();
  if (trimmed === "local" || trimmed === "docker") return { setting: { provider: trimmed } };
  const urls = trimmed.split(",").map((url) => url.trim()).filter((url) => url !== "");
  const bad = urls.find((url) => !HttpUrlSchema.safeParse(url).success);
  if (urls.length === 0 || bad !== undefined) {
    return { error: `${bad === undefined ? `"${text}"` : `"${bad}"`} is not local, docker or a comma-separated list of http(s) URLs` };
  }
  return { setting: { provider: "remote", urls } };
}

/** What config.json and an eval set's YAML accept: the flag's text, or the setting as an object. */
export const SandboxSettingInputSchema = z.union([
  z.string().transform((text, context) => {
    const parsed = parseSandboxText(text);
    if ("error" in parsed) {
      context.addIssue({ code: "custom", message: parsed.error });
      return z.NEVER;
    }
    return parsed.setting;
  }),
  SandboxSettingSchema,
]);
export type SandboxSettingInput = z.input<typeof SandboxSettingInputSchema>;

/** The URL of each of a remote setting's services. */
export function serviceUrls(setting: Extract<SandboxSetting, { provider: "remote" }>): string[] {
  return setting.urls.map((service) => (typeof service === "string" ? service : service.url));
}

/**
 * `given` (a --sandbox naming services) with the keys `configured` (config.json's setting) names for them: each URL
 * given that config.json lists with a key variable of its own takes that variable, in either form of the URL, and the
 * shared variable comes from config.json unless `given` names one. Any other `given` is returned as it is.
 */
export function withConfiguredKeys(given: SandboxSetting, configured: SandboxSetting | undefined): SandboxSetting {
  if (given.provider !== "remote" || configured?.provider !== "remote") return given;
  const ownKeys = configured.urls.flatMap((service) => (typeof service === "string" ? [] : [service]));
  const urls = given.urls.map((service) => {
    if (typeof service !== "string") return service;
    const entry = ownKeys.find((candidate) => runCodeUrl(candidate.url) === runCodeUrl(service));
    return entry ? { url: service, apiKeyEnv: entry.apiKeyEnv } : service;
  });
  const apiKeyEnv = given.apiKeyEnv ?? configured.apiKeyEnv;
  return { provider: "remote", urls, ...(apiKeyEnv !== undefined ? { apiKeyEnv } : {}) };
}

/** The setting in the flag's syntax, for messages and `rllm view`: `local`, `docker`, or the URLs. */
export function formatSandboxSetting(setting: SandboxSetting): string {
  if (setting.provider === "remote") return serviceUrls(setting).join(",");
  const extras = setting.provider === "local" ? [setting.python ? `python ${setting.python}` : "", setting.unsafeNoSandbox ? "unsafe-no-sandbox" : ""].filter(Boolean) : [];
  return extras.length > 0 ? `${setting.provider} (${extras.join(", ")})` : setting.provider;
}

/** `value` (the flag's text or a setting) as a setting; an InputError naming `source` (a flag, a file) when it is neither. */
export function parseSandboxSetting(value: SandboxSettingInput, source: string): SandboxSetting {
  const parsed = SandboxSettingInputSchema.safeParse(value);
  if (!parsed.success) throw new InputError(describeIssues(source, undefined, parsed.error));
  return parsed.data;
}

/**
 * Which sandbox runs a run's untrusted code: `--sandbox local|docker|URL[,URL…]`, config.json's or an eval set's
 * `sandbox:`. One syntax everywhere; the parsed setting is what a run folder's config.json records and `--resume`
 * compares.
 */
import { z } from "zod";
import { describeIssues, InputError } from "./errors/input-error.js";

const HttpUrlSchema = z
  .string()
  .url()
  .refine((url) => /^https?:\/\//i.test(url), "expected an http(s) URL");

/**
 * local: bubblewrap, seccomp and cgroups on this machine (`python` names the interpreter programs run with;
 * `unsafeNoSandbox` runs them with rlimits only where bubblewrap is missing). docker: one container per episode.
 * remote: SandboxFusion-compatible services (`rllm sandbox serve`, or SandboxFusion), their key in `apiKeyEnv`.
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
      urls: z.array(HttpUrlSchema).min(1),
      /** The environment variable holding the services' API key (default RLLM_SANDBOX_API_KEY). */
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

/** The setting in the flag's syntax, for messages and `rllm view`: `local`, `docker`, or the URLs. */
export function formatSandboxSetting(setting: SandboxSetting): string {
  if (setting.provider === "remote") return setting.urls.join(",");
  const extras = setting.provider === "local" ? [setting.python ? `python ${setting.python}` : "", setting.unsafeNoSandbox ? "unsafe-no-sandbox" : ""].filter(Boolean) : [];
  return extras.length > 0 ? `${setting.provider} (${extras.join(", ")})` : setting.provider;
}

/** `value` (the flag's text or a setting) as a setting; an InputError naming `source` (a flag, a file) when it is neither. */
export function parseSandboxSetting(value: SandboxSettingInput, source: string): SandboxSetting {
  const parsed = SandboxSettingInputSchema.safeParse(value);
  if (!parsed.success) throw new InputError(describeIssues(source, undefined, parsed.error));
  return parsed.data;
}

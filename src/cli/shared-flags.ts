/**
 * Flag schema pieces that several commands share, so that their spelling, type and range are written once. A command
 * spreads a piece into its own schema, and may give a field its own wording with `.describe()` or its own `.default()`.
 */
import { z } from "zod";
import { InputError } from "../core/errors/input-error.js";
import { parseSandboxText, type SandboxSetting } from "../core/sandbox-setting.js";

/** Where model calls go: `--endpoint`, or `--base-url`, `--model`, `--api-key-env` (read by planEndpoint). */
export const endpointFlags = {
  endpoint: z.string().optional().describe("a named endpoint of $RLLM_HOME/config.json: its base URL, model, key variable and prices").meta({ value: "name" }),
  model: z.string().optional().describe("model name at the endpoint (required with --base-url); without it, a pulled model (rllm models list) or tiny").meta({ value: "name" }),
  baseUrl: z.string().url().optional().describe("OpenAI-compatible endpoint, e.g. http://localhost:8000/v1 (vLLM, SGLang, OpenAI...)").meta({ value: "url" }),
  apiKeyEnv: z.string().optional().describe("environment variable holding the API key (default OPENAI_API_KEY)").meta({ value: "VAR" }),
};

/** A GGUF served here with llama.cpp: `--model-file`, `--threads` (a pulled model is named by `--model`). */
export const localModelFlags = {
  modelFile: z.string().optional().describe("serve this local GGUF with llama.cpp (no --base-url); rllm models pull fetches known ones by name").meta({ value: "path.gguf" }),
  threads: z.coerce.number().int().positive().optional().describe("llama.cpp CPU threads (default: the cores the load average leaves free; or RLLM_LLAMA_THREADS)").meta({ value: "n" }),
};

/** Sampling parameters sent with every model call; unset ones are left to the server. */
export const samplingFlags = {
  temperature: z.coerce.number().min(0).max(2).optional().describe("sampling temperature (server default if unset)").meta({ value: "t" }),
  topP: z.coerce.number().gt(0).max(1).optional().describe("nucleus sampling mass").meta({ value: "p" }),
  maxTokens: z.coerce.number().int().positive().optional().describe("completion token limit per model call").meta({ value: "n" }),
};

/** Where a server listens: `--port`, `--host`; each server gives its default port. */
export const listenFlags = {
  port: z.coerce.number().int().min(0).max(65_535).describe("port to listen on (0 picks a free one)").meta({ value: "port" }),
  host: z.string().default("127.0.0.1").describe("address to listen on").meta({ value: "host" }),
};

/** `--seed <n>`: an integer seed; each command says what it seeds and gives its default. */
export const seedFlag = z.coerce.number().int().meta({ value: "n" });

/** `--concurrency <n>`: how much runs at once; each command says what and gives its default. */
export const concurrencyFlag = z.coerce.number().int().positive().meta({ value: "n" });

/** `--out <dir>`: where a command writes; each command says what it writes there. */
export const outFlag = z.string().optional().meta({ value: "dir" });

/** A comma list whose parts each parse with `item`: `--methods v1,random`. */
export function commaList<Item extends z.ZodType>(item: Item) {
  return z.string().transform((text, context) => {
    const parsed = z.array(item).min(1).safeParse(text.split(",").map((part) => part.trim()).filter(Boolean));
    if (parsed.success) return parsed.data as z.infer<Item>[];
    for (const issue of parsed.error.issues) context.addIssue({ code: "custom", message: `"${text}": ${issue.message}` });
    return z.NEVER;
  });
}

/**
 * Where untrusted code runs: `--sandbox local|docker|URL[,URL…]` and the local sandbox's interpreter, `--python`.
 * Neither given, the run uses config.json's `sandbox`, else local.
 */
export const sandboxFlags = {
  sandbox: z
    .string()
    .transform((text, context) => {
      const parsed = parseSandboxText(text);
      if ("error" in parsed) {
        context.addIssue({ code: "custom", message: parsed.error });
        return z.NEVER;
      }
      return parsed.setting;
    })
    .optional()
    .describe("where untrusted code runs: local (bubblewrap, seccomp, cgroups), docker, or SandboxFusion services (rllm sandbox serve) as URL[,URL…]; default: config.json's sandbox, else local")
    .meta({ value: "local|docker|url" }),
  python: z
    .string()
    .optional()
    .describe("local sandbox: the Python interpreter programs run with (default: $RLLM_PYTHON, the pinned sandbox environment, else python3 on PATH)")
    .meta({ value: "path" }),
};

/** The sandbox the flags name, `--python` and `--unsafe-no-sandbox` folded in; undefined when they name none. */
export function sandboxSettingFromFlags(flags: { sandbox?: SandboxSetting; python?: string; unsafeNoSandbox?: boolean }): SandboxSetting | undefined {
  const { python, unsafeNoSandbox } = flags;
  if (python === undefined && !unsafeNoSandbox) return flags.sandbox;
  const setting = flags.sandbox ?? { provider: "local" };
  if (setting.provider !== "local") {
    throw new InputError(`${python !== undefined ? "--python" : "--unsafe-no-sandbox"} applies to the local sandbox only, not to --sandbox ${setting.provider === "remote" ? setting.urls.join(",") : setting.provider}`);
  }
  return { ...setting, ...(python !== undefined ? { python } : {}), ...(unsafeNoSandbox ? { unsafeNoSandbox } : {}) };
}

/**
 * Where the Tinker client connects and how it authenticates: TINKER_BASE_URL (or --base-url), and TINKER_API_KEY in the
 * X-API-Key header (keys start with `tml-` or are JWTs, `eyJ…`), or TINKER_CREDENTIAL_CMD, a shell command that prints a
 * fresh credential for each request (backends.md §1.1).
 */
import { execSync } from "node:child_process";
import { InputError } from "../../core/errors/input-error.js";

/** The production service (the tinker SDK's default). */
export const TINKER_DEFAULT_BASE_URL = "https://tinker.thinkingmachines.dev/services/tinker-prod";

/** Gives the credential for the next request. */
export type CredentialSource = () => string;

/** The base URL: the explicit one, else TINKER_BASE_URL, else the production service; without a trailing slash. */
export function tinkerBaseUrl(explicit: string | undefined, environment: NodeJS.ProcessEnv = process.env): string {
  return (explicit ?? environment.TINKER_BASE_URL ?? TINKER_DEFAULT_BASE_URL).replace(/\/+$/, "");
}

/**
 * The credential source from the environment; a key of the wrong form or none at all is an InputError (exit 2, like a bad
 * flag: the user must fix their setup, and retrying cannot help) saying which variable to set.
 */
export function tinkerCredentials(environment: NodeJS.ProcessEnv = process.env): CredentialSource {
  const command = environment.TINKER_CREDENTIAL_CMD;
  if (command) return () => checkKey(execSync(command, { encoding: "utf8" }).trim(), "TINKER_CREDENTIAL_CMD's output");
  const key = environment.TINKER_API_KEY;
  if (!key) throw new InputError("Tinker needs an API key: set TINKER_API_KEY (a tml-… key or a JWT) or TINKER_CREDENTIAL_CMD");
  const checked = checkKey(key, "TINKER_API_KEY");
  return () => checked;
}

function checkKey(key: string, source: string): string {
  if (key.startsWith("tml-") || key.startsWith("eyJ")) return key;
  throw new InputError(`${source} is not a Tinker API key: it must start with "tml-" or be a JWT ("eyJ…")`);
}

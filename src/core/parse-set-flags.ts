/** Reads repeatable `--set key=value` flags (`rllm grade`, `rllm eval`) into an options object for the owner's schema to check. */
import { InputError } from "./errors/input-error.js";

/** Commander's collector for a repeatable flag: each use appends its value. */
export function collectRepeated(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** `--set a=1 --set b=false` → `{a: 1, b: false}`; values that look like booleans or numbers are converted. */
export function parseSetFlags(entries: readonly string[]): Record<string, unknown> {
  const flags: Record<string, unknown> = {};
  for (const entry of entries) {
    const separator = entry.indexOf("=");
    if (separator <= 0) throw new InputError(`--set ${entry}: expected key=value`);
    const key = entry.slice(0, separator).trim();
    const value = entry.slice(separator + 1).trim();
    flags[key] = value === "true" ? true : value === "false" ? false : value !== "" && Number.isFinite(Number(value)) ? Number(value) : value;
  }
  return flags;
}

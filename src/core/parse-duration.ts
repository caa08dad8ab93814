/** Durations on the command line: `90s`, `30m`, `12h`, `7d` (a bare number is seconds), in milliseconds. */
import { InputError } from "./errors/input-error.js";
import { type OptionName, usageMessage } from "./errors/option-name.js";

const unitMs: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `7d` → 604800000; an input error naming `flag` otherwise. */
export function parseDuration(flag: string | OptionName, text: string): number {
  const match = /^(\d+(?:\.\d+)?)([smhd]?)$/.exec(text.trim());
  if (!match) throw new InputError(usageMessage`${flag} ${text}: expected a duration such as 90s, 30m, 12h or 7d`);
  return Number(match[1]) * unitMs[match[2] || "s"]!;
}

/**
 * Terminus-2's lenient JSON reply parser: the first balanced {…} of the reply (string-aware), with the auto-fixes
 * Harbor tries (closing braces appended, then a regex-extracted object). Errors mean no command runs this turn;
 * warnings are shown to the model with the next output.
 */

/** One keystroke batch: sent verbatim (a trailing newline executes it), then waited on for `duration` seconds. */
export interface TerminusCommand {
  keystrokes: string;
  duration: number;
}

/** A parsed reply, or its errors. */
export type TerminusReply =
  | { commands: TerminusCommand[]; isTaskComplete: boolean; analysis: string; plan: string; warnings: string[] }
  | { errors: string[]; warnings: string[] };

/** Parses a Terminus-2 JSON reply. */
export function parseTerminusResponse(reply: string): TerminusReply {
  const warnings: string[] = [];
  const start = reply.indexOf("{");
  if (start < 0) return { errors: ["No valid JSON found in response"], warnings };
  if (reply.slice(0, start).trim() !== "") warnings.push("Extra text detected before JSON object");
  const { end, openBraces } = scanBraces(reply, start);
  let candidate = end === undefined ? reply.slice(start) : reply.slice(start, end + 1);
  if (end !== undefined && reply.slice(end + 1).trim() !== "") warnings.push("Extra text detected after JSON object");
  let value = tryParse(candidate);
  if (value === undefined && end === undefined) {
    // Auto-fix 1: the reply stopped before its closing braces.
    candidate = candidate + "}".repeat(Math.max(1, openBraces));
    value = tryParse(candidate);
    if (value !== undefined) warnings.push("AUTO-CORRECTED: added missing closing braces");
  }
  if (value === undefined) {
    // Auto-fix 2: any object-looking span that parses.
    for (const match of reply.matchAll(/\{[\s\S]*\}/g)) {
      value = tryParse(match[0]);
      if (value !== undefined) {
        warnings.push("AUTO-CORRECTED: extracted the JSON object from the reply");
        break;
      }
    }
  }
  if (value === undefined || typeof value !== "object" || value === null || Array.isArray(value)) return { errors: ["Invalid JSON: the reply holds no parsable JSON object"], warnings };
  return readFields(value as Record<string, unknown>, warnings);
}

function readFields(record: Record<string, unknown>, warnings: string[]): TerminusReply {
  const errors: string[] = [];
  for (const field of ["analysis", "plan", "commands"]) if (!(field in record)) errors.push(`Missing required field: ${field}`);
  const known = new Set(["analysis", "plan", "commands", "task_complete"]);
  for (const field of Object.keys(record)) if (!known.has(field)) warnings.push(`Unknown field: ${field}`);
  const isTaskComplete = [true, "true", "1", "yes"].includes(typeof record.task_complete === "string" ? record.task_complete.toLowerCase() : (record.task_complete as never));
  const commands: TerminusCommand[] = [];
  if (Array.isArray(record.commands)) {
    record.commands.forEach((entry, index) => {
      const command = entry as { keystrokes?: unknown; duration?: unknown };
      if (typeof command !== "object" || command === null || typeof command.keystrokes !== "string") {
        errors.push(`Command ${index + 1} has no "keystrokes" string`);
        return;
      }
      const duration = typeof command.duration === "number" && command.duration >= 0 ? command.duration : 1;
      if (index < (record.commands as unknown[]).length - 1 && !command.keystrokes.endsWith("\n")) {
        warnings.push(`Command ${index + 1} should end with a newline when followed by another command`);
      }
      commands.push({ keystrokes: command.keystrokes, duration });
    });
  } else if ("commands" in record) errors.push('Field "commands" must be an array');
  // A reply that declares the task complete is not held back by its command errors (Harbor downgrades them).
  if (errors.length > 0 && !(isTaskComplete && errors.every((error) => error.startsWith("Command")))) return { errors, warnings };
  warnings.push(...errors);
  return { commands, isTaskComplete, analysis: String(record.analysis ?? ""), plan: String(record.plan ?? ""), warnings };
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Scans `text` from the brace at `start`, skipping braces inside strings: `end` is the index of the brace that closes
 * it, or undefined when it never closes, and then `openBraces` says how many are left open at the end.
 */
function scanBraces(text: string, start: number): { end?: number; openBraces: number } {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const character = text[index];
    if (inString) {
      if (character === "\\") index++;
      else if (character === '"') inString = false;
    } else if (character === '"') inString = true;
    else if (character === "{") depth++;
    else if (character === "}" && --depth === 0) return { end: index, openBraces: 0 };
  }
  return { openBraces: depth };
}

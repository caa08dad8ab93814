/**
 * The code a function-completion prompt defines before its entry point: its imports and helper functions, such as
 * HumanEval/38's `encode_cyclic`, /50's `encode_shift` and /32's `poly`, which the problem's own check() calls. In the
 * trusted checker a name the test does not define is the program's (docs/code-sandbox.md), so a program that redefines
 * the helper (`encode_cyclic` and `decode_cyclic` both the identity) passed a test meant to check it against the
 * prompt's (issue #44). Run before the test code, the prompt's own definitions are the ones the test calls.
 */

/** The text of `prompt` before the line defining `entryPoint` at top level; empty when no such line is found. */
export function promptDefinitions(prompt: string, entryPoint: string): string {
  const escaped = entryPoint.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const entry = new RegExp(`^(?:async\\s+)?def\\s+${escaped}\\s*\\(`, "m").exec(prompt);
  if (!entry) return "";
  const before = prompt.slice(0, entry.index);
  // A prompt with nothing but prose or a docstring before its entry point defines nothing.
  return /^(?:import|from|def|class|async\s+def|[A-Za-z_]\w*\s*=)/m.test(before) ? before : "";
}

/**
 * MathArena's prompt: the competition's instruction, a blank line, then the problem (eth-sri/matharena,
 * src/matharena/runner.py: the instruction of configs/competitions/<competition>.yaml, "\n\n{problem}" appended).
 */
export function matharenaPrompt(instruction: string): (problem: string) => string {
  return (problem) => `${instruction}\n\n${problem}`;
}

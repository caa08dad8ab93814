/** rLLM's FrozenLake conversation, in our words: the rules, the grid as text, the per-turn observation and the invalid-action reminder. */
import type { FrozenLakeObservation } from "./frozenlake-environment.js";

/** The system message: the goal, the symbols, the four actions and the answer format (last fenced block counts). */
export const frozenLakeSystemPrompt = [
  "You are walking on a frozen lake. Reach the goal G without stepping into a hole O.",
  "Symbols: P = you, _ = frozen ice (safe), O = hole (you lose), G = goal (you win).",
  "Valid actions: Up, Down, Left, Right. Moving into the edge of the lake leaves you where you are.",
  "Think briefly, then give your action alone inside triple backticks on its own line, for example:",
  "```",
  "Right",
  "```",
  "Only the last triple-backtick block of your reply counts.",
].join("\n");

const tileSymbols: Record<string, string> = { S: "_", F: "_", H: "O", G: "G" };

/** The grid as rLLM draws it: cells joined by two spaces, rows by newlines, the player as P. */
export function renderFrozenLake(observation: FrozenLakeObservation): string {
  const columns = observation.map[0]!.length;
  return observation.map
    .map((row, rowIndex) =>
      [...row].map((tile, columnIndex) => (rowIndex * columns + columnIndex === observation.position ? "P" : (tileSymbols[tile] ?? tile))).join("  "),
    )
    .join("\n");
}

/** The first user message: the grid at turn 0 and the number of turns. */
export function firstObservationMessage(observation: FrozenLakeObservation, turns: number): string {
  return `Current observation (turn 0):\n${renderFrozenLake(observation)}\n\nYou have ${turns} turns total. Output your next action.`;
}

/** The user message after turn `turn`'s move. */
export function observationMessage(observation: FrozenLakeObservation, turn: number): string {
  return `Current observation (turn ${turn}):\n${renderFrozenLake(observation)}\nOutput your next action.`;
}

/** The reminder after a reply with no valid action (the turn is used up; the lake does not move). */
export function invalidActionMessage(observation: FrozenLakeObservation): string {
  return `That was not a valid action. Answer with exactly one of Up, Down, Left or Right inside triple backticks.\nCurrent observation:\n${renderFrozenLake(observation)}`;
}

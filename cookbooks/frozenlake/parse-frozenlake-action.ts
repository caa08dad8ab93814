/** rLLM's FrozenLake action parser: the last ```…``` block of the reply, case-insensitive Left/Down/Right/Up. */
import type { FrozenLakeAction } from "./frozenlake-environment.js";

const actionCodes: Record<string, FrozenLakeAction> = { left: 0, down: 1, right: 2, up: 3 };

/** The action in the reply's last fenced block, or undefined when there is none or it names no action. */
export function parseFrozenLakeAction(reply: string): FrozenLakeAction | undefined {
  const blocks = [...reply.matchAll(/```(.*?)```/gs)];
  const last = blocks.at(-1)?.[1];
  if (last === undefined) return undefined;
  return actionCodes[last.trim().toLowerCase()];
}

/** The action's name as the prompt spells it. */
export function frozenLakeActionName(action: FrozenLakeAction): string {
  return ["Left", "Down", "Right", "Up"][action]!;
}

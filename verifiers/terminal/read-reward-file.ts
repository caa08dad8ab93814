/**
 * Reads the verifier's reward in one order: /logs/verifier/reward.json (its `reward` key, else the mean of its
 * `rewards` values), then /logs/verifier/reward.txt (one number), as Harbor ≥ 0.9 and rLLM do. The test script's exit
 * code is never consulted. A missing, empty or unparsable file is an error here; verifyTerminalTask decides whose
(a scored 0 once the agent has acted, else a grading error).
 */

/** The reward and any other numbers the file held, or the grading error. */
export type RewardReading = { reward: number; signals: Record<string, number> } | { error: string };

/** Parses the two candidate files' texts (undefined = absent), JSON first. */
export function readRewardFile(jsonText: string | undefined, plainText: string | undefined): RewardReading {
  if (jsonText !== undefined) return parseRewardJson(jsonText);
  if (plainText !== undefined) {
    if (plainText.trim() === "") return { error: "reward.txt is empty" };
    const reward = Number(plainText.trim());
    return Number.isFinite(reward) ? { reward, signals: {} } : { error: `reward.txt holds "${plainText.trim().slice(0, 80)}", not a number` };
  }
  return { error: "the verifier wrote no /logs/verifier/reward.json or reward.txt" };
}

function parseRewardJson(text: string): RewardReading {
  if (text.trim() === "") return { error: "reward.json is empty" };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { error: `reward.json is not JSON: ${(error as Error).message}` };
  }
  if (typeof value === "number" && Number.isFinite(value)) return { reward: value, signals: {} };
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { error: "reward.json holds no object" };
  const record = value as Record<string, unknown>;
  const signals = Object.fromEntries(Object.entries(record).filter((entry): entry is [string, number] => entry[0] !== "reward" && typeof entry[1] === "number" && Number.isFinite(entry[1])));
  if (typeof record.reward === "number" && Number.isFinite(record.reward)) return { reward: record.reward, signals };
  const rewards = record.rewards;
  if (typeof rewards === "object" && rewards !== null) {
    const values = Object.values(rewards).filter((entry): entry is number => typeof entry === "number" && Number.isFinite(entry));
    if (values.length > 0) return { reward: values.reduce((sum, entry) => sum + entry, 0) / values.length, signals };
  }
  return { error: 'reward.json has no numeric "reward" (or "rewards" values)' };
}

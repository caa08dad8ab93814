/** The table-access score: how many of the tables a question needs the agent actually looked at. */

/** |expected ∩ accessed| / |expected|, case-insensitive; 0 when either list is empty (as rLLM's finqa_eval.py). */
export function tableAccess(expected: readonly string[], accessed: readonly string[]): number {
  const wanted = new Set(expected.map(normaliseTableName).filter((name) => name !== ""));
  const seen = new Set(accessed.map(normaliseTableName));
  if (wanted.size === 0 || seen.size === 0) return 0;
  let hits = 0;
  for (const name of wanted) if (seen.has(name)) hits++;
  return hits / wanted.size;
}

/** Lower-cased, trimmed, without a `.json` suffix (rLLM tolerates it in tool arguments). */
export function normaliseTableName(name: string): string {
  return name.trim().toLowerCase().replace(/\.json$/, "");
}

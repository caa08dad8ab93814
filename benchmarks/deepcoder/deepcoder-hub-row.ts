/** Converts a row of agentica-org/DeepCoder-Preview-Dataset (parquet) into our cached DeepCoder row. */
import type { DeepcoderRow } from "./deepcoder-row.js";

/**
 * `problem` → question; `tests` (a JSON string: a test list, or a TACO `{inputs, outputs, fn_name}` dict) kept as is for
 * the verifier; `metadata` (a JSON string or object) may carry `func_name`; `starter_code` when present.
 */
export function deepcoderHubRow(row: Record<string, unknown>, index: number, split: string): DeepcoderRow {
  const metadata = parseMaybeJson(row.metadata);
  const functionName = pickString(metadata, "func_name") ?? pickString(metadata, "fn_name") ?? pickString(parseMaybeJson(row.tests), "fn_name");
  return {
    id: `deepcoder-${split}-${index}`,
    question: String(row.problem ?? row.question ?? ""),
    starter_code: typeof row.starter_code === "string" ? row.starter_code : (pickString(metadata, "starter_code") ?? ""),
    tests: (row.tests ?? "") as DeepcoderRow["tests"],
    fn_name: functionName ?? null,
    source: "agentica-org/DeepCoder-Preview-Dataset",
  };
}

function parseMaybeJson(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

function pickString(value: unknown, key: string): string | undefined {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const field = (value as Record<string, unknown>)[key];
    return typeof field === "string" && field !== "" ? field : undefined;
  }
  return undefined;
}

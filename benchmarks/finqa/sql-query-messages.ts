/** The messages between the FinQA tools and their SQL query process (both sides are ours, so plain types). */

/** How much one query may return. */
export interface ResultLimits {
  maxRows: number;
  /** Characters of the rows as JSON. */
  maxCharacters: number;
}

/** Parent → query process. */
export type SqlRequest =
  | { type: "open"; databaseId: number; bytes: Uint8Array }
  | { type: "close"; databaseId: number }
  | { type: "query"; requestId: number; databaseId: number; sql: string; limits: ResultLimits };

/** What one query came to. "refused" and "sql-error" carry a message for the model. */
export type SqlOutcome =
  | { kind: "rows"; rows: Record<string, unknown>[] }
  | { kind: "refused"; message: string }
  | { kind: "sql-error"; message: string }
  | { kind: "timeout"; timeoutMs: number }
  | { kind: "crashed"; message: string };

/** Query process → parent. */
export type SqlReply = { type: "ready" } | { type: "result"; requestId: number; outcome: SqlOutcome };

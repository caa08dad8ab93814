/** Writes verl rows as a parquet file with nested LIST/struct columns, the layout pandas and HF datasets read natively. */
import { writeFileSync } from "node:fs";
import { parquetWriteBuffer } from "hyparquet-writer";
import type { VerlRow } from "./export-rows.js";

// The writer bundles its own hyparquet, so take the schema element type from its signature.
type SchemaElement = NonNullable<Parameters<typeof parquetWriteBuffer>[0]["schema"]>[number];

const string = (name: string): SchemaElement => ({ name, type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: "REQUIRED" });
const scalar = (name: string, type: SchemaElement["type"]): SchemaElement => ({ name, type, repetition_type: "REQUIRED" });
// Standard 3-level LIST: <name> (LIST) → list (REPEATED) → element.
const list = (name: string, element: SchemaElement[]): SchemaElement[] => [
  { name, converted_type: "LIST", repetition_type: "REQUIRED", num_children: 1 },
  { name: "list", repetition_type: "REPEATED", num_children: 1 },
  ...element,
];
const struct = (name: string, fields: SchemaElement[]): SchemaElement[] => [
  { name, repetition_type: "REQUIRED", num_children: fields.length },
  ...fields,
];

const COLUMNS: [keyof VerlRow, SchemaElement[]][] = [
  ["data_source", [string("data_source")]],
  ["prompt", list("prompt", struct("element", [string("role"), string("content")]))],
  ["ability", [string("ability")]],
  ["reward_model", struct("reward_model", [string("style"), string("ground_truth")])],
  [
    "extra_info",
    struct("extra_info", [
      string("split"),
      scalar("index", "INT64"),
      string("episode_id"),
      string("task_id"),
      string("trajectory_name"),
      scalar("attempt", "INT32"),
    ]),
  ],
  ["uid", [string("uid")]],
  ["prompt_ids", list("prompt_ids", [scalar("element", "INT32")])],
  ["response_ids", list("response_ids", [scalar("element", "INT32")])],
  ["response_mask", list("response_mask", [scalar("element", "INT32")])],
  ["rollout_log_probs", list("rollout_log_probs", [scalar("element", "FLOAT")])],
  ["advantage", [scalar("advantage", "DOUBLE")]],
  ["reward", [scalar("reward", "DOUBLE")]],
  ["is_correct", [scalar("is_correct", "BOOLEAN")]],
];

/** Writes `rows` to `file` as parquet. */
export function writeVerlParquet(file: string, rows: readonly VerlRow[]): void {
  const schema: SchemaElement[] = [{ name: "root", num_children: COLUMNS.length }, ...COLUMNS.flatMap(([, elements]) => elements)];
  const columnData = COLUMNS.map(([name]) => ({
    name,
    // INT64 leaves take bigints in hyparquet-writer.
    data: rows.map((row) => (name === "extra_info" ? { ...row.extra_info, index: BigInt(row.extra_info.index) } : row[name])),
  }));
  writeFileSync(file, new Uint8Array(parquetWriteBuffer({ columnData, schema })));
}

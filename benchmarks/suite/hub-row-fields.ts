/** Reads the fields a Hub row converter needs with zod, so a row in another shape fails naming the field. */
import { z } from "zod";

/** `row` parsed by `schema`; throws "field "x": why" (the pull adds the file and row). */
export function hubRowFields<Schema extends z.ZodType>(schema: Schema, row: Record<string, unknown>): z.infer<Schema> {
  const parsed = schema.safeParse(row);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new Error(`field "${issue.path.join(".") || "(root)"}": ${issue.message}`);
}

/** A parquet INT64 (a BigInt), a number or a numeric string, as text ("025" stays as the source wrote it). */
export const IntegerTextSchema = z.union([z.bigint(), z.number().int(), z.string().regex(/^-?\d+$/)]).transform(String);

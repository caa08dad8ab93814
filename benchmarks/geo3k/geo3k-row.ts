/** One Geo3K row as cached by `rllm dataset pull geo3k` and bundled in sample.jsonl (the Hugging Face hiyouga/geometry3k shape). */
import { z } from "zod";
import { RowIdSchema } from "rllm-ts/core";

export const Geo3kRowSchema = z
  .object({
    id: RowIdSchema,
    /** Problem text with an `<image>` marker where each diagram goes. */
    problem: z.string().min(1),
    /** The answer value as text (`48`, `5 \sqrt { 3 }`), graded by the math verifier. */
    answer: z.union([z.string().min(1), z.number()]).transform(String),
    /** Diagrams as data URIs (`data:image/png;base64,...`) or bare base64 PNG/JPEG. */
    images: z.array(z.string().min(1)).default([]),
    /** Multiple-choice options when known (A, B, C, D), so that a letter answer can be graded. */
    choices: z.array(z.string()).optional(),
  })
  .passthrough();
export type Geo3kRow = z.infer<typeof Geo3kRowSchema>;

/** The cached row for one hiyouga/geometry3k parquet row: `images` [{bytes}] become data URIs. */
export function geo3kHubRow(row: Record<string, unknown>, index: number, split: string): Record<string, unknown> {
  const images = Array.isArray(row.images) ? row.images : [];
  return {
    id: `${split}-${index}`,
    problem: String(row.problem ?? ""),
    answer: String(row.answer ?? ""),
    images: images.map((image) => imageDataUri(image)).filter((uri): uri is string => uri !== undefined),
  };
}

function imageDataUri(image: unknown): string | undefined {
  const bytes = image instanceof Uint8Array ? image : (image as { bytes?: unknown } | null)?.bytes;
  if (!(bytes instanceof Uint8Array)) return undefined;
  return `data:${imageMimeType(bytes)};base64,${Buffer.from(bytes).toString("base64")}`;
}

/** PNG, JPEG, GIF or WebP from the file's magic bytes (PNG when unknown: Geometry3K diagrams are PNGs). */
export function imageMimeType(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return "image/jpeg";
  if (bytes[0] === 0x47 && bytes[1] === 0x49 && bytes[2] === 0x46) return "image/gif";
  if (bytes[0] === 0x52 && bytes[1] === 0x49 && bytes[8] === 0x57 && bytes[9] === 0x45) return "image/webp";
  return "image/png";
}

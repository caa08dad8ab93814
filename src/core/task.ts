/** A Task: one problem to run an agent flow on; `metadata` keeps the whole source row (ground truth, choices...). */
import { z } from "zod";
import { ContentBlockSchema } from "./message.js";

export const TaskSchema = z.object({
  id: z.string().min(1),
  /** Plain text, or OpenAI content blocks for multimodal tasks. */
  instruction: z.union([z.string(), z.array(ContentBlockSchema)]),
  metadata: z.record(z.string(), z.unknown()).default({}),
});
export type Task = z.infer<typeof TaskSchema>;

/** Where a task's company tables come from; stored in each task's metadata so the flow can open them. */
import { z } from "zod";

export const TableSourceSchema = z.discriminatedUnion("format", [
  /** The original FinQA format: a company's tables are the report pages of its records in `file`. */
  z.object({ format: z.literal("finqa-original"), file: z.string() }),
  /** rLLM/finqa: `<tablesRoot>/<company>/*.json` (the dataset's `company_tables` folder). */
  z.object({ format: z.literal("rllm-finqa"), tablesRoot: z.string() }),
]);
export type TableSource = z.infer<typeof TableSourceSchema>;

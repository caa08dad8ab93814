/** Converts a livecodebench/code_generation_lite row into the cached DeepCoder-shaped row the deepcoder cookbook grades. */
import { z } from "zod";
import { hubRowFields } from "../suite/hub-row-fields.js";
import { decodePrivateTests } from "./decode-private-tests.js";

// Keys of code_generation_lite's test*.jsonl (its loading script's features): question_title, question_content,
// platform, question_id, contest_id, contest_date (ISO), starter_code, difficulty, public_test_cases (a JSON string),
// private_test_cases (a JSON string, or base64 of zlib of a pickled JSON string), metadata (a JSON string).
const HubRowSchema = z.object({
  question_title: z.string(),
  question_content: z.string().min(1),
  platform: z.string(),
  question_id: z.string().min(1),
  contest_date: z.string().min(10),
  starter_code: z.string(),
  difficulty: z.string(),
  public_test_cases: z.string(),
  private_test_cases: z.string(),
  metadata: z.string(),
});

/** The release whose file added the row: test.jsonl is release_v1, test<n>.jsonl release_v<n>. */
export function releaseOfFile(file: string): number {
  const match = /^test(\d*)\.jsonl$/.exec(file);
  if (!match) throw new Error(`${file}: not a code_generation_lite test file`);
  return match[1] === "" ? 1 : Number(match[1]);
}

/** One row: the statement, the starter code, public then private tests, the LeetCode function name, its release and date. */
export function livecodebenchRow(row: Record<string, unknown>, file: string): Record<string, unknown> {
  const fields = hubRowFields(HubRowSchema, row);
  let functionName: string | null = null;
  try {
    const metadata = JSON.parse(fields.metadata) as { func_name?: unknown };
    if (typeof metadata.func_name === "string" && metadata.func_name !== "") functionName = metadata.func_name;
  } catch {
    throw new Error('field "metadata": not JSON');
  }
  let publicTests: unknown;
  try {
    publicTests = JSON.parse(fields.public_test_cases);
  } catch {
    throw new Error('field "public_test_cases": not JSON');
  }
  if (!Array.isArray(publicTests)) throw new Error('field "public_test_cases": not a list');
  return {
    id: fields.question_id,
    question: fields.question_content,
    starter_code: fields.starter_code,
    tests: [...publicTests, ...decodePrivateTests(fields.private_test_cases)],
    fn_name: functionName,
    title: fields.question_title,
    platform: fields.platform,
    difficulty: fields.difficulty,
    contest_date: fields.contest_date,
    release: releaseOfFile(file),
    source: "livecodebench/code_generation_lite",
  };
}

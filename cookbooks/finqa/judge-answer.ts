/** The optional LLM judge (`--set judgeModel=<model>`) for free-text gold answers, asked through the same LlmClient interface as the agent. */
import { z } from "zod";
import type { LlmClient } from "rllm-ts/core";

export interface JudgeVerdict {
  /** undefined when the judge's reply could not be read: the episode stays unscored. */
  isCorrect?: boolean;
  reason: string;
}

// The gist of rLLM's correctness_prompt.txt, with its equivalence rules spelled out.
const judgeInstructions = `You judge whether a model's answer to a financial question matches the reference answer.
Rules: compare the substance, not the wording. "-10%" and "a decrease of 10%" are the same. A decimal and its percentage are the same (0.2 = 20%). Numbers that agree after rounding to the precision of the less precise one are the same. Units must agree (millions vs billions) once stated. If the reference lists several values, the answer must give all of them.
Reply with one JSON object and nothing else: {"correct": true or false, "reason": "<one sentence>"}`;

const JudgeReplySchema = z.object({ correct: z.boolean(), reason: z.string().default("") });

/** Asks `client` whether `answer` matches `groundTruth` for `question`. */
export async function judgeAnswer(
  client: LlmClient,
  input: { question: string; answer: string; groundTruth: string },
  signal?: AbortSignal,
): Promise<JudgeVerdict> {
  const response = await client.chat({
    messages: [
      { role: "system", content: judgeInstructions },
      { role: "user", content: `Question: ${input.question}\nModel answer: ${input.answer}\nReference answer: ${input.groundTruth}` },
    ],
    temperature: 0,
    maxTokens: 512,
    signal,
  });
  return readJudgeReply(response.choices[0]?.text ?? "");
}

/** The verdict in a judge reply: its JSON object, else rLLM's rule (says "true" and not "false"). */
export function readJudgeReply(text: string): JudgeVerdict {
  for (const match of text.matchAll(/\{[^{}]*\}/g)) {
    try {
      const parsed = JudgeReplySchema.safeParse(JSON.parse(match[0]));
      if (parsed.success) return { isCorrect: parsed.data.correct, reason: `judge: ${parsed.data.reason}`.trim() };
    } catch {
      // Not JSON; try the next object or the keyword rule.
    }
  }
  const lower = text.toLowerCase();
  const saysTrue = /\btrue\b/.test(lower);
  const saysFalse = /\bfalse\b/.test(lower);
  if (saysTrue !== saysFalse) return { isCorrect: saysTrue, reason: `judge said ${saysTrue}` };
  return { reason: "the judge's reply had no verdict" };
}

/**
 * A fake vLLM chat server for `rllm train arith`: it answers every other call with the same prompt right (so each
 * task's group is half right whatever order concurrent calls arrive in), rates judge prompts, returns token ids and
 * logprobs the vLLM way, and records each request body.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeArithVllm {
  /** "127.0.0.1:PORT", as verl lists its servers. */
  address: string;
  requests: Record<string, unknown>[];
  close(): Promise<void>;
}

// Only +, - and * on integers: evaluated left to right after the products.
function evaluate(expression: string): number {
  const sums = expression.split(/(?=[+-])/).map((term) => term.split("*").reduce((product, factor) => product * Number(factor), 1));
  return sums.reduce((total, term) => total + term, 0);
}

function reply(content: string, count: number): string {
  if (content.includes("<rating_A>")) return count % 2 === 0 ? "<rating_A>9</rating_A>\n<rating_B>2</rating_B>" : "<rating_A>3</rating_A>\n<rating_B>8</rating_B>";
  const expression = /What is ([\d+\-*]+)\?/.exec(content)?.[1];
  const answer = expression ? evaluate(expression) : 0;
  return `\\boxed{${count % 2 === 0 ? answer : answer + 1}}`;
}

/** Starts the fake on 127.0.0.1. */
export async function startFakeArithVllm(): Promise<FakeArithVllm> {
  const requests: Record<string, unknown>[] = [];
  const callsByPrompt = new Map<string, number>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { messages: { content: string }[] };
      requests.push(body);
      const count = requests.length;
      const content = body.messages.map((message) => message.content).join("\n");
      const promptCalls = (callsByPrompt.get(content) ?? 0) + 1;
      callsByPrompt.set(content, promptCalls);
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          id: `chatcmpl-${count}`,
          object: "chat.completion",
          model: "Qwen/Qwen3-0.6B",
          // Prompt "tokens" are character codes, capped so rows stay short.
          prompt_token_ids: [...content.slice(0, 40)].map((character) => character.charCodeAt(0)),
          choices: [
            {
              index: 0,
              message: { role: "assistant", content: reply(content, promptCalls) },
              finish_reason: "stop",
              token_ids: [900 + (count % 50), 950],
              logprobs: { content: [{ token: "a", logprob: -0.5, top_logprobs: [] }, { token: "b", logprob: -0.25, top_logprobs: [] }] },
            },
          ],
          usage: { prompt_tokens: 40, completion_tokens: 2, total_tokens: 42 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { address: `127.0.0.1:${port}`, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

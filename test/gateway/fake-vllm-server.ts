/** A fake vLLM chat server on 127.0.0.1 that returns token ids and logprobs the vLLM way and records every request body. */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeVllm {
  baseUrl: string;
  requests: Record<string, unknown>[];
  close(): Promise<void>;
}

// Prompt "tokens" are character codes of the concatenated message contents, so a growing chat gives growing prompt ids.
function promptIds(messages: { content: string }[]): number[] {
  return [...messages.map((message) => message.content).join("|")].map((character) => character.charCodeAt(0));
}

/** Starts the fake; each reply's text is "reply <n>", its token ids [900+n, 901+n], logprobs [-0.5, -0.25]. */
export async function startFakeVllm(): Promise<FakeVllm> {
  const requests: Record<string, unknown>[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
      requests.push(body);
      if (body.messages && (body.messages as unknown[]).length === 0) {
        response.writeHead(400, { "content-type": "application/json" });
        response.end(JSON.stringify({ error: { message: "messages must not be empty" } }));
        return;
      }
      const count = requests.length;
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          id: `chatcmpl-${count}`,
          object: "chat.completion",
          model: body.model,
          prompt_token_ids: promptIds(body.messages as { content: string }[]),
          kv_transfer_params: null,
          choices: [
            {
              index: 0,
              message: { role: "assistant", content: `reply ${count}` },
              finish_reason: "stop",
              stop_reason: null,
              token_ids: [900 + count, 901 + count],
              logprobs: {
                content: [
                  { token: "reply", logprob: -0.5, top_logprobs: [] },
                  { token: ` ${count}`, logprob: -0.25, top_logprobs: [] },
                ],
              },
            },
          ],
          usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

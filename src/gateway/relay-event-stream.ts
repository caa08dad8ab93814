/** Relays an upstream server-sent-event stream to the client event by event, letting the caller read and rewrite each JSON chunk. */
import type { IncomingMessage, ServerResponse } from "node:http";

/** Rewrites one parsed `data:` chunk before it is sent on (and may record what it holds). */
export type ChunkRewrite = (chunk: Record<string, unknown>) => Record<string, unknown>;

/**
 * Copies `upstream`'s events to `response` as they arrive. JSON `data:` events go through `rewrite`; `[DONE]`, comments
 * and anything that is not a JSON object pass unchanged. Resolves when the upstream stream ends.
 */
export async function relayEventStream(upstream: IncomingMessage, response: ServerResponse, rewrite: ChunkRewrite): Promise<void> {
  response.writeHead(upstream.statusCode ?? 200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  // Decoded as UTF-8 by the stream, so a character split across two packets is not garbled.
  upstream.setEncoding("utf8");
  let pending = "";
  for await (const chunk of upstream) {
    pending += chunk as string;
    // Events end with a blank line; keep a partial event for the next chunk.
    const events = pending.split(/\r?\n\r?\n/);
    pending = events.pop()!;
    for (const event of events) response.write(`${relayEvent(event, rewrite)}\n\n`);
  }
  if (pending.trim() !== "") response.write(`${relayEvent(pending, rewrite)}\n\n`);
  response.end();
}

function relayEvent(event: string, rewrite: ChunkRewrite): string {
  return event
    .split(/\r?\n/)
    .map((line) => {
      if (!line.startsWith("data:")) return line;
      const data = line.slice(5).trim();
      const json = parseObject(data);
      return json === undefined ? line : `data: ${JSON.stringify(rewrite(json))}`;
    })
    .join("\n");
}

function parseObject(data: string): Record<string, unknown> | undefined {
  if (!data.startsWith("{")) return undefined;
  try {
    return JSON.parse(data) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/**
 * Awaits a Tinker future (backends.md §1.6): polls /retrieve_future; `try_again` and HTTP 408 poll again with backoff,
 * HTTP 410 (the promise is gone) resubmits the original request once, `{error, category}` fails with the category, and
 * `complete_metadata` (a payload too large to inline) fetches the full payload.
 */
import { z } from "zod";
import { TinkerFutureError, TinkerHttpError } from "./tinker-errors.js";
import type { TinkerHttpClient, TinkerReply } from "./tinker-http-client.js";

/** What a mutating call answers: the future's id. */
export const UntypedFutureSchema = z.object({ request_id: z.string() });

const PollReplySchema = z
  .object({
    type: z.string().optional(),
    status: z.string().optional(),
    error: z.string().optional(),
    category: z.string().optional(),
  })
  .passthrough();

/** Poll pacing after a try_again or 408: starts small, since the server may already long-poll. */
export interface PollOptions {
  initialMs: number;
  maxMs: number;
  sleep?: (milliseconds: number) => Promise<void>;
}

/** Default poll pacing. */
export const POLL_DEFAULTS: PollOptions = { initialMs: 10, maxMs: 1000 };

/** Counts of what the poller met, for tests and step metrics. */
export interface PollCounts {
  polls: number;
  tryAgain: number;
  timeouts: number;
  resubmits: number;
}

/** A submission that can be repeated when the future is lost; answers the new future's id. */
export type Submit = () => Promise<string>;

/** Submits, then polls to the result (JSON or protobuf bytes). */
export async function awaitFuture(
  client: TinkerHttpClient,
  submit: Submit,
  options: { acceptProto?: boolean; requestType?: string; poll?: PollOptions; counts?: PollCounts } = {},
): Promise<TinkerReply> {
  const poll = options.poll ?? POLL_DEFAULTS;
  const sleep = poll.sleep ?? ((milliseconds: number) => new Promise<void>((resolve) => setTimeout(resolve, milliseconds)));
  const counts = options.counts ?? { polls: 0, tryAgain: 0, timeouts: 0, resubmits: 0 };
  let requestId = await submit();
  let resubmitted = false;
  let allowMetadataOnly = true;
  let waits = 0;
  for (let iteration = 0; ; iteration++) {
    counts.polls += 1;
    const reply = await client.request(
      "retrieve_future",
      { json: { request_id: requestId, allow_metadata_only: allowMetadataOnly } },
      {
        acceptProto: options.acceptProto,
        passStatuses: [408, 410],
        headers: { "X-Tinker-Request-Iteration": String(iteration), ...(options.requestType ? { "X-Tinker-Request-Type": options.requestType } : {}) },
      },
    );
    if (reply.status === 410) {
      if (resubmitted) throw new TinkerHttpError("retrieve_future", 410, `future ${requestId} was lost again after one resubmission`, iteration + 1);
      resubmitted = true;
      counts.resubmits += 1;
      requestId = await submit();
      waits = 0;
      continue;
    }
    if (reply.proto) return reply;
    const body = PollReplySchema.parse(reply.json ?? {});
    if (reply.status === 408 || body.type === "try_again") {
      if (reply.status === 408) counts.timeouts += 1;
      else counts.tryAgain += 1;
      await sleep(Math.min(poll.maxMs, poll.initialMs * 1.5 ** waits++));
      continue;
    }
    if (body.error !== undefined) throw new TinkerFutureError(requestId, body.category ?? "unknown", body.error);
    if (body.status === "complete_metadata") {
      allowMetadataOnly = false;
      continue;
    }
    return reply;
  }
}

/** Submits a JSON call that answers a future and returns its id. */
export async function submitJson(client: TinkerHttpClient, path: string, body: unknown): Promise<string> {
  const reply = await client.request(path, { json: body });
  return UntypedFutureSchema.parse(reply.json).request_id;
}

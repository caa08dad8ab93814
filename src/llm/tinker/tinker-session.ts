/**
 * A Tinker session: created once, then kept alive by a heartbeat every 10 s on a timer that does not keep the process
 * alive; after 120 s without a successful beat it warns once per outage (the SDK's intervals, backends.md §1.2).
 */
import { z } from "zod";
import type { TinkerHttpClient } from "./tinker-http-client.js";

const CreateSessionReplySchema = z.object({ session_id: z.string(), warning_message: z.string().nullish(), error_message: z.string().nullish() });

export interface SessionOptions {
  heartbeatMs?: number;
  warnAfterMs?: number;
  notify: (message: string) => void;
  now?: () => number;
}

/** A live session and its heartbeat. */
export interface TinkerSession {
  id: string;
  /** Beats that succeeded and failed so far. */
  beats: { ok: number; failed: number };
  /** Sends one heartbeat now (the timer calls this). */
  beat(): Promise<void>;
  close(): void;
}

/** Creates the session and starts its heartbeat. */
export async function openSession(client: TinkerHttpClient, options: SessionOptions): Promise<TinkerSession> {
  const reply = CreateSessionReplySchema.parse(
    (await client.request("create_session", { json: { tags: ["rllm-ts"], user_metadata: {}, sdk_version: "rllm-ts", type: "create_session" } })).json,
  );
  if (reply.error_message) throw new Error(`Tinker create_session: ${reply.error_message}`);
  if (reply.warning_message) options.notify(`Tinker: ${reply.warning_message}`);
  const now = options.now ?? Date.now;
  const warnAfterMs = options.warnAfterMs ?? 120_000;
  let lastSuccess = now();
  let warned = false;
  const session: TinkerSession = {
    id: reply.session_id,
    beats: { ok: 0, failed: 0 },
    async beat() {
      try {
        await client.request("session_heartbeat", { json: { session_id: reply.session_id, type: "session_heartbeat" } });
        session.beats.ok += 1;
        lastSuccess = now();
        warned = false;
      } catch (error) {
        session.beats.failed += 1;
        const missedMs = now() - lastSuccess;
        if (missedMs >= warnAfterMs && !warned) {
          warned = true;
          options.notify(`Tinker: no heartbeat has reached the service for ${Math.round(missedMs / 1000)} s (${(error as Error).message}); the session may expire`);
        }
      }
    },
    close() {
      clearInterval(timer);
    },
  };
  const timer = setInterval(() => void session.beat(), options.heartbeatMs ?? 10_000);
  // The heartbeat alone must not keep a finished run's process alive.
  timer.unref();
  return session;
}

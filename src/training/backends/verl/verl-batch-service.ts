/**
 * The batch service: an HTTP server rllm-ts runs for the verl trainer to pull from. It queues work items (train
 * batches, checkpoint and restore requests, stop), hands each to the registered trainer by long poll, and resolves
 * the item with the trainer's result. A trainer that registers anew (a preempted Ray job restarted) takes over the
 * unfinished items when it lost no update; otherwise they fail with the reason, and `rllm train --resume` recovers.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { randomUUID } from "node:crypto";
import { isSameSecret } from "../../../http/check-api-key.js";
import { decodePathSegment } from "../../../http/decode-path-segment.js";
import { HttpError } from "../../../http/http-error.js";
import { parseRequest } from "../../../http/parse-request.js";
import { readJsonBody } from "../../../http/read-json-body.js";
import { sendJson } from "../../../http/send-json.js";
import { requestPath, startHttpServer } from "../../../http/start-http-server.js";
import {
  BRIDGE_PREFIX,
  RegisterRequestSchema,
  WorkResultSchema,
  type RegisterRequest,
  type WorkItem,
  type WorkResult,
} from "./verl-bridge-protocol.js";

/** Largest request body (a result or a registration; batches only flow out). */
const MAX_BODY_BYTES = 1024 * 1024;
/** The longest a trainer's poll is held open; its client times out later than this. */
const MAX_WAIT_SECONDS = 60;

/** A work item without its id (the service assigns it). */
export type NewWorkItem = WorkItem extends infer Item ? (Item extends WorkItem ? Omit<Item, "id"> : never) : never;

export interface BatchServiceOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** When set, every request must carry `Authorization: Bearer <token>`. */
  token?: string;
  /** Called on every registration (a restarted job brings new rollout servers). */
  onRegister?: (trainer: RegisterRequest) => void;
}

/** A running batch service. */
export interface VerlBatchService {
  /** `http://HOST:PORT`; the trainer's `rllm.bridge_url`. */
  url: string;
  /** The registered trainer, once one registered. */
  trainer(): RegisterRequest | undefined;
  /** Resolves with the current trainer's registration (waiting for one); rejects after `timeoutMs`. */
  waitForTrainer(timeoutMs: number): Promise<RegisterRequest>;
  /** Queues `item`; the promise resolves with the trainer's result (a failed result resolves too). */
  enqueue(item: NewWorkItem): Promise<WorkResult>;
  close(): Promise<void>;
}

interface QueuedItem {
  item: WorkItem;
  /** The trainer instance holding it, once handed out. */
  leasedTo?: string;
  resolve: (result: WorkResult) => void;
}

/** Starts the batch service; resolves once it listens. */
export async function startVerlBatchService(options: BatchServiceOptions): Promise<VerlBatchService> {
  let current: RegisterRequest | undefined;
  // The global step the run has reached, from the last result (or registration).
  let knownGlobalStep: number | undefined;
  const queue: QueuedItem[] = [];
  const pollers: (() => void)[] = [];
  const trainerWaiters: ((trainer: RegisterRequest) => void)[] = [];

  const wakePollers = () => {
    for (const wake of pollers.splice(0)) wake();
  };

  function register(request: RegisterRequest): void {
    const replaced = current && current.instanceId !== request.instanceId;
    current = request;
    if (replaced) {
      const leased = queue.filter((entry) => entry.leasedTo !== undefined);
      if (knownGlobalStep !== undefined && request.globalStep !== knownGlobalStep) {
        // The restarted job loaded an older checkpoint: the updates since are lost, so nothing queued can go on.
        const error =
          `the verl job restarted at global step ${request.globalStep}, but the run had reached step ${knownGlobalStep}: ` +
          "updates since the last checkpoint were lost; rerun rllm train with --resume to continue from the last checkpoint";
        for (const entry of queue.splice(0)) entry.resolve({ instanceId: request.instanceId, state: "failed", globalStep: request.globalStep, metrics: {}, error });
      } else {
        for (const entry of leased) entry.leasedTo = undefined;
      }
    }
    knownGlobalStep = request.globalStep;
    options.onRegister?.(request);
    for (const waiter of trainerWaiters.splice(0)) waiter(request);
    wakePollers();
  }

  function assertCurrent(instanceId: string | null): void {
    if (!current) throw new HttpError(409, "no trainer registered; POST /bridge/v1/register first");
    if (instanceId !== current.instanceId) {
      throw new HttpError(409, `trainer instance "${instanceId}" was replaced by "${current.instanceId}"`, "invalid_request_error", "instanceId");
    }
  }

  async function nextItem(instanceId: string, waitSeconds: number): Promise<WorkItem | undefined> {
    const deadline = Date.now() + waitSeconds * 1000;
    for (;;) {
      if (current?.instanceId !== instanceId) return undefined;
      const free = queue.find((entry) => entry.leasedTo === undefined);
      if (free) {
        free.leasedTo = instanceId;
        return free.item;
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0) return undefined;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        pollers.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (options.token !== undefined && !isSameSecret(request.headers.authorization ?? "", `Bearer ${options.token}`)) {
      throw new HttpError(401, "missing or wrong bearer token for the rllm verl bridge");
    }
    const url = new URL(request.url ?? "/", "http://bridge");
    const route = requestPath(request);
    const method = request.method ?? "GET";
    if (route === `${BRIDGE_PREFIX}/register` && method === "POST") {
      register(parseRequest(RegisterRequestSchema, await readJsonBody(request, MAX_BODY_BYTES)));
      sendJson(response, 200, { ok: true });
      return;
    }
    if (route === `${BRIDGE_PREFIX}/work` && method === "GET") {
      const instanceId = url.searchParams.get("instanceId");
      assertCurrent(instanceId);
      const waitSeconds = Math.min(MAX_WAIT_SECONDS, Math.max(0, Number(url.searchParams.get("waitSeconds") ?? 0) || 0));
      const item = await nextItem(instanceId!, waitSeconds);
      if (item) sendJson(response, 200, item);
      else {
        response.writeHead(204);
        response.end();
      }
      return;
    }
    const result = new RegExp(`^${BRIDGE_PREFIX}/results/([^/]+)$`).exec(route);
    if (result && method === "POST") {
      const body = parseRequest(WorkResultSchema, await readJsonBody(request, MAX_BODY_BYTES));
      assertCurrent(body.instanceId);
      const itemId = decodePathSegment(result[1]!, "the work item id");
      const index = queue.findIndex((entry) => entry.item.id === itemId && entry.leasedTo === body.instanceId);
      if (index < 0) throw new HttpError(404, `no work item "${result[1]}" is leased to trainer "${body.instanceId}"`);
      const [entry] = queue.splice(index, 1);
      knownGlobalStep = body.globalStep;
      entry!.resolve(body);
      sendJson(response, 200, { ok: true });
      return;
    }
    throw new HttpError(404, `no bridge route ${method} ${route}`);
  }

  const server = await startHttpServer(handle, { host: options.host, port: options.port });
  return {
    url: server.origin,
    trainer: () => current,
    waitForTrainer(timeoutMs) {
      if (current) return Promise.resolve(current);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no verl trainer registered at ${server.origin}${BRIDGE_PREFIX}/register within ${timeoutMs / 1000} s`)), timeoutMs);
        trainerWaiters.push((trainer) => {
          clearTimeout(timer);
          resolve(trainer);
        });
      });
    },
    enqueue(item) {
      return new Promise((resolve) => {
        queue.push({ item: { ...item, id: randomUUID() } as WorkItem, resolve });
        wakePollers();
      });
    },
    async close() {
      wakePollers();
      await server.close();
    },
  };
}

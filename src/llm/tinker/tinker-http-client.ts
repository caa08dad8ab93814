/**
 * The Tinker HTTP client: JSON or protobuf bodies (zstd-compressed when asked), the credential in X-API-Key, retries
 * with backoff on 408/409/429/5xx and connection errors (once the service has answered; before that, a connection error
 * means it is unreachable), never on 400/401/403/404/422; 402 (billing) pauses and says so.
 */
import { Zstd } from "@hpcc-js/wasm-zstd";
import type { CredentialSource } from "./tinker-credentials.js";
import { TinkerAuthError, TinkerConnectionLostError, TinkerHttpError, TinkerUnreachableError } from "./tinker-errors.js";
import { isRetryableStatus } from "../retry-policy.js";
import { backoffDelay, TINKER_RETRY_DEFAULTS, type BackoffOptions } from "./retry-policy.js";

/** A request body: JSON, or protobuf bytes (optionally zstd-compressed on the wire). */
export type TinkerBody = { json: unknown } | { proto: Uint8Array; compress?: boolean };

/** A reply: parsed JSON, or protobuf bytes; with its status. */
export interface TinkerReply {
  status: number;
  json?: unknown;
  proto?: Uint8Array;
}

export interface TinkerHttpOptions {
  baseUrl: string;
  credentials: CredentialSource;
  retry?: BackoffOptions;
  /** How long one 402 (billing) pause lasts, and the most pausing before giving up. */
  billingPauseMs?: number;
  maxBillingPauseMs?: number;
  /** Says something the user should know (a billing pause); the CLI prints it on stderr. */
  notify?: (message: string) => void;
  sleep?: (milliseconds: number) => Promise<void>;
  /** Who answers, for error messages, and where its key comes from: Tinker's by default; Fireworks' gateway speaks the same wire. */
  service?: { name: string; keySource: string };
}

/** Per-request options. */
export interface RequestOptions {
  method?: "GET" | "POST";
  /** Ask for protobuf replies (the SDK does for forward_backward and sample results). */
  acceptProto?: boolean;
  /** Statuses returned to the caller instead of retried or thrown (the futures poller handles 408 and 410). */
  passStatuses?: readonly number[];
  headers?: Record<string, string>;
}

const sleepFor = (milliseconds: number) => new Promise<void>((resolve) => setTimeout(resolve, milliseconds));

let zstd: Promise<Zstd> | undefined;
/** The wasm zstd codec, loaded once. */
export function loadZstd(): Promise<Zstd> {
  zstd ??= Zstd.load();
  return zstd;
}

/** A client bound to one base URL and credential. */
export class TinkerHttpClient {
  private readonly retry: BackoffOptions;
  private readonly sleep: (milliseconds: number) => Promise<void>;
  private readonly service: { name: string; keySource: string };
  /** Whether the service has answered any request of this client. */
  private answered = false;
  /** Why the service was lost (a request's retries all failed to connect); later requests fail at once until it answers. */
  private lostDetail: string | undefined;

  constructor(private readonly options: TinkerHttpOptions) {
    this.retry = options.retry ?? TINKER_RETRY_DEFAULTS;
    this.sleep = options.sleep ?? sleepFor;
    this.service = options.service ?? { name: "Tinker", keySource: "TINKER_API_KEY (or TINKER_CREDENTIAL_CMD)" };
  }

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  /** Whether the service stopped answering (see TinkerConnectionLostError). */
  get isLost(): boolean {
    return this.lostDetail !== undefined;
  }

  /** Sends `body` to `/api/v1/<path>` with retries; a 401 throws TinkerAuthError, other refusals TinkerHttpError. */
  async request(path: string, body: TinkerBody | undefined, options: RequestOptions = {}): Promise<TinkerReply> {
    const url = `${this.options.baseUrl}/api/v1/${path}`;
    const { headers, payload } = await this.encodeBody(body);
    let retries = 0;
    let billingPaused = 0;
    for (let attempt = 1; ; attempt++) {
      // Outside the try: a missing key is the user's to fix, not a connection failure to retry.
      const key = this.options.credentials();
      let response: Response;
      try {
        response = await fetch(url, {
          method: options.method ?? "POST",
          headers: {
            "X-API-Key": key,
            "X-Idempotency-Key": `${path}-${attempt}-${Math.random().toString(36).slice(2)}`,
            ...(options.acceptProto ? { Accept: "application/x-protobuf" } : {}),
            ...headers,
            ...options.headers,
          },
          ...(payload ? { body: payload } : {}),
        });
      } catch (error) {
        // A service that has never answered is down or misaddressed, not flaky: say so now instead of retrying for a minute.
        if (!this.answered) throw new TinkerUnreachableError(this.options.baseUrl, connectionFailure(error), this.service.name);
        // Once one request has spent its retries on a dead connection, the rest (heartbeats, unload_model on close)
        // fail at once: one error, not another minute of retries per request.
        if (this.lostDetail !== undefined || retries >= this.retry.maxRetries) {
          this.lostDetail = connectionFailure(error);
          throw new TinkerConnectionLostError(this.options.baseUrl, path, this.lostDetail, attempt, this.service.name);
        }
        await this.sleep(backoffDelay(this.retry, retries++));
        continue;
      }
      this.answered = true;
      this.lostDetail = undefined;
      const status = response.status;
      if (response.ok || options.passStatuses?.includes(status)) return readReply(response);
      const detail = await response.text();
      if (status === 401) throw new TinkerAuthError(path, detail, this.service.name, this.service.keySource);
      if (status === 402) {
        const pause = this.options.billingPauseMs ?? 30_000;
        if (billingPaused + pause > (this.options.maxBillingPauseMs ?? 300_000)) throw new TinkerHttpError(path, status, detail, attempt, this.service.name);
        (this.options.notify ?? process.emitWarning)(`${this.service.name}: billing limit reached (HTTP 402: ${detail}); pausing ${pause / 1000} s before retrying`);
        billingPaused += pause;
        await this.sleep(pause);
        continue;
      }
      if (!isRetryableStatus(status) || retries >= this.retry.maxRetries) throw new TinkerHttpError(path, status, detail, attempt, this.service.name);
      await this.sleep(backoffDelay(this.retry, retries++));
    }
  }

  private async encodeBody(body: TinkerBody | undefined): Promise<{ headers: Record<string, string>; payload?: Uint8Array<ArrayBuffer> | string }> {
    if (!body) return { headers: {} };
    if ("json" in body) return { headers: { "Content-Type": "application/json" }, payload: JSON.stringify(body.json) };
    if (!body.compress) return { headers: { "Content-Type": "application/x-protobuf" }, payload: new Uint8Array(body.proto) };
    const codec = await loadZstd();
    return { headers: { "Content-Type": "application/x-protobuf", "Content-Encoding": "zstd" }, payload: new Uint8Array(codec.compress(body.proto)) };
  }
}

/** Why a fetch failed: it says only "fetch failed", and the reason (ECONNREFUSED, ENOTFOUND...) is in its cause. */
export function connectionFailure(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.message ?? cause?.code ?? (error as Error).message;
}

async function readReply(response: Response): Promise<TinkerReply> {
  const type = response.headers.get("content-type") ?? "";
  if (type.includes("protobuf")) return { status: response.status, proto: new Uint8Array(await response.arrayBuffer()) };
  const text = await response.text();
  return { status: response.status, json: text === "" ? undefined : JSON.parse(text) };
}

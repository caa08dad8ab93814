/** A minimal client of one SandboxFusion-compatible service's `/run_code`: every failure of the host is a HostFailureError. */
import { type HostLimits, limitHeaders, runCodeUrl, type RunCodeRequest, type RunCodeResponse, RunCodeResponseSchema } from "../../core/sandbox-fusion-protocol.js";
import { HostFailureError } from "./host-failure-error.js";

export interface RunCodeCallOptions {
  apiKey?: string;
  /** Whole-request limit; verl uses compile + run timeout + 10 s. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Called with the limits the service states in its reply's headers (limitHeaders), whatever its status. */
  onLimits?: (limits: HostLimits) => void;
}

/**
 * Sends one run to `base` and returns its validated reply. Refused connections, time-outs, HTTP errors and replies
 * that are not a RunCodeResponse throw HostFailureError: the caller decides, with a control run, whose fault it was.
 */
export async function callRunCode(base: string, request: RunCodeRequest, options: RunCodeCallOptions): Promise<RunCodeResponse> {
  const url = runCodeUrl(base);
  const signals = [AbortSignal.timeout(options.timeoutMs), ...(options.signal ? [options.signal] : [])];
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
      body: JSON.stringify(request),
      signal: AbortSignal.any(signals),
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    const cause = error as Error & { cause?: { code?: string } };
    const isTimeout = cause.name === "TimeoutError";
    throw new HostFailureError(base, isTimeout ? `no reply within ${options.timeoutMs} ms` : (cause.cause?.code ?? cause.message), undefined, undefined, isTimeout);
  }
  const limits = statedLimits(response.headers);
  if (limits && options.onLimits) options.onLimits(limits);
  const text = await response.text().catch((error: Error) => {
    throw new HostFailureError(base, `reply broke off: ${error.message}`);
  });
  if (!response.ok) throw new HostFailureError(base, `HTTP ${response.status}: ${text.slice(0, 200)}`, response.status, retryAfterMs(response));
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HostFailureError(base, `reply is not JSON: ${text.slice(0, 200)}`);
  }
  const parsed = RunCodeResponseSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new HostFailureError(base, `reply is not a RunCodeResponse: field "${issue?.path.join(".") || "(root)"}": ${issue?.message}`);
  }
  return parsed.data;
}

/**
 * Whether the service at `base` answers HTTP at all, asked on SandboxFusion's liveness route (`GET /v1/ping`; any
 * status counts as an answer, so a key it refuses is left to the runs): undefined when it answers, else why not.
 */
export async function probeSandboxHost(base: string, timeoutMs = 5_000): Promise<string | undefined> {
  const url = `${runCodeUrl(base).slice(0, -"/run_code".length)}/v1/ping`;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return undefined;
  } catch (error) {
    const cause = error as Error & { cause?: { code?: string } };
    // fetch's own message is "fetch failed"; the reason (ECONNREFUSED, a bad port) is in its cause.
    const reason = cause.cause as { code?: string; message?: string } | undefined;
    return cause.name === "TimeoutError" ? `no reply within ${timeoutMs} ms` : (reason?.code ?? reason?.message ?? cause.message);
  }
}

function statedLimits(headers: Headers): HostLimits | undefined {
  const read = (name: string) => {
    const value = Number(headers.get(name) ?? Number.NaN);
    return Number.isFinite(value) && value > 0 ? value : undefined;
  };
  const limits = { runTimeoutSeconds: read(limitHeaders.runTimeoutSeconds), bodyBytes: read(limitHeaders.bodyBytes), outputBytes: read(limitHeaders.outputBytes) };
  return Object.values(limits).every((value) => value === undefined) ? undefined : limits;
}

function retryAfterMs(response: Response): number | undefined {
  const header = response.headers.get("retry-after");
  const seconds = header === null ? Number.NaN : Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

/**
 * The pre-flight check of an OpenAI-compatible endpoint: one models-list request (and, when the list does not settle
 * it, one 1-token completion) with a short timeout, so a dead URL, a refused key or an unknown model stops a run at
 * once instead of after minutes of retries.
 */
import { describeConnectionFailure } from "./connection-failure.js";
import { createNodeHttpFetch } from "./node-http-fetch.js";

/** What is wrong with an endpoint: nothing answers, it refuses the key, or it does not serve the model. */
export interface EndpointProblem {
  kind: "unreachable" | "refused-key" | "unknown-model";
  /** In words: "connection refused", "HTTP 401: invalid key", "HTTP 404: model not found". */
  cause: string;
}

/** What to check and how long to wait for each request. */
export interface EndpointCheck {
  baseUrl: string;
  model: string;
  apiKey?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** The problem with the endpoint, or undefined when it answers for the model (or answers in a way left to the run). */
export async function checkEndpoint(check: EndpointCheck): Promise<EndpointProblem | undefined> {
  // node:http, not the built-in fetch: the latter refuses "bad ports" such as 9 before it even tries to connect.
  const request = check.fetch ?? createNodeHttpFetch();
  const base = check.baseUrl.replace(/\/+$/, "");
  const headers: Record<string, string> = { "content-type": "application/json", ...(check.apiKey ? { authorization: `Bearer ${check.apiKey}` } : {}) };
  const send = async (path: string, body?: object): Promise<Response | EndpointProblem> => {
    try {
      return await request(`${base}${path}`, {
        method: body ? "POST" : "GET",
        headers,
        ...(body ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(check.timeoutMs ?? 5_000),
      });
    } catch (error) {
      return { kind: "unreachable", cause: describeConnectionFailure(error) };
    }
  };
  const models = await send("/models");
  if (!(models instanceof Response)) return models;
  if (models.status === 401 || models.status === 403) return { kind: "refused-key", cause: await statusText(models) };
  if (models.ok && (await listsModelOrNothing(models, check.model))) return undefined;
  // No list, or one that names other models (some servers list only aliases): ask for the model itself, one token.
  const completion = await send("/chat/completions", { model: check.model, messages: [{ role: "user", content: "hi" }], max_tokens: 1 });
  if (!(completion instanceof Response)) return completion;
  if (completion.status === 401 || completion.status === 403) return { kind: "refused-key", cause: await statusText(completion) };
  if (completion.status === 404) return { kind: "unknown-model", cause: await statusText(completion) };
  // Anything else (a 5xx, a 429, a 400 on our tiny prompt) is the run's to retry or record.
  await completion.body?.cancel();
  return undefined;
}

// A list that names the model settles it; so does an empty one, which says nothing against it.
async function listsModelOrNothing(response: Response, model: string): Promise<boolean> {
  try {
    const body = (await response.json()) as { data?: Array<{ id?: unknown }> };
    return Array.isArray(body.data) && (body.data.length === 0 || body.data.some((entry) => entry.id === model));
  } catch {
    return false;
  }
}

// "HTTP 404: The model `x` does not exist": the server's own message when its body has one.
async function statusText(response: Response): Promise<string> {
  const text = await response.text().catch(() => "");
  let message = text.slice(0, 200);
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const found = typeof body.error === "string" ? body.error : (body.error?.message ?? body.message);
    if (typeof found === "string") message = found;
  } catch {
    // Not JSON: the text itself, cut short.
  }
  return `HTTP ${response.status}${message.trim() ? `: ${message.trim()}` : ""}`;
}

/** Whether anything answers HTTP at `url` (a Tinker service, which has no models list): undefined, or why not. */
export async function checkReachable(url: string, options: { timeoutMs?: number; fetch?: typeof fetch } = {}): Promise<EndpointProblem | undefined> {
  try {
    const response = await (options.fetch ?? createNodeHttpFetch())(url, { signal: AbortSignal.timeout(options.timeoutMs ?? 5_000) });
    await response.body?.cancel();
    return undefined;
  } catch (error) {
    return { kind: "unreachable", cause: describeConnectionFailure(error) };
  }
}

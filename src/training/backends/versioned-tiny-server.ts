/**
 * The local backend's sampler server: the tiny model's OpenAI chat and text completions on several policy versions at
 * once, so async rollouts keep sampling a version while the learner trains the next. `model: "tiny"` is the newest
 * version, `tiny@v<n>` (pinnedModelName) version n while it is held; every reply carries vLLM's `weight_version`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { HttpError } from "../../http/http-error.js";
import { parseRequest } from "../../http/parse-request.js";
import { readJsonBody } from "../../http/read-json-body.js";
import { sendJson } from "../../http/send-json.js";
import { requestPath, startHttpServer } from "../../http/start-http-server.js";
import { chatCompletion, textCompletion } from "../../models/server/completion-handlers.js";
import { ChatCompletionRequestSchema, CompletionRequestSchema } from "../../models/server/server-schemas.js";
import { servedTinyModel, TINY_MODEL_NAME, TINY_SERVER_MAX_BODY_BYTES } from "../../models/tiny/server.js";
import type { TinyModel } from "../../models/tiny/tiny-model.js";
import { parsePinnedModelName } from "./pinned-model-name.js";

/** A running server and the versions it holds. */
export interface VersionedTinyServer {
  /** Its OpenAI base URL, `http://127.0.0.1:PORT/v1`. */
  baseUrl: string;
  /** Serves `model` as `version` from now on; the newest version answers the plain model name. */
  publish(version: number, model: TinyModel): void;
  /** Keeps only these versions and the newest. */
  retain(versions: readonly number[]): void;
  close(): Promise<void>;
}

/** Starts the server on a free 127.0.0.1 port with `model` as version `version`. */
export async function startVersionedTinyServer(version: number, model: TinyModel): Promise<VersionedTinyServer> {
  const versions = new Map<number, TinyModel>([[version, model]]);
  let newest = version;
  const resolve = (name: string | undefined, stream: boolean | null | undefined): { model: TinyModel; version: number } => {
    if (stream) throw new HttpError(400, "stream is not supported by the training sampler", "invalid_request_error", "stream");
    const { model: base, version: pinned } = parsePinnedModelName(name ?? TINY_MODEL_NAME);
    if (base !== TINY_MODEL_NAME) throw new HttpError(404, `The model \`${name}\` does not exist. This server serves \`${TINY_MODEL_NAME}\` (and \`${TINY_MODEL_NAME}@v<version>\`).`, "invalid_request_error", "model");
    const chosen = pinned ?? newest;
    const found = versions.get(chosen);
    if (!found) throw new HttpError(404, `Policy version ${chosen} is no longer served (held: ${[...versions.keys()].join(", ")}).`, "invalid_request_error", "model");
    return { model: found, version: chosen };
  };
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const route = requestPath(request);
    if (request.method === "GET" && (route === "/v1/models" || route === "")) {
      sendJson(response, 200, { object: "list", data: [...versions.keys()].map((held) => ({ id: held === newest ? TINY_MODEL_NAME : `${TINY_MODEL_NAME}@v${held}`, object: "model", owned_by: "rllm-ts" })) });
      return;
    }
    if (request.method !== "POST" || (route !== "/v1/chat/completions" && route !== "/v1/completions")) throw new HttpError(404, `No route ${request.method} ${route || "/"}`, "not_found_error");
    const body = await readJsonBody(request, TINY_SERVER_MAX_BODY_BYTES);
    let reply: unknown;
    let version: number;
    if (route === "/v1/chat/completions") {
      const parsed = parseRequest(ChatCompletionRequestSchema, body);
      const served = resolve(parsed.model ?? undefined, parsed.stream);
      version = served.version;
      reply = await chatCompletion(servedTinyModel(served.model), { ...parsed, model: TINY_MODEL_NAME });
    } else {
      const parsed = parseRequest(CompletionRequestSchema, body);
      const served = resolve(parsed.model ?? undefined, parsed.stream);
      version = served.version;
      reply = await textCompletion(servedTinyModel(served.model), { ...parsed, model: TINY_MODEL_NAME });
    }
    sendJson(response, 200, { ...(reply as Record<string, unknown>), weight_version: version });
  };
  const server = await startHttpServer(handle, { host: "127.0.0.1", port: 0 });
  return {
    baseUrl: `${server.origin}/v1`,
    publish(next, nextModel) {
      // A restore may go back to an earlier version: anything newer belongs to weights that no longer exist.
      for (const held of versions.keys()) if (held > next) versions.delete(held);
      versions.set(next, nextModel);
      newest = next;
    },
    retain(kept) {
      const keep = new Set([...kept, newest]);
      for (const held of versions.keys()) if (!keep.has(held)) versions.delete(held);
    },
    close: server.close,
  };
}

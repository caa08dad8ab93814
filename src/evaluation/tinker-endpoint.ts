/** `rllm eval --backend tinker`: the endpoint is a Tinker policy (base model or tinker:// sampler path) behind a local chat endpoint. */
import { InputError } from "../core/errors/input-error.js";
import { optionName, usageMessage } from "../core/errors/option-name.js";
import type { Endpoint, EndpointPlan } from "./resolve-endpoint.js";

/** The options it reads. */
export interface TinkerEndpointOptions {
  baseUrl?: string;
  model?: string;
  tokenizer?: string;
}

/** Checks the options: --model names the base model or the tinker:// path; --base-url the Tinker service. */
export async function planTinkerEndpoint(options: TinkerEndpointOptions): Promise<EndpointPlan> {
  if (!options.model) throw new InputError(usageMessage`${optionName("backend")} tinker needs ${optionName("model")} (a base model or a tinker://…/sampler_weights/… path)`);
  const { tinkerBaseUrl } = await import("../llm/tinker/tinker-credentials.js");
  return { isEmbedded: false, baseUrl: tinkerBaseUrl(options.baseUrl), model: options.model };
}

/** Opens the policy and its chat endpoint on 127.0.0.1, telling `notify` how it goes; close it in a `finally`. */
export async function openTinkerEndpoint(options: TinkerEndpointOptions, notify: (message: string) => void): Promise<Endpoint> {
  const [{ createTinkerClient }, { loadChatRenderer }, { openTinkerPolicy }] = await Promise.all([
    import("../llm/tinker/create-tinker-client.js"),
    import("../llm/tinker/load-chat-renderer.js"),
    import("../llm/tinker/open-tinker-policy.js"),
  ]);
  const policy = await openTinkerPolicy({
    client: createTinkerClient(options.baseUrl, notify),
    model: options.model!,
    loadRenderer: (tokenizerId) => loadChatRenderer(tokenizerId, options.tokenizer),
    notify,
  });
  return { baseUrl: policy.baseUrl, model: policy.model, isEmbedded: false, close: policy.close };
}

/** The pre-flight check before a run that needs an endpoint: a dead URL, a refused key or an unknown model stops it at once. */
import { EndpointUnavailableError } from "../core/errors/endpoint-unavailable-error.js";
import { InputError } from "../core/errors/input-error.js";
import { optionName, usageMessage } from "../core/errors/option-name.js";
import { checkEndpoint, checkReachable } from "../llm/check-endpoint.js";

/**
 * Throws when the endpoint cannot serve the run: an EndpointUnavailableError (exit 1) when nothing answers or the key
 * is refused, an InputError naming --model (exit 2) when the server does not know the model.
 */
export async function assertEndpointAnswers(endpoint: { baseUrl: string; model: string; apiKey?: string }): Promise<void> {
  const problem = await checkEndpoint(endpoint);
  if (problem === undefined) return;
  if (problem.kind === "unknown-model") throw new InputError(usageMessage`${optionName("model")} ${endpoint.model}: ${endpoint.baseUrl} does not serve it (${problem.cause})`);
  const hint = problem.kind === "refused-key" ? " (check the API key: --api-key-env names the variable, OPENAI_API_KEY by default)" : "";
  throw new EndpointUnavailableError(endpoint.baseUrl, endpoint.model, `${problem.cause}${hint}`);
}

/** Throws an EndpointUnavailableError (exit 1) when nothing answers HTTP at a training service's URL. */
export async function assertServiceReachable(baseUrl: string, model: string): Promise<void> {
  const problem = await checkReachable(baseUrl);
  if (problem !== undefined) throw new EndpointUnavailableError(baseUrl, model, problem.cause);
}

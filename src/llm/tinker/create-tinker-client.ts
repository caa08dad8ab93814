/**
 * The Tinker HTTP client of a run: the base URL (explicit, TINKER_BASE_URL or the service) and the credential from
 * the environment, read at the first request; a local Tinker server on loopback gets a development key when none is set.
 */
import { tinkerBaseUrl, tinkerCredentials, type CredentialSource } from "./tinker-credentials.js";
import { TinkerHttpClient } from "./tinker-http-client.js";

/** The key sent to a local Tinker server on loopback when no TINKER_API_KEY is set (it accepts any tml- key). */
export const LOOPBACK_DEVELOPMENT_KEY = "tml-local-development";

/** The client for a base URL (explicit, TINKER_BASE_URL or the service) and the environment's credential. */
export function createTinkerClient(explicitBaseUrl: string | undefined, notify?: (message: string) => void): TinkerHttpClient {
  const baseUrl = tinkerBaseUrl(explicitBaseUrl);
  return new TinkerHttpClient({ baseUrl, credentials: credentialsFor(baseUrl), notify });
}

function credentialsFor(baseUrl: string): CredentialSource {
  const loopback = /^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?(\/|$)/.test(baseUrl);
  if (loopback && !process.env.TINKER_API_KEY && !process.env.TINKER_CREDENTIAL_CMD) return () => LOOPBACK_DEVELOPMENT_KEY;
  // Read at the first request, so that a backend built only to list its capabilities needs no key.
  let source: CredentialSource | undefined;
  return () => {
    source ??= tinkerCredentials();
    return source();
  };
}

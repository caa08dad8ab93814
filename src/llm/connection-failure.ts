/** Why a connection failed, in words: the system error code buried in a fetch or SDK error's chain of causes. */

// The codes a first run meets most: a server not started, a mistyped host, a firewall, a server that went away.
const reasons: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "host not found (DNS lookup failed)",
  EAI_AGAIN: "host not found (DNS lookup failed)",
  ETIMEDOUT: "connection timed out",
  UND_ERR_CONNECT_TIMEOUT: "connection timed out",
  ECONNRESET: "connection reset",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  UND_ERR_SOCKET: "connection closed by the server",
};

/** "connection refused", "host not found (DNS lookup failed)"…, or the innermost error's message when no code is known. */
export function describeConnectionFailure(error: unknown): string {
  let innermost: unknown = error;
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 8; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && reasons[code]) return reasons[code]!;
    // AggregateError (happy eyeballs: one refusal per address) holds its causes in `errors`.
    const [first] = (current as { errors?: unknown[] }).errors ?? [];
    innermost = current;
    current = current.cause ?? first;
  }
  if (innermost instanceof Error && innermost.name === "TimeoutError") return "no answer in time";
  return innermost instanceof Error ? innermost.message : String(innermost);
}

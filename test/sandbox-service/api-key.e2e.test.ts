// `rllm sandbox serve`'s API key against header bytes a client may send: a key of the right length in characters but
// not in bytes (a non-ASCII header: node reads header bytes as Latin-1) was an HTTP 500, from timingSafeEqual on
// buffers of different lengths; it is a 401 (issue #44).
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandboxService, type RunningSandboxService } from "../../src/sandbox-service/sandbox-service.js";
import { openLocalPrograms } from "../../src/sandbox/local/local-programs.js";
import { resolvePython } from "../../src/sandbox/local/resolve-python.js";

const key = "kk";
let service: RunningSandboxService;

beforeAll(async () => {
  const programs = await openLocalPrograms({ python: (await resolvePython()).installation, concurrency: 1 });
  service = await startSandboxService({ host: "127.0.0.1", port: 0, programs, apiKey: key });
});
afterAll(() => service.close());

/** The status of a POST /run_code whose extra header line is sent as exactly these bytes. */
function statusWith(headerLine: Buffer): Promise<number> {
  const { hostname, port } = new URL(service.origin);
  const body = JSON.stringify({ code: "print(42)", language: "python" });
  const head = `POST /run_code HTTP/1.1\r\nhost: ${hostname}:${port}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n`;
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let reply = "";
    socket.on("data", (chunk) => (reply += chunk.toString("latin1")));
    socket.on("end", () => resolve(Number(/^HTTP\/1\.1 (\d+)/.exec(reply)?.[1] ?? 0)));
    socket.on("error", reject);
    // Written, not ended: the reply comes after the run, and the server closes the connection after it.
    socket.write(Buffer.concat([Buffer.from(head, "latin1"), headerLine, Buffer.from(`\r\n\r\n${body}`, "latin1")]));
  });
}

describe("rllm sandbox serve's API key", () => {
  // "é" in UTF-8 is two bytes, read as two Latin-1 characters: the length of "kk" in characters, four bytes in UTF-8.
  const nonAscii = Buffer.from("é", "utf8");

  it("answers 401 to a non-ASCII key of the key's length in characters, as X-API-Key or as a bearer token", async () => {
    expect(await statusWith(Buffer.concat([Buffer.from("x-api-key: "), nonAscii]))).toBe(401);
    expect(await statusWith(Buffer.concat([Buffer.from("authorization: Bearer "), nonAscii]))).toBe(401);
  });

  it("runs the request with the right key, either way", async () => {
    expect(await statusWith(Buffer.from(`x-api-key: ${key}`))).toBe(200);
    expect(await statusWith(Buffer.from(`authorization: Bearer ${key}`))).toBe(200);
  });
});

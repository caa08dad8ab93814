/** Posts a JSON body of a given size over node:http and reads the reply, to check a server's body limit (tests only). */
import http from "node:http";

/** The status and parsed body of the reply to a POST of `bytes` bytes of valid JSON to `url`. */
export async function postOversizedBody(url: string, bytes: number): Promise<{ status: number; body: any }> {
  // A valid JSON object padded to size, so only the size can be the reason for a refusal.
  const prefix = '{"messages":[{"role":"user","content":"';
  const suffix = '"}]}';
  const payload = Buffer.alloc(bytes, "a");
  payload.write(prefix, 0);
  payload.write(suffix, bytes - suffix.length);
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: "POST", headers: { "content-type": "application/json", "content-length": bytes } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) }));
    });
    request.on("error", reject);
    request.end(payload);
  });
}

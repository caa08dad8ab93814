/**
 * A local Hugging Face Hub mirror for pull tests (HF_ENDPOINT): serves files as the Hub does at
 * /datasets/<repo>/resolve/<revision>/<path>, lists folders at /api/datasets/<repo>/tree/<revision>/<folder>, and
 * answers 401 for a gated repository unless the request carries its token as a bearer token.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

/** One repository the mirror serves at one revision. */
export interface MirroredRepo {
  repo: string;
  revision: string;
  /** File path in the repo → its bytes (or text). */
  files: Record<string, Uint8Array | string>;
  /** A gated repository: files are served only with `authorization: Bearer <token>`. */
  token?: string;
}

export interface HubMirror {
  endpoint: string;
  /** Each request's path and authorization header, in order. */
  requests: { url: string; authorization?: string }[];
  close(): Promise<void>;
}

/** Starts the mirror on 127.0.0.1 at a free port. */
export async function startHubMirror(repos: readonly MirroredRepo[]): Promise<HubMirror> {
  const requests: HubMirror["requests"] = [];
  const server = http.createServer((request, response) => {
    const url = decodeURIComponent(request.url ?? "");
    requests.push({ url, authorization: request.headers.authorization });
    for (const mirrored of repos) {
      const resolvePrefix = `/datasets/${mirrored.repo}/resolve/${mirrored.revision}/`;
      const treePrefix = `/api/datasets/${mirrored.repo}/tree/${mirrored.revision}`;
      if (!url.startsWith(resolvePrefix) && !url.startsWith(treePrefix)) continue;
      if (mirrored.token !== undefined && request.headers.authorization !== `Bearer ${mirrored.token}`) {
        response.writeHead(401, { "content-type": "application/json" });
        response.end(JSON.stringify({ error: "Access to this dataset is restricted" }));
        return;
      }
      if (url.startsWith(resolvePrefix)) {
        const body = mirrored.files[url.slice(resolvePrefix.length)];
        if (body === undefined) break;
        response.writeHead(200, { "content-type": "application/octet-stream" });
        response.end(typeof body === "string" ? body : Buffer.from(body));
        return;
      }
      const folder = url.slice(treePrefix.length).replace(/^\//, "");
      const entries = Object.keys(mirrored.files)
        .filter((file) => (folder === "" ? !file.includes("/") : file.startsWith(`${folder}/`) && !file.slice(folder.length + 1).includes("/")))
        .map((file) => ({ type: "file", oid: "0", size: mirrored.files[file]!.length, path: file }));
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(entries));
      return;
    }
    response.writeHead(404, { "content-type": "application/json" });
    response.end(JSON.stringify({ error: "Entry not found" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

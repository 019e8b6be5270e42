import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import type { HttpMethod } from "@/lib/http/route";
import { callSite } from "./api";

/**
 * The app's route handlers behind a real HTTP listener, for the callers that must reach it over
 * the network (a provider's push notifications and Graph's validation handshake, sent by the
 * fakes). Requests are dispatched in-process like every other test request (support/api.ts).
 */
export type AppServer = { url: string; close(): Promise<void> };

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function startAppServer(): Promise<AppServer> {
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers[name] = value;
      const answer = await callSite(req.method as HttpMethod, req.url ?? "/", { headers, ...(body ? { rawBody: body } : {}) });
      const type = answer.headers.get("content-type");
      const text = answer.body === undefined ? "" : typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body);
      res.writeHead(answer.status, type ? { "content-type": type } : {}).end(text);
    })().catch((error: unknown) => res.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
    },
  };
}

import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fetch } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardedDispatcher } from "./guarded-dispatcher";
import { AddressRefusedError, type AddressGuard } from "./outbound";

// The connection guard shared by webhooks and host-given CalDAV servers: every new connection,
// redirects included, goes to an address the policy accepted, and to no other.

type Listening = { server: Server; port: number; requests: IncomingMessage[] };

async function listen(answer: (req: IncomingMessage, res: import("node:http").ServerResponse) => void): Promise<Listening> {
  const requests: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    requests.push(req);
    answer(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port, requests };
}

let inside: Listening;
let redirector: Listening;
beforeAll(async () => {
  inside = await listen((_req, res) => res.end("inside"));
  redirector = await listen((req, res) => {
    res.writeHead(307, { location: req.url === "/to-literal" ? `http://127.0.0.1:${inside.port}/secret` : `http://intranet.example.test:${inside.port}/secret` });
    res.end();
  });
});
afterAll(async () => {
  await Promise.all([inside, redirector].map(({ server }) => new Promise((resolve) => server.close(resolve))));
});

/** What fetch through the guard ends with: the body, or the reason it failed. */
async function through(url: string, guard: AddressGuard): Promise<string | Error> {
  try {
    return await (await fetch(url, { dispatcher: guardedDispatcher(guard) })).text();
  } catch (error) {
    return ((error as Error).cause as Error) ?? (error as Error);
  }
}

const toLoopback: AddressGuard["resolve"] = async () => [{ address: "127.0.0.1", family: 4 }];

describe("guardedDispatcher", () => {
  it("refuses a loopback literal and a name that resolves to a private address, before connecting", async () => {
    const before = inside.requests.length;
    expect(await through(`http://127.0.0.1:${inside.port}/`, { allowPrivate: false })).toBeInstanceOf(AddressRefusedError);
    expect(await through(`http://[::1]:${inside.port}/`, { allowPrivate: false })).toBeInstanceOf(AddressRefusedError);
    const refused = await through(`http://cal.example.test:${inside.port}/`, { allowPrivate: false, resolve: async () => [{ address: "10.0.0.7", family: 4 }] });
    expect(refused).toBeInstanceOf(AddressRefusedError);
    // The message names the host, not where it resolved to.
    expect((refused as Error).message).toBe("Refused: cal.example.test does not resolve to a public address");
    // One private address among public ones is enough.
    const mixed = await through(`http://cal.example.test:${inside.port}/`, {
      allowPrivate: false,
      resolve: async () => [{ address: "93.184.216.34", family: 4 }, { address: "192.168.1.4", family: 4 }],
    });
    expect(mixed).toBeInstanceOf(AddressRefusedError);
    expect(inside.requests.length).toBe(before);
  });

  it("refuses a name that does not resolve in the same words as a private one (no probe of the inside DNS)", async () => {
    const notFound = Object.assign(new Error("getaddrinfo ENOTFOUND db.internal"), { code: "ENOTFOUND" });
    const missing = await through(`http://db.internal:${inside.port}/`, { allowPrivate: false, resolve: async () => Promise.reject(notFound) });
    const empty = await through(`http://db.internal:${inside.port}/`, { allowPrivate: false, resolve: async () => [] });
    const privateOne = await through(`http://db.internal:${inside.port}/`, { allowPrivate: false, resolve: async () => [{ address: "10.0.0.7", family: 4 }] });
    for (const refused of [missing, empty, privateOne]) {
      expect(refused).toBeInstanceOf(AddressRefusedError);
      expect((refused as Error).message).toBe("Refused: db.internal does not resolve to a public address");
    }
  });

  it("connects to the address it checked (a name no DNS knows), when private targets are allowed", async () => {
    expect(await through(`http://nowhere.example.test:${inside.port}/`, { allowPrivate: true, resolve: toLoopback })).toBe("inside");
    expect(inside.requests.at(-1)!.headers.host).toBe(`nowhere.example.test:${inside.port}`);
  });

  it("checks the target of a redirect again: an allowed server cannot send the request inside", async () => {
    const before = inside.requests.length;
    // The redirector stands in for a public server; the address it redirects to does not.
    const guard: AddressGuard = { allowPrivate: false, resolve: toLoopback, publicStandIns: new Set([`127.0.0.1:${redirector.port}`]) };
    const redirectsBefore = redirector.requests.length;
    expect(await through(`http://public.example.test:${redirector.port}/to-name`, guard)).toBeInstanceOf(AddressRefusedError);
    expect(await through(`http://public.example.test:${redirector.port}/to-literal`, guard)).toBeInstanceOf(AddressRefusedError);
    expect(redirector.requests.length).toBe(redirectsBefore + 2);
    expect(inside.requests.length).toBe(before);
  });
});

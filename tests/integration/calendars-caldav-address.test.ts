import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { calendarConnections } from "@/db/schema";
import { CalendarError } from "@/lib/calendars";
import { verifyCalDavCredentials } from "@/lib/calendars/caldav";
import { ServerAddressRefused, caldavNetwork } from "@/lib/calendars/caldav/address";
import { getDb } from "@/lib/store/database";
import { api } from "../support/api";
import { withTestDatabase } from "../support/database";
import { createHost, type TestHost } from "../support/factories";
import { configure } from "../support/jobs";
import { startRadicale, type Radicale } from "../support/radicale";

// Any CalDAV server (decisions §17): a server address the host gives is a door into the
// service's network, so it passes the webhooks' address policy when the connection is made and
// again at every later connection, redirects included, unless CALDAV_ALLOW_PRIVATE=1.

withTestDatabase({ isolated: true });

let radicale: Radicale | undefined;
let redirector: { server: Server; port: number; requests: IncomingMessage[] };
beforeAll(async () => {
  radicale = await startRadicale();
  const requests: IncomingMessage[] = [];
  // A server that sends every request on to Radicale, as a compromised or hostile public
  // server would send it inside the network.
  const server = createServer((req, res) => {
    requests.push(req);
    res.writeHead(301, { location: `${radicale?.url.replace(/\/$/, "") ?? "http://127.0.0.1:9"}${req.url}` });
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  redirector = { server, port: (server.address() as AddressInfo).port, requests };
}, 60_000);
afterAll(async () => {
  await radicale?.close();
  await new Promise((resolve) => redirector?.server.close(resolve));
});
afterEach(() => {
  caldavNetwork.resolve = undefined;
  caldavNetwork.publicStandIns = undefined;
});

async function storedConnections(host: TestHost) {
  return (await getDb()).select().from(calendarConnections).where(eq(calendarConnections.userId, host.id));
}

async function connect(host: TestHost, serverUrl: string, login = { providerAccountId: "me@example.com", appSpecificPassword: "secret-password" }) {
  return api.post("/me/calendar-connections/provider_c", { ...login, serverUrl }, { token: host.token });
}

describe("a host-given CalDAV server address", () => {
  it.each([
    ["loopback", "https://127.0.0.1:5232/"],
    ["loopback IPv6", "https://[::1]/dav/"],
    ["this machine by name", "https://localhost:5232/"],
    ["private 10/8", "https://10.0.0.5/remote.php/dav"],
    ["private 192.168/16", "https://192.168.1.20/"],
    ["private 172.16/12", "https://172.16.4.2/"],
    ["link-local (cloud metadata)", "https://169.254.169.254/latest/"],
    ["unique-local IPv6", "https://[fd00::5]/"],
    ["a single-label name", "https://nextcloud/remote.php/dav"],
    ["plain http", "http://cloud.example.com/remote.php/dav"],
  ])("is refused when it is %s (%s), and nothing is stored", async (_what, serverUrl) => {
    configure({ caldavAllowPrivate: false });
    const host = await createHost();
    const res = await connect(host, serverUrl);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error).toBe("validation_error");
    expect(res.body.details.issues).toEqual([{ path: "serverUrl", message: expect.stringMatching(/^Must /) }]);
    expect(await storedConnections(host)).toEqual([]);
  });

  it("is refused when its name resolves to a private or loopback address, and nothing is stored", async () => {
    configure({ caldavAllowPrivate: false });
    const host = await createHost();
    const asked: string[] = [];
    for (const address of ["10.0.0.7", "127.0.0.1"]) {
      caldavNetwork.resolve = async (hostname) => {
        asked.push(hostname);
        return [{ address, family: 4 }];
      };
      const res = await connect(host, "https://cloud.example.test/remote.php/dav");
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.message).toBe("The CalDAV server's address is not allowed");
      expect(res.body.details.issues).toEqual([{ path: "serverUrl", message: expect.stringContaining("public internet") }]);
      // The answer does not tell the host where inside the network the name points.
      expect(JSON.stringify(res.body)).not.toContain(address);
    }
    expect(asked).toEqual(["cloud.example.test", "cloud.example.test"]);
    expect(await storedConnections(host)).toEqual([]);
  });

  it("is refused when an allowed server redirects to a private one; allowed, the same redirect reaches the calendars", async (ctx) => {
    if (!radicale) return ctx.skip();
    await radicale.createCalendar(`behind-${Date.now()}`, "Behind the redirect");
    const login = { username: radicale.username, password: radicale.password, serverUrl: `http://caldav.example.test:${redirector.port}/` };
    caldavNetwork.resolve = async () => [{ address: "127.0.0.1", family: 4 }];
    // The redirector stands in for a server on the public internet; Radicale (where it points) does not.
    caldavNetwork.publicStandIns = new Set([`127.0.0.1:${redirector.port}`]);
    configure({ caldavAllowPrivate: false });
    const before = redirector.requests.length;
    const refused = await verifyCalDavCredentials(login).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ServerAddressRefused);
    expect((refused as CalendarError).message).toMatch(/not allowed: 127\.0\.0\.1 does not resolve to a public address/);
    expect(redirector.requests.length).toBeGreaterThan(before);

    configure({ caldavAllowPrivate: true });
    const calendars = await verifyCalDavCredentials({ ...login, serverUrl: `http://127.0.0.1:${redirector.port}/` });
    expect(calendars.map((c) => c.name)).toContain("Behind the redirect");
  });

  it("CALDAV_ALLOW_PRIVATE=1 lets a host connect a server on the local network; turned off, the next sync is refused", async (ctx) => {
    if (!radicale) return ctx.skip();
    configure({ caldavAllowPrivate: true });
    const host = await createHost({ timezone: "UTC" });
    await radicale.createCalendar(`lan-${Date.now()}`, "Office");
    const made = await connect(host, radicale.url, { providerAccountId: radicale.username, appSpecificPassword: radicale.password });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ provider: "provider_c", status: "connected", serverHost: new URL(radicale.url).host });
    expect(made.body.calendars.map((c: { name: string }) => c.name)).toContain("Office");

    // Checked at every connection, not only when it was made.
    configure({ caldavAllowPrivate: false });
    const synced = await api.post(`/me/calendar-connections/${made.body.id}/sync`, undefined, { token: host.token });
    expect(synced.status).toBe(200);
    expect(synced.body).toMatchObject({ status: "error", lastError: expect.stringContaining("address is not allowed") });
    expect(synced.body.lastSyncedAt).toBe(made.body.lastSyncedAt);
  });

  it("the operator's CALDAV_SERVER_URL is trusted as it is configured (the default needs no serverUrl)", async (ctx) => {
    if (!radicale) return ctx.skip();
    configure({ caldavAllowPrivate: false, caldavServerUrl: radicale.url });
    const host = await createHost();
    const made = await api.post(
      "/me/calendar-connections/provider_c",
      { providerAccountId: radicale.username, appSpecificPassword: radicale.password },
      { token: host.token },
    );
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.serverHost).toBeNull();
    // Naming the same server explicitly is the same server.
    const again = await connect(host, radicale.url, { providerAccountId: radicale.username, appSpecificPassword: radicale.password });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body.id).toBe(made.body.id);
  });
});

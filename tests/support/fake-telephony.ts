import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for a Twilio-compatible REST API: `POST /2010-04-01/Accounts/{sid}/Calls.json`
 * with a form body and Basic auth answers 201 with a call resource (`sid` CA…, `status` queued),
 * as Twilio does. Tests choose how it behaves next (`fail` with a status, `hang` without an
 * answer) and read what it was sent.
 */

export type ReceivedCall = {
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  form: URLSearchParams;
  sid: string | undefined;
};

export type FakeTelephony = {
  url: string;
  accountSid: string;
  authToken: string;
  received: ReceivedCall[];
  /** What the next requests get: a created call (the default), an error status, or no answer at all. */
  behave(mode: { kind: "ok" } | { kind: "fail"; status: number } | { kind: "hang" }): void;
  close(): Promise<void>;
};

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function startFakeTelephony(): Promise<FakeTelephony> {
  const accountSid = `AC${randomBytes(16).toString("hex")}`;
  const authToken = randomBytes(16).toString("hex");
  const received: ReceivedCall[] = [];
  let mode: Parameters<FakeTelephony["behave"]>[0] = { kind: "ok" };

  function send(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = new URL(req.url ?? "/", "http://fake").pathname;
    const form = new URLSearchParams(await readBody(req));
    const call: ReceivedCall = { path, authorization: req.headers.authorization, contentType: req.headers["content-type"], form, sid: undefined };
    received.push(call);
    if (mode.kind === "hang") return; // never answers; the client's timeout must give up
    if (mode.kind === "fail") return send(res, mode.status, { code: 20500, message: "Internal Server Error", status: mode.status });
    const expectedAuth = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString("base64")}`;
    if (req.method !== "POST" || path !== `/2010-04-01/Accounts/${accountSid}/Calls.json`) return send(res, 404, { code: 20404, message: "Not found", status: 404 });
    if (req.headers.authorization !== expectedAuth) return send(res, 401, { code: 20003, message: "Authenticate", status: 401 });
    if (!form.get("To") || !form.get("From") || !(form.get("Twiml") || form.get("Url"))) {
      return send(res, 400, { code: 21201, message: "No 'To' number is specified", status: 400 });
    }
    call.sid = `CA${randomBytes(16).toString("hex")}`;
    send(res, 201, {
      sid: call.sid,
      account_sid: accountSid,
      to: form.get("To"),
      from: form.get("From"),
      status: "queued",
      direction: "outbound-api",
      api_version: "2010-04-01",
      uri: `/2010-04-01/Accounts/${accountSid}/Calls/${call.sid}.json`,
    });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, { message: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    accountSid,
    authToken,
    received,
    behave: (next) => {
      mode = next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
    },
  };
}

import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

// A real webhook endpoint on loopback: it keeps every request it gets, checks its signature with
// the standardwebhooks library against the secrets it is given, and answers what the test's
// `answer` says (a status, or "hang": keep the request open until the test lets it go).

export type Received = {
  id: string;
  timestamp: string;
  signature: string;
  headers: IncomingHttpHeaders;
  raw: string;
  body: { type: string; timestamp: string; data: any };
  /** Which of the receiver's secrets verified the signature (by index); empty: none did. */
  verifiedBy: number[];
  answered: number | "hang";
  /** Date.now() when the request had arrived whole. */
  receivedAt: number;
};

export type Receiver = {
  url: string;
  port: number;
  received: Received[];
  secrets: string[];
  /** Decides the answer to the nth request (0-based). Default 200. */
  answer: (n: number, request: Received) => number | "hang";
  /** Lets hung requests go (answering them 500). */
  release(): void;
  close(): Promise<void>;
};

export function verifiedBy(secrets: string[], raw: string, headers: IncomingHttpHeaders): number[] {
  const out: number[] = [];
  secrets.forEach((secret, i) => {
    try {
      new Webhook(secret).verify(raw, {
        "webhook-id": String(headers["webhook-id"]),
        "webhook-timestamp": String(headers["webhook-timestamp"]),
        "webhook-signature": String(headers["webhook-signature"]),
      });
      out.push(i);
    } catch {
      // not signed with this one
    }
  });
  return out;
}

export async function startReceiver(): Promise<Receiver> {
  const hung: ServerResponse[] = [];
  const receiver: Receiver = {
    url: "",
    port: 0,
    received: [],
    secrets: [],
    answer: () => 200,
    release() {
      for (const res of hung.splice(0)) if (!res.writableEnded) res.writeHead(500).end();
    },
    close: async () => {
      receiver.release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const entry: Received = {
        id: String(req.headers["webhook-id"]),
        timestamp: String(req.headers["webhook-timestamp"]),
        signature: String(req.headers["webhook-signature"]),
        headers: req.headers,
        raw,
        body: JSON.parse(raw),
        verifiedBy: verifiedBy(receiver.secrets, raw, req.headers),
        answered: 200,
        receivedAt: Date.now(),
      };
      entry.answered = receiver.answer(receiver.received.length, entry);
      receiver.received.push(entry);
      if (entry.answered === "hang") hung.push(res);
      else res.writeHead(entry.answered, { "content-type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}/hooks/booking`;
  return receiver;
}

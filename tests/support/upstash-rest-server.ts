import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createClient, ErrorReply, MultiErrorReply, RESP_TYPES } from "redis";

/**
 * A local stand-in for Upstash's Redis REST API in front of a real Redis, so @upstash/redis
 * and @upstash/ratelimit run unchanged in tests. It speaks what @upstash/redis sends:
 * POST / with one command as a JSON array, POST /pipeline and /multi-exec with an array of
 * commands, `Authorization: Bearer <token>` (401 otherwise), and `Upstash-Encoding: base64`
 * (every string in the answer base64-encoded except the "OK" status, as Upstash documents).
 * Command errors come back as Upstash sends them: HTTP 400 `{"error": "<Redis message>"}` for a
 * single command, `{"error"}` entries inside a pipeline or transaction.
 */

// What node-redis hands back over RESP2: null, number, string (status), Buffer (bulk), arrays.
type Reply = unknown;
type Entry = { result: unknown } | { error: string };

// Upstash accepts script flags stock Redis rejects ("Unexpected flag in script shebang");
// @upstash/ratelimit's scripts start with `#!lua flags=allow-key-locking`.
const UPSTASH_ONLY_FLAGS = new Set(["allow-key-locking"]);

const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");

function forRedis(script: string): string {
  const shebang = /^#!lua flags=([^\n]*)/.exec(script);
  if (!shebang) return script;
  const flags = (shebang[1] ?? "")
    .split(",")
    .map((f) => f.trim())
    .filter((f) => f && !UPSTASH_ONLY_FLAGS.has(f));
  return `#!lua${flags.length ? ` flags=${flags.join(",")}` : ""}${script.slice(shebang[0].length)}`;
}

function encode(reply: Reply, base64: boolean): unknown {
  if (Buffer.isBuffer(reply)) return reply.toString(base64 ? "base64" : "utf8");
  if (typeof reply === "string") return base64 && reply !== "OK" ? Buffer.from(reply).toString("base64") : reply;
  if (reply instanceof ErrorReply) return reply.message;
  if (Array.isArray(reply)) return reply.map((r) => encode(r, base64));
  return reply ?? null;
}

function isCommand(value: unknown): value is (string | number | boolean)[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((a) => typeof a === "string" || typeof a === "number" || typeof a === "boolean")
  );
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

export type UpstashRestServer = { url: string; close(): Promise<void> };

export async function startUpstashRestServer(opts: { redisUrl: string; token: string }): Promise<UpstashRestServer> {
  const redis = createClient({ url: opts.redisUrl, socket: { reconnectStrategy: false } });
  redis.on("error", () => {}); // surfaced through the failing commands instead
  await redis.connect();
  // Bulk strings as Buffers: binary values survive, and they are told apart from status replies.
  const raw = redis.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });
  // sha1(script as sent) -> sha1(script as stored in Redis), for scripts whose flags we rewrote.
  const shaOf = new Map<string, string>();

  /** The command as Redis must see it, and how to turn Redis' reply back into Upstash's. */
  function translate(command: (string | number | boolean)[]): { args: string[]; reply: (r: Reply) => Reply } {
    const args = command.map(String);
    const name = (args[0] ?? "").toUpperCase();
    const asIs = (r: Reply) => r;
    const rewrite = (script: string) => {
      const stored = forRedis(script);
      if (stored !== script) shaOf.set(sha1(script), sha1(stored));
      return stored;
    };
    if ((name === "EVAL" || name === "EVAL_RO") && args[1] !== undefined) {
      return { args: [args[0]!, rewrite(args[1]), ...args.slice(2)], reply: asIs };
    }
    if ((name === "EVALSHA" || name === "EVALSHA_RO") && args[1] !== undefined) {
      // Unknown to us means unknown to Redis too: its NOSCRIPT goes back, the client then EVALs.
      return { args: [args[0]!, shaOf.get(args[1].toLowerCase()) ?? args[1], ...args.slice(2)], reply: asIs };
    }
    if (name === "SCRIPT" && args[1]?.toUpperCase() === "LOAD" && args[2] !== undefined) {
      const script = args[2];
      // Upstash answers with the hash of the script the client sent, which is what it EVALSHAs.
      return { args: [args[0]!, args[1], rewrite(script)], reply: (r) => (r instanceof ErrorReply ? r : sha1(script)) };
    }
    return { args, reply: asIs };
  }

  async function single(command: (string | number | boolean)[], base64: boolean): Promise<[number, unknown]> {
    const { args, reply } = translate(command);
    try {
      return [200, { result: encode(reply(await raw.sendCommand(args)), base64) }];
    } catch (error) {
      return error instanceof ErrorReply ? [400, { error: error.message }] : [500, { error: String(error) }];
    }
  }

  async function pipeline(commands: (string | number | boolean)[][], base64: boolean): Promise<[number, unknown]> {
    // Sent together on one connection: in order, but not atomic, like Upstash's /pipeline.
    const settled = await Promise.allSettled(
      commands.map(async (command) => {
        const { args, reply } = translate(command);
        return reply(await raw.sendCommand(args));
      }),
    );
    const entries: Entry[] = [];
    for (const s of settled) {
      if (s.status === "fulfilled") entries.push({ result: encode(s.value, base64) });
      else if (s.reason instanceof ErrorReply) entries.push({ error: s.reason.message });
      else return [500, { error: String(s.reason) }];
    }
    return [200, entries];
  }

  async function multiExec(commands: (string | number | boolean)[][], base64: boolean): Promise<[number, unknown]> {
    const translated = commands.map(translate);
    const multi = raw.multi();
    for (const { args } of translated) multi.addCommand(args);
    let replies: Reply[];
    try {
      replies = await multi.exec();
    } catch (error) {
      // A command failing inside EXEC does not undo the others: Upstash lists its error in place.
      if (error instanceof MultiErrorReply) replies = error.replies;
      // Rejected while queueing (unknown command, wrong arity): the transaction is discarded.
      else if (error instanceof ErrorReply) return [400, { error: error.message }];
      else return [500, { error: String(error) }];
    }
    return [
      200,
      replies.map((r, i): Entry => {
        const out = translated[i]!.reply(r);
        return out instanceof ErrorReply ? { error: out.message } : { result: encode(out, base64) };
      }),
    ];
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "http://upstash.local");
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    if ((bearer ?? url.searchParams.get("_token")) !== opts.token) return send(res, 401, { error: "Unauthorized" });
    if (req.method !== "POST") return send(res, 405, { error: "Method Not Allowed" });

    let body: unknown;
    try {
      body = JSON.parse(await readBody(req));
    } catch {
      return send(res, 400, { error: "ERR failed to parse command" });
    }
    const base64 = String(req.headers["upstash-encoding"] ?? "").toLowerCase() === "base64";
    const path = url.pathname.replace(/\/+$/, "");

    if (path === "") {
      if (!isCommand(body)) return send(res, 400, { error: "ERR failed to parse command" });
      return send(res, ...(await single(body, base64)));
    }
    if (path === "/pipeline" || path === "/multi-exec") {
      if (!Array.isArray(body) || body.length === 0 || !body.every(isCommand)) {
        return send(res, 400, { error: "ERR failed to parse pipeline request" });
      }
      return send(res, ...(await (path === "/pipeline" ? pipeline(body, base64) : multiExec(body, base64))));
    }
    return send(res, 404, { error: `ERR unsupported path ${path}` });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, { error: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      // fetch keeps connections alive; without this, close() would wait for them to idle out.
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
      await redis.close();
    },
  };
}

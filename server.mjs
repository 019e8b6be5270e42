// `npm start`: the built Next.js app behind Node's own HTTP server, for one reason: the route
// handlers need the client's address for per-IP rate limits, and Next.js only passes a
// client-supplied X-Forwarded-For through. Here `x-client-ip` is always the socket's address,
// overwriting whatever a client sent; lib/http/client-ip.ts decides which source to trust.
import { createServer } from "node:http";
import next from "next";

process.env.NODE_ENV ??= "production";
const port = Number(process.env.PORT || 3000);
const hostname = process.env.HOST || "0.0.0.0";

const app = next({ dev: false, hostname, port, dir: import.meta.dirname });
const handle = app.getRequestHandler();

try {
  await app.prepare();
} catch (error) {
  process.stderr.write(`Could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}

const server = createServer((req, res) => {
  req.headers["x-client-ip"] = req.socket.remoteAddress ?? "unknown";
  handle(req, res);
});
server.keepAliveTimeout = 65_000;
server.listen(port, hostname, () => {
  process.stdout.write(`Ready on http://${hostname}:${port}\n`);
});

for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    // Open keep-alive connections must not hold the shutdown forever.
    setTimeout(() => process.exit(0), 5_000).unref();
  });
}

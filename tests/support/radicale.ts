import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createConnection, createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * A real CalDAV server for tests: Radicale (the Debian packages `radicale` and `python3-tz`) on a free loopback
 * port, with its own storage folder and one htpasswd user. `stop()` and `start()` kill and
 * restart the same server (same port, same storage), so a test can cause an outage and end it.
 */

export type Radicale = {
  /** The server's root, e.g. `http://127.0.0.1:40123/`: what a client is configured with. */
  url: string;
  username: string;
  password: string;
  /** The URL of the user's calendar collection `name` (with the trailing slash servers use). */
  calendarUrl(name: string): string;
  /** MKCALENDAR; `components` is the supported-calendar-component-set (VEVENT by default). */
  createCalendar(name: string, displayName: string, components?: string[]): Promise<string>;
  /** PUTs an iCalendar object as the user would from another client; returns its URL. */
  putEvent(calendarName: string, fileName: string, icsText: string): Promise<string>;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
};

/** How to run Radicale here: the `radicale` script, or the Debian Python's module; undefined when neither works. */
export function findRadicale(): string[] | undefined {
  const candidates = [["radicale"], ["/usr/bin/python3", "-m", "radicale"], ["python3", "-m", "radicale"]];
  for (const [command, ...args] of candidates) {
    const probe = spawnSync(command!, [...args, "--version"], { stdio: "ignore", timeout: 10_000 });
    if (probe.status === 0) return [command!, ...args];
  }
  return undefined;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

const STARTUP_MS = 20_000;

/**
 * Starts Radicale, or returns undefined when it is not installed (tests then skip). In CI the
 * suite must not silently skip, so a missing Radicale is an error there.
 */
export async function startRadicale(): Promise<Radicale | undefined> {
  const command = findRadicale();
  if (!command) {
    if (process.env.CI === "true") {
      throw new Error("CI=true but Radicale is not installed (Debian package `radicale`): the CalDAV tests cannot run");
    }
    return undefined;
  }

  const dir = mkdtempSync(path.join(tmpdir(), "radicale-test-"));
  const username = "alice";
  const password = randomBytes(12).toString("base64url");
  writeFileSync(path.join(dir, "users"), `${username}:${password}\n`, { mode: 0o600 });
  let port = await freePort();
  const writeConfig = () =>
    writeFileSync(
      path.join(dir, "config"),
      [
        "[server]",
        `hosts = 127.0.0.1:${port}`,
        "[auth]",
        "type = htpasswd",
        `htpasswd_filename = ${path.join(dir, "users")}`,
        "htpasswd_encryption = plain",
        // Radicale waits ~1 s after a failed login by default; tests fail logins on purpose.
        "delay = 0",
        "[rights]",
        "type = owner_only",
        "[storage]",
        `filesystem_folder = ${path.join(dir, "collections")}`,
        "[web]",
        "type = none",
        "[logging]",
        "level = warning",
        "",
      ].join("\n"),
    );

  let child: ChildProcess | undefined;
  let output = "";
  const killOnExit = () => child?.kill("SIGKILL");

  async function launch(): Promise<void> {
    if (child && child.exitCode === null && child.signalCode === null) return;
    writeConfig();
    output = "";
    const [bin, ...args] = command!;
    const proc = spawn(bin!, [...args, "--config", path.join(dir, "config")], { stdio: ["ignore", "pipe", "pipe"] });
    child = proc;
    const collect = (chunk: Buffer) => {
      output = (output + chunk.toString("utf8")).slice(-4_000);
    };
    proc.stdout?.on("data", collect);
    proc.stderr?.on("data", collect);
    let exited = false;
    proc.once("exit", () => {
      exited = true;
    });
    const deadline = Date.now() + STARTUP_MS;
    while (Date.now() < deadline) {
      if (exited) throw new Error(`Radicale exited while starting on port ${port}:\n${output}`);
      if (await portAnswers(port)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    proc.kill("SIGKILL");
    throw new Error(`Radicale did not answer on port ${port} within ${STARTUP_MS} ms:\n${output}`);
  }

  async function stop(): Promise<void> {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
    proc.kill("SIGTERM");
    const timer = setTimeout(() => proc.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  }

  try {
    await launch();
  } catch {
    // Another process may have taken the port between freePort() and Radicale's bind: once more.
    await stop();
    port = await freePort();
    await launch();
  }
  process.once("exit", killOnExit);

  const url = `http://127.0.0.1:${port}/`;
  const authorization = `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;
  const calendarUrl = (name: string) => new URL(`${encodeURIComponent(username)}/${encodeURIComponent(name)}/`, url).href;

  async function send(method: string, target: string, body: string, contentType: string): Promise<Response> {
    const response = await fetch(target, { method, body, headers: { authorization, "content-type": contentType } });
    if (!response.ok) throw new Error(`Radicale: ${method} ${target} answered ${response.status}: ${await response.text()}`);
    await response.body?.cancel();
    return response;
  }

  return {
    url,
    username,
    password,
    calendarUrl,
    async createCalendar(name, displayName, components = ["VEVENT"]) {
      const target = calendarUrl(name);
      const escaped = displayName.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
      await send(
        "MKCALENDAR",
        target,
        `<?xml version="1.0" encoding="utf-8"?>
<C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
  <D:set><D:prop>
    <D:displayname>${escaped}</D:displayname>
    <C:supported-calendar-component-set>${components.map((c) => `<C:comp name="${c}"/>`).join("")}</C:supported-calendar-component-set>
  </D:prop></D:set>
</C:mkcalendar>`,
        "application/xml; charset=utf-8",
      );
      return target;
    },
    async putEvent(calendarName, fileName, icsText) {
      const target = new URL(encodeURIComponent(fileName), calendarUrl(calendarName)).href;
      await send("PUT", target, icsText, "text/calendar; charset=utf-8");
      return target;
    },
    stop,
    start: launch,
    async close() {
      await stop();
      process.removeListener("exit", killOnExit);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// `npm run bench:page`: the guest booking page as a first-time visitor on a phone sees it, in
// Debian's Chromium against `npm start` (fresh PGlite): its first-load JavaScript (the scripts it
// loads until the first bookable time shows: bytes on the wire as server.mjs sends them, and the
// same files gzipped at level 9; target ≤ 150 KB) and the time from navigation to the first
// bookable time on screen (target ≤ 400 ms).
// Several cold visits (new browser context each: empty cache); the median is printed.
//
// The time is taken in the page: a MutationObserver notes the first visible time button, and the
// figure is the animation frame that paints it. Playwright's own wait polls at growing intervals
// (0, 20, 50, 100, 100, 500 ms), so the moment it notices can be hundreds of milliseconds late;
// that figure (what this bench printed before 2026-11-23) is printed beside it. Since 2026-11-28
// the page shows no time before the guest's zone is known (its first paint has the month and words
// where the times go), so the first time visible, the first time button's Element Timing and the
// guest's own times are one moment, printed three ways; before, the first two were the host's
// times of the server's preview.
//
// Paint, as the browser reports it: first-contentful-paint (Paint Timing) and the first time
// button's Element Timing renderTime (`elementtiming="first-time"`), beside the same page's own
// HTML and CSS served as static files (every script taken out) by a plain node:http server on
// loopback, measured in the same browser in the same run, one visit of each in turn. Target: the
// booking page's first paint within 1.25× its static copy's (the median of the visits' own
// ratios). A bare one-paragraph page's first paint is printed too: what the browser itself costs.
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { chromium } from "@playwright/test";

// BENCH_PORT: another port when something else already listens on 3199; the bare page takes the next one.
const PORT = Number(process.env.BENCH_PORT ?? 3199);
const base = `http://127.0.0.1:${PORT}`;
const RUNS = Number(process.env.BENCH_PAGE_VISITS || 11);

async function waitForHealth() {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${base}/api/v1/health`)).ok) return;
    } catch {
      // not yet listening
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("the server did not become healthy");
}

async function post(p: string, body: unknown, token?: string) {
  const res = await fetch(`${base}${p}`, { method: "POST", headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
  return res.json();
}

const server = spawn("node", ["server.mjs"], {
  env: { ...process.env, NODE_ENV: "production", PORT: String(PORT), HOST: "127.0.0.1", DATA_DIR: mkdtempSync(path.join(tmpdir(), "bench-page-")), RATE_LIMITS: "off", LOG_LEVEL: "warn", SHUTDOWN_DELAY_MS: "0" },
  stdio: "ignore",
});
try {
  await waitForHealth();
  const username = `bench${randomUUID().slice(0, 6)}`;
  await post("/api/v1/auth/register", { email: `${username}@example.com`, password: "bench password", fullName: "Bench Host", username, timezone: "Europe/Berlin" });
  const { accessToken } = await post("/api/v1/auth/login", { email: `${username}@example.com`, password: "bench password" });
  await post("/api/v1/me/event-types", { slug: "intro", title: "Intro call", durationMinutes: 30 }, accessToken);

  // The floor for this page's own content: its HTML as the service sends it, with every script
  // taken out, and the stylesheet it links, served from memory by the bare server (/static). What
  // the browser needs to parse, style, lay out and raster this page, with no server time and no
  // JavaScript at all.
  const pageHtml = await (await fetch(`${base}/${username}/intro`)).text();
  const staticHtml = pageHtml.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, "");
  const styles = new Map<string, Buffer>();
  for (const [, href] of pageHtml.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)) {
    styles.set(href!, Buffer.from(await (await fetch(`${base}${href}`)).arrayBuffer()));
  }
  const bare = createServer((req, res) => {
    const style = styles.get(req.url ?? "");
    if (style) return void res.writeHead(200, { "content-type": "text/css; charset=utf-8" }).end(style);
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    if (req.url === "/static") return void res.end(staticHtml);
    res.end('<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Bare</title></head><body><p>A bare page.</p></body></html>');
  });
  // A port taken is an error here (inside the try): the service started above is still stopped.
  await new Promise<void>((r, reject) => bare.once("error", reject).listen(PORT + 1, "127.0.0.1", r));

  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"] });
  /** Paint Timing's first-contentful-paint and the first time button's Element Timing, as the page saw them. */
  const paintObserver = () => {
    const w = window as unknown as { fcp?: number; firstTimeRender?: number };
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.name === "first-contentful-paint") w.fcp = e.startTime;
    }).observe({ type: "paint", buffered: true });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & { identifier?: string; renderTime?: number })[]) {
        if (e.identifier === "first-time") w.firstTimeRender ??= e.renderTime || e.startTime;
      }
    }).observe({ type: "element", buffered: true });
  };
  const bareFcp: number[] = [];
  const staticFcp: number[] = [];
  const results: { jsKb: number; gzipKb: number; firstTimeMs: number; guestTimeMs: number; polledMs: number; fcpMs: number; elementMs: number }[] = [];
  for (let i = 0; i < RUNS; i++) {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, timezoneId: "America/New_York", locale: "en-US" });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    const scripts = new Set<string>();
    let jsBytes = 0;
    cdp.on("Network.responseReceived", (e) => {
      if (e.type === "Script") scripts.add(e.requestId);
    });
    cdp.on("Network.loadingFinished", (e) => {
      if (scripts.has(e.requestId)) jsBytes += e.encodedDataLength;
    });
    const bodies: Promise<number>[] = [];
    page.on("response", (r) => {
      if (r.request().resourceType() === "script") bodies.push(r.body().then((b) => gzipSync(b, { level: 9 }).length));
    });
    // The bare page first, in a context of its own with the same settings: the browser's floor.
    const bareContext = await browser.newContext({ viewport: { width: 390, height: 844 }, timezoneId: "America/New_York", locale: "en-US" });
    const barePage = await bareContext.newPage();
    await barePage.addInitScript(paintObserver);
    await barePage.goto(`http://127.0.0.1:${PORT + 1}/`);
    await barePage.waitForFunction(() => (window as unknown as { fcp?: number }).fcp !== undefined);
    bareFcp.push(await barePage.evaluate(() => (window as unknown as { fcp: number }).fcp));
    await bareContext.close();
    // The page's own HTML without scripts, from the same bare server, in a context of its own.
    const staticContext = await browser.newContext({ viewport: { width: 390, height: 844 }, timezoneId: "America/New_York", locale: "en-US" });
    const staticPage = await staticContext.newPage();
    await staticPage.addInitScript(paintObserver);
    await staticPage.goto(`http://127.0.0.1:${PORT + 1}/static`);
    await staticPage.waitForFunction(() => (window as unknown as { fcp?: number }).fcp !== undefined);
    staticFcp.push(await staticPage.evaluate(() => (window as unknown as { fcp: number }).fcp));
    await staticContext.close();

    await page.addInitScript(paintObserver);
    await page.addInitScript(() => {
      const w = window as unknown as { firstTimeFrame?: number; guestTimeFrame?: number };
      const guestZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      new MutationObserver((_, observer) => {
        for (const button of document.querySelectorAll("button")) {
          if (!/^\d{1,2}:\d{2}/.test(button.textContent ?? "") || !button.checkVisibility()) continue;
          if (w.firstTimeFrame === undefined) requestAnimationFrame((t) => (w.firstTimeFrame ??= t));
          // The times in the guest's own zone (the page may show the host's first, named).
          if (button.closest<HTMLElement>("[data-zone]:not([data-preview])")?.dataset.zone === guestZone) {
            observer.disconnect();
            requestAnimationFrame(() => (w.guestTimeFrame = performance.now()));
            return;
          }
        }
      }).observe(document, { childList: true, subtree: true, characterData: true, attributes: true });
    });
    await page.goto(`${base}/${username}/intro`);
    await page.getByRole("button", { name: /^\d{1,2}:\d{2}/ }).first().waitFor();
    const polledMs = await page.evaluate(() => performance.now());
    await page.waitForFunction(() => (window as unknown as { guestTimeFrame?: number }).guestTimeFrame !== undefined);
    await page.waitForFunction(() => {
      const w = window as unknown as { fcp?: number; firstTimeRender?: number };
      return w.fcp !== undefined && w.firstTimeRender !== undefined;
    });
    const { firstTimeMs, guestTimeMs, fcpMs, elementMs } = await page.evaluate(() => {
      const w = window as unknown as { firstTimeFrame: number; guestTimeFrame: number; fcp: number; firstTimeRender: number };
      return { firstTimeMs: Math.min(w.firstTimeFrame, w.guestTimeFrame), guestTimeMs: w.guestTimeFrame, fcpMs: w.fcp, elementMs: w.firstTimeRender };
    });
    await page.waitForLoadState("networkidle");
    const gzipBytes = (await Promise.all(bodies)).reduce((a, b) => a + b, 0);
    results.push({ jsKb: jsBytes / 1024, gzipKb: gzipBytes / 1024, firstTimeMs, guestTimeMs, polledMs, fcpMs, elementMs });
    await context.close();
  }
  await browser.close();
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  // The first visit also warms the server's own caches; the median is of all of them.
  const figure = (xs: number[]) => `median ${median(xs).toFixed(0)} ms (range ${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)} ms)`;
  const wireKb = median(results.map((r) => r.jsKb));
  const bareMs = median(bareFcp);
  // Each visit's page beside the static copy loaded just before it: neighbours in time.
  const fcpRatio = median(results.map((r, i) => r.fcpMs / staticFcp[i]!));
  const elementRatio = median(results.map((r) => r.elementMs)) / bareMs;
  const firstMs = median(results.map((r) => r.firstTimeMs));
  process.stdout.write(
    `booking page (390 px, cold cache, ${RUNS} visits):\n` +
      `  first-load JS: ${wireKb.toFixed(0)} KB on the wire (${median(results.map((r) => r.gzipKb)).toFixed(1)} KB gzip -9)  [target ≤ 150 KB: ${wireKb <= 150 ? "met" : "MISSED"}]\n` +
      `  first bookable time visible: ${figure(results.map((r) => r.firstTimeMs))}  [target ≤ 400 ms: ${firstMs <= 400 ? "met" : "MISSED"}]\n` +
      `  paint timing: first-contentful-paint ${figure(results.map((r) => r.fcpMs))}; its static copy's (HTML and CSS, no script), same run: ${figure(staticFcp)}\n` +
      `    → ${fcpRatio.toFixed(2)}× its static copy (median of the visits' ratios)  [target ≤ 1.25×: ${fcpRatio <= 1.25 ? "met" : "MISSED"}]\n` +
      `  a bare HTML page's first-contentful-paint, same run: ${figure(bareFcp)}; the static copy is ${(median(staticFcp) / bareMs).toFixed(2)}× it\n` +
      `  first time button painted (Element Timing renderTime): ${figure(results.map((r) => r.elementMs))} → ${elementRatio.toFixed(2)}× the bare page's first paint\n` +
      `  the same as Playwright's polling notices it: ${figure(results.map((r) => r.polledMs))}\n` +
      `  times in the guest's own zone (America/New_York; the host's is Europe/Berlin), clickable: ${figure(results.map((r) => r.guestTimeMs))}\n`,
  );
  bare.close();
} finally {
  server.kill("SIGTERM");
}

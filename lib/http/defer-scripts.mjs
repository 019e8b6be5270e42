// The booking page's first paint, before its JavaScript (issue 19). Next.js names its framework
// and page bundles in the page's <head> as `<script async>`: the browser fetches and compiles
// about 500 KB of them at once, on the same cores that must lay out and paint the page, so the
// page's first paint waited on them (3.5× a bare page's). Next.js has no setting to start them
// later, so server.mjs rewrites the page as it streams: each bundle's tag becomes a name in a
// list, and a small inline loader adds the tags once the browser has painted the page's first
// text (Paint Timing), at once in a hidden tab, after a frame where Paint Timing is missing, and
// after 3 s whatever happens. The server-rendered page is whole without its scripts (times are
// links and buttons the bundles make live), so nothing is lost while they load.
//
// A tag split across two chunks of the stream is left as it is: it loads as Next.js wrote it.
// The rewrite needs the HTML as text, so Next.js is asked for it uncompressed and the answer is
// compressed here instead (brotli or gzip, flushed chunk by chunk so streaming stays streaming).
import { StringDecoder } from "node:string_decoder";
import { constants, createBrotliCompress, createGzip } from "node:zlib";

const SCRIPT = /<script src="(\/_next\/static\/[^"<>]+\.js)" async=""><\/script>/g;
const PRELOAD = /<link rel="preload" as="script" fetchPriority="low" href="\/_next\/static\/[^"<>]+\.js"\/>/g;

/* c8 ignore start: runs in the browser (as the loader's source) */
function loader() {
  var queue = [];
  var started = false;
  function add(src) {
    var script = document.createElement("script");
    script.src = src;
    script.async = true;
    document.head.appendChild(script);
  }
  function go() {
    if (started) return;
    started = true;
    queue.forEach(add);
    queue = [];
  }
  window.__deferScripts = function (list) {
    if (started) list.forEach(add);
    else queue = queue.concat(list);
  };
  try {
    if (document.visibilityState !== "visible") return go();
    setTimeout(go, 3000);
    if (typeof PerformanceObserver === "function" && PerformanceObserver.supportedEntryTypes && PerformanceObserver.supportedEntryTypes.indexOf("paint") >= 0) {
      var observer = new PerformanceObserver(function (list) {
        if (list.getEntriesByName("first-contentful-paint").length === 0) return;
        observer.disconnect();
        setTimeout(go, 0);
      });
      observer.observe({ type: "paint", buffered: true });
    } else {
      requestAnimationFrame(function () {
        setTimeout(go, 0);
      });
    }
  } catch {
    go();
  }
}
/* c8 ignore stop */

const LOADER = `<script>(${loader.toString()})()</script>`;

/**
 * The HTML with its bundles' tags turned into calls of the loader; `withLoader` puts the loader
 * itself before the first of them (the chunk that holds </head>).
 * @param {string} html
 * @param {boolean} withLoader
 */
export function rewriteScripts(html, withLoader) {
  const sources = [];
  let out = html.replace(SCRIPT, (_, src) => {
    sources.push(src);
    return "";
  });
  out = out.replace(PRELOAD, "");
  if (sources.length === 0 && !withLoader) return html;
  const call = sources.length ? `<script>__deferScripts(${JSON.stringify(sources)})</script>` : "";
  if (withLoader) {
    const head = out.indexOf("</head>");
    return `${out.slice(0, head)}${LOADER}${call}${out.slice(head)}`;
  }
  // Later in the body: where the first of them stood.
  const at = html.search(SCRIPT);
  const before = html.slice(0, at).replace(PRELOAD, "");
  return `${before}${call}${out.slice(before.length)}`;
}

/** @param {string | undefined} accepted */
function encodingFor(accepted) {
  const value = String(accepted ?? "");
  if (/\bbr\b/.test(value)) return "br";
  if (/\bgzip\b/.test(value)) return "gzip";
  return undefined;
}

/**
 * Makes `res` rewrite the HTML page Next.js writes into it (see above). Call before Next.js
 * handles `req`.
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} res
 */
export function deferPageScripts(req, res) {
  const encoding = encodingFor(req.headers["accept-encoding"]);
  // Next.js would compress the page; the rewrite needs its text.
  delete req.headers["accept-encoding"];

  const write = res.write.bind(res);
  const end = res.end.bind(res);
  const writeHead = res.writeHead.bind(res);
  // Text as it streams: a character split between two chunks stays whole.
  const decoder = new StringDecoder("utf8");
  // Headers go with the first byte (see writeHead below), not before.
  res.flushHeaders = () => {};
  /** @type {null | { html: boolean, head: string, headDone: boolean, sink: (chunk: Buffer | string) => void, finish: () => void }} */
  let state = null;

  res.writeHead = (status, ...rest) => {
    // Headers are kept until the first byte, when it is known whether the body is rewritten.
    const headers = rest.find((r) => r && typeof r === "object");
    if (headers) for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.statusCode = status;
    return res;
  };

  function start() {
    if (state) return state;
    const html = /^text\/html\b/.test(String(res.getHeader("content-type") ?? ""));
    if (!html) {
      writeHead(res.statusCode);
      state = { html, head: "", headDone: true, sink: (chunk) => write(chunk), finish: () => end() };
      return state;
    }
    res.removeHeader("content-length");
    if (!encoding) {
      writeHead(res.statusCode);
      state = { html, head: "", headDone: false, sink: (chunk) => write(chunk), finish: () => end() };
      return state;
    }
    res.setHeader("content-encoding", encoding);
    res.setHeader("vary", "Accept-Encoding");
    writeHead(res.statusCode);
    const compressor =
      encoding === "br"
        ? createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })
        : createGzip({ level: 6 });
    compressor.on("data", (data) => write(data));
    compressor.on("end", () => end());
    state = {
      html,
      head: "",
      headDone: false,
      // Each piece leaves at once (flush): a streamed page keeps streaming.
      sink: (chunk) => {
        compressor.write(chunk);
        compressor.flush();
      },
      finish: () => compressor.end(),
    };
    return state;
  }

  /** @param {Buffer | string | undefined} chunk */
  function take(chunk) {
    const s = start();
    if (chunk === undefined || chunk === null || chunk.length === 0) return;
    if (!s.html) return s.sink(chunk);
    const text = typeof chunk === "string" ? chunk : decoder.write(chunk);
    if (!s.headDone) {
      s.head += text;
      if (!s.head.includes("</head>")) return;
      s.headDone = true;
      const html = rewriteScripts(s.head, true);
      s.head = "";
      return s.sink(html);
    }
    s.sink(rewriteScripts(text, false));
  }

  res.write = (chunk, encodingOrCallback, callback) => {
    take(chunk);
    const done = typeof encodingOrCallback === "function" ? encodingOrCallback : callback;
    if (done) process.nextTick(done);
    return true;
  };
  res.end = (chunk, encodingOrCallback, callback) => {
    if (typeof chunk === "function") {
      callback = chunk;
      chunk = undefined;
    }
    take(chunk);
    const s = start();
    if (s.html) {
      const rest = decoder.end();
      if (rest && s.headDone) s.sink(rest);
      else if (rest) s.head += rest;
    }
    // A page that never reached </head> leaves as it came.
    if (s.html && !s.headDone && s.head) s.sink(s.head);
    s.finish();
    const done = typeof encodingOrCallback === "function" ? encodingOrCallback : callback;
    if (done) res.once("finish", done);
    return res;
  };
}

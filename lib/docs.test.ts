import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The documentation says only what is true of this repository, and the repository stands on its
// own: every link and every repository path the docs name exists, every "decisions §N" a comment
// cites has its section in docs/decisions.md, nothing points at documents outside the repository,
// and the README's Configuration table lists exactly the settings lib/config.ts parses.

const ROOT = path.resolve(import.meta.dirname, "..");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

const DOCS = ["README.md", "ARCHITECTURE.md", ...readdirSync(path.join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];

/** What a file's text says outside fenced code blocks (a block's lines are examples, not claims). */
function prose(text: string): string {
  return text.replace(/^```[^\n]*\n[\s\S]*?^```[^\n]*$/gm, "");
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  for (const m of prose(read(file)).matchAll(/^#{1,6}\s+(.+)$/gm)) anchors.add(slug(m[1]!.replace(/`/g, "")));
  return anchors;
}

const PATH_ROOTS = ["lib", "app", "components", "db", "e2e", "scripts", "bench", "tests"];
// A path runs to a space, a closing parenthesis or a comma (a comma inside `{a,b}` is the path's own).
const PATH_IN_CODE = new RegExp(`(?:^|[\\s(])((?:${PATH_ROOTS.join("|")})/(?:\\{[^}\\s]*\\}|[^\\s\`),;{])*)`, "g");
/** Folders the docs name that a run makes and git ignores (.gitignore lists each): not sources, yet real. */
const GENERATED = new Set(read(".gitignore").split("\n").map((l) => l.trim().replace(/\/$/, "")).filter((l) => /^[a-z0-9]+\//.test(l)));

/** `lib/i18n/{en,de}.ts` → the files it names. */
function expandBraces(p: string): string[] {
  const m = /\{([^{}]*)\}/.exec(p);
  if (!m) return [p];
  return m[1]!.split(",").flatMap((part) => expandBraces(p.slice(0, m.index) + part + p.slice(m.index + m[0].length)));
}

/** The part of a path that must exist: up to its first placeholder (`<entity>`, `**`, `…`, `*`). */
function literalPart(p: string): string {
  const segments = p.replace(/:\d+$/, "").replace(/[.:]$/, "").split("/");
  const literal: string[] = [];
  for (const segment of segments) {
    if (/[<>*…$]/.test(segment)) return literal.join("/") + "/";
    literal.push(segment);
  }
  return literal.join("/");
}

function walk(dir: string, out: string[] = []): string[] {
  const SKIP = new Set(["node_modules", ".next", ".git", ".data", "test-results", "playwright-report", ".ceiling-routes", "screenshots"]);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (entry.isFile() && !/\.(png|jpe?g|gif|ico|webp|woff2?|wasm|tar|gz|zip|pdf)$/i.test(entry.name)) out.push(full);
  }
  return out;
}

describe("the documentation", () => {
  it.each(DOCS)("%s: every relative link leads to a file of the repository (and its heading)", (file) => {
    const broken: string[] = [];
    for (const m of prose(read(file)).replace(/`[^`\n]*`/g, "").matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!;
      if (/^[a-z][a-z+.-]*:/i.test(target)) continue; // https:, mailto:
      const [targetPath, anchor] = target.split("#") as [string, string | undefined];
      const resolved = targetPath === "" ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), targetPath));
      if (!existsSync(path.join(ROOT, resolved))) {
        broken.push(`${target} (no ${resolved})`);
        continue;
      }
      if (anchor !== undefined && resolved.endsWith(".md") && !anchorsOf(resolved).has(anchor)) broken.push(`${target} (no heading #${anchor} in ${resolved})`);
    }
    expect(broken).toEqual([]);
  });

  it.each(DOCS)("%s: every backticked repository path exists", (file) => {
    const missing: string[] = [];
    for (const code of prose(read(file)).matchAll(/`([^`\n]+)`/g)) {
      for (const m of code[1]!.matchAll(PATH_IN_CODE)) {
        for (const named of expandBraces(m[1]!)) {
          const p = literalPart(named);
          const full = path.join(ROOT, p);
          const exists = p.endsWith("/") ? existsSync(full) && statSync(full).isDirectory() : existsSync(full);
          if (!exists && !GENERATED.has(p.replace(/\/$/, ""))) missing.push(named);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it("has a section in docs/decisions.md for every 'decisions §N' cited in the code", () => {
    const sections = new Set([...read("docs/decisions.md").matchAll(/^## (\d+)\. /gm)].map((m) => Number(m[1])));
    const codeFiles = [
      ...["app", "lib", "components", "db", "scripts", "bench", "e2e", "tests"].flatMap((d) => walk(path.join(ROOT, d))),
      ...readdirSync(ROOT).filter((f) => /\.(mjs|mts|ts)$/.test(f)).map((f) => path.join(ROOT, f)),
    ].filter((f) => /\.(ts|tsx|mts|mjs|js|sql)$/.test(f));
    const cited = new Map<number, string>();
    for (const f of codeFiles) {
      const text = readFileSync(f, "utf8");
      // "decisions §7", "decisions §2, §11", "decisions §2 and §11", "decisions §13–§14".
      for (const m of text.matchAll(/decisions\s+§(\d+)((?:\s*(?:,|and|–|-|\/)\s*§\d+)*)/gi)) {
        const numbers = [m[1]!, ...[...m[2]!.matchAll(/§(\d+)/g)].map((n) => n[1]!)].map(Number);
        const ranged = /[–-]\s*§/.test(m[2]!) && numbers.length === 2 ? Array.from({ length: numbers[1]! - numbers[0]! + 1 }, (_, i) => numbers[0]! + i) : numbers;
        for (const n of ranged) if (!cited.has(n)) cited.set(n, path.relative(ROOT, f));
      }
    }
    expect(cited.size).toBeGreaterThan(10); // the scan finds the citations at all
    const unresolved = [...cited].filter(([n]) => !sections.has(n)).map(([n, f]) => `§${n} (cited in ${f})`);
    expect(unresolved).toEqual([]);
  });

  it("has the section each code comment names in a document (README \"Run\", docs/operations.md \"…\")", () => {
    const codeFiles = [
      ...["app", "lib", "components", "db", "scripts", "bench", "e2e", "tests"].flatMap((d) => walk(path.join(ROOT, d))),
      ...readdirSync(ROOT).filter((f) => /\.(mjs|mts|ts)$/.test(f)).map((f) => path.join(ROOT, f)),
    ].filter((f) => /\.(ts|tsx|mts|mjs|js|sql)$/.test(f));
    const unresolved: string[] = [];
    for (const f of codeFiles) {
      // A comment's words run on over its next line: join them first.
      const text = readFileSync(f, "utf8").replace(/\n\s*(?:\/\/|\*|--)\s*/g, " ");
      for (const m of text.matchAll(/(README|ARCHITECTURE\.md|docs\/[a-z-]+\.md) "([^"\n]{3,80})"/g)) {
        const doc = m[1] === "README" ? "README.md" : m[1]!;
        const headings = existsSync(path.join(ROOT, doc))
          ? [...prose(read(doc)).matchAll(/^#{1,6}\s+(.+)$/gm)].map((h) => h[1]!.replace(/`/g, "").trim().toLowerCase())
          : [];
        if (!headings.includes(m[2]!.toLowerCase())) unresolved.push(`${path.relative(ROOT, f)}: ${m[1]} "${m[2]}"`);
      }
    }
    expect(unresolved).toEqual([]);
  });

  it("names no document outside the repository", () => {
    // Spelled in pieces, so that this file does not mention them itself.
    const outside = [["..", "/shared/"], ["shared", "/decisions"], ["interface-spec", ".md"]].map((parts) => parts.join(""));
    const mentions: string[] = [];
    for (const f of walk(ROOT)) {
      const text = readFileSync(f, "utf8");
      for (const needle of outside) if (text.includes(needle)) mentions.push(`${path.relative(ROOT, f)}: ${needle}`);
    }
    expect(mentions).toEqual([]);
  });

  it("lists in the README's Configuration table exactly the settings lib/config.ts parses (and server.mjs reads)", () => {
    const schema = /const EnvSchema = z\.object\(\{([\s\S]*?)\n\}\);/.exec(read("lib/config.ts"));
    expect(schema).not.toBeNull();
    const parsed = new Set([...schema![1]!.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]!));
    const serverReads = new Set([...read("server.mjs").matchAll(/process\.env\.([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]!));
    const readme = read("README.md");
    const table = readme.slice(readme.indexOf("## Configuration"), readme.indexOf("\n## ", readme.indexOf("## Configuration") + 1));
    const documented = new Set<string>();
    for (const row of table.matchAll(/^\| ([^|]+) \|/gm)) {
      // `GOOGLE_CLIENT_ID`/`_SECRET` names GOOGLE_CLIENT_SECRET too.
      let last = "";
      for (const name of row[1]!.matchAll(/`([A-Z_][A-Z0-9_]*)`/g)) {
        const v = name[1]!.startsWith("_") ? last.replace(/_[A-Z0-9]+$/, "") + name[1] : name[1]!;
        documented.add(v);
        last = v;
      }
    }
    expect([...parsed].filter((v) => !documented.has(v))).toEqual([]);
    expect([...documented].filter((v) => !parsed.has(v) && !serverReads.has(v))).toEqual([]);
  });
});

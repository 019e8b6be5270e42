import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The documentation says only what is true of this repository: every link and every repository
// path it names exists, every "decisions §N" a comment cites has its section in
// docs/decisions.md, and nothing points at documents outside the repository.

const root = path.resolve(import.meta.dirname, "..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

const docFiles = [
  "README.md",
  "ARCHITECTURE.md",
  ...readdirSync(path.join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

/** The text outside fenced code blocks (a diagram or a terminal transcript is not a reference). */
function prose(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```[ \t]*$/gm, "");
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, "")
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchorsOf(file: string): Set<string> {
  const headings = prose(read(file)).match(/^#{1,6} .+$/gm) ?? [];
  return new Set(headings.map((h) => slug(h.replace(/^#+ /, ""))));
}

describe("documentation", () => {
  it("names every document it checks", () => {
    expect(docFiles).toContain("docs/decisions.md");
    expect(docFiles).toContain("docs/api.md");
  });

  it.each(docFiles)("%s: every relative link leads to a file, and its anchor to a heading", (file) => {
    const problems: string[] = [];
    for (const match of prose(read(file)).matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1] ?? "";
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
      const [pathPart, anchor] = target.split("#");
      const resolved = pathPart ? path.join(path.dirname(file), decodeURIComponent(pathPart)) : file;
      if (!existsSync(path.join(root, resolved))) {
        problems.push(`${target}: no ${resolved}`);
        continue;
      }
      if (anchor && resolved.endsWith(".md") && !anchorsOf(resolved).has(anchor)) {
        problems.push(`${target}: no heading #${anchor} in ${resolved}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it.each(docFiles)("%s: every repository path in backticks exists", (file) => {
    const problems: string[] = [];
    for (const match of prose(read(file)).matchAll(/`((?:app|lib|components|db|e2e|scripts|bench|tests)\/[^`\s]*)`/g)) {
      const named = match[1] ?? "";
      // Patterns and placeholders (`lib/services/<entity>/`, `app/api/v1/**/route.ts`,
      // `lib/i18n/{en,de}.ts`) name a kind of file, not one file.
      if (/[<>*{}…]/.test(named)) continue;
      if (!existsSync(path.join(root, named))) problems.push(named);
    }
    expect(problems).toEqual([]);
  });

  it('every "decisions §N" cited in the code has its section in docs/decisions.md', () => {
    const sections = new Set([...read("docs/decisions.md").matchAll(/^## (\d+)\./gm)].map((m) => Number(m[1])));
    const cited = new Map<number, string>();
    const codeDirs = ["app", "lib", "components", "db", "scripts", "bench", "e2e", "tests"];
    const rootScripts = readdirSync(root).filter((f) => /\.(mjs|mts|ts)$/.test(f)); // server.mjs, next.config.ts, proxy.ts…
    const files = [...codeDirs.flatMap((dir) => walk(path.join(root, dir))), ...rootScripts.map((f) => path.join(root, f))];
    for (const file of files) {
      if (!/\.(ts|tsx|mts|mjs|js|sql)$/.test(file)) continue;
      for (const match of readFileSync(file, "utf8").matchAll(/decisions\s+(§\d+(?:\s*(?:,|and|–|-)\s*§\d+)*)/gi)) {
        for (const n of (match[1] ?? "").matchAll(/§(\d+)/g)) cited.set(Number(n[1]), path.relative(root, file));
      }
    }
    expect(cited.size).toBeGreaterThan(10);
    const missing = [...cited].filter(([n]) => !sections.has(n)).map(([n, file]) => `§${n} (${file})`);
    expect(missing).toEqual([]);
  });

  it("README's configuration table names every variable the service reads, and no other", () => {
    const config = read("lib/config.ts");
    const schema = config.slice(config.indexOf("const EnvSchema = z.object({"), config.indexOf("\n});", config.indexOf("const EnvSchema")));
    const readByService = new Set([...schema.matchAll(/^\s+([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]));
    for (const m of read("server.mjs").matchAll(/process\.env\.(SHUTDOWN_[A-Z_]+)/g)) readByService.add(m[1]);
    const readme = read("README.md");
    const table = readme.slice(readme.indexOf("## Configuration"), readme.indexOf("\n## ", readme.indexOf("## Configuration") + 1));
    const documented = new Set(
      table
        .split("\n")
        .filter((line) => line.startsWith("| `"))
        .flatMap((line) => [...(line.split(" | ")[0] ?? "").matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1])),
    );
    expect(readByService.size).toBeGreaterThan(30);
    expect([...documented].sort()).toEqual([...readByService].sort());
  });

  it('every section a code comment names in a document (README "Run", docs/operations.md "…") is a heading there', () => {
    const codeDirs = ["app", "lib", "components", "db", "scripts", "bench", "e2e", "tests"];
    const rootScripts = readdirSync(root).filter((f) => /\.(mjs|mts|ts)$/.test(f));
    const files = [...codeDirs.flatMap((dir) => walk(path.join(root, dir))), ...rootScripts.map((f) => path.join(root, f))];
    const problems: string[] = [];
    for (const file of files) {
      if (!/\.(ts|tsx|mts|mjs|js|sql)$/.test(file)) continue;
      // A comment's words run on over its next line: join the lines first.
      const text = readFileSync(file, "utf8").replace(/\n\s*(?:\/\/|\*|--)\s*/g, " ");
      for (const match of text.matchAll(/(README|ARCHITECTURE\.md|docs\/[a-z-]+\.md) "([^"\n]{3,80})"/g)) {
        const doc = match[1] === "README" ? "README.md" : (match[1] ?? "");
        const name = (match[2] ?? "").toLowerCase();
        const headings = existsSync(path.join(root, doc))
          ? (prose(read(doc)).match(/^#{1,6} .+$/gm) ?? []).map((h) => h.replace(/^#+ /, "").replace(/`/g, "").trim().toLowerCase())
          : [];
        if (!headings.includes(name)) problems.push(`${path.relative(root, file)}: ${match[1]} "${match[2]}"`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("ARCHITECTURE.md's drawing names every room of lib/: each folder, each service entity, each module at its top", () => {
    const drawing = read("ARCHITECTURE.md").match(/^```\n([\s\S]*?)^```$/m)?.[1] ?? "";
    const lib = path.join(root, "lib");
    const entries = readdirSync(lib, { withFileTypes: true });
    const rooms = [
      ...entries.filter((e) => e.isDirectory() && walk(path.join(lib, e.name)).length > 0).map((e) => `lib/${e.name}/`),
      ...entries.filter((e) => e.isFile() && /\.ts$/.test(e.name) && !/\.test\.ts$/.test(e.name)).map((e) => `lib/${e.name}`),
    ];
    const entities = readdirSync(path.join(lib, "services"), { withFileTypes: true })
      .filter((e) => e.isDirectory() && walk(path.join(lib, "services", e.name)).length > 0)
      .map((e) => `${e.name}/`);
    const unnamed = [...rooms, ...entities].filter((room) => !new RegExp(`(^|[\\s(,])${room.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, "m").test(drawing));
    expect(unnamed).toEqual([]);
  });

  it("no file points at documents outside the repository", () => {
    // Spelled in parts, so that this file does not name them itself.
    const outside = [["..", "/shared/"], ["shared", "/decisions"], ["interface", "-spec.md"]].map((p) => p.join(""));
    const found: string[] = [];
    for (const file of walk(root)) {
      if (/\.(png|jpe?g|gif|ico|webp|woff2?|wasm|tar|gz|zip|pdf)$/i.test(file)) continue;
      if (statSync(file).size > 5_000_000) continue;
      const text = readFileSync(file, "utf8");
      for (const needle of outside) if (text.includes(needle)) found.push(`${path.relative(root, file)}: ${needle}`);
    }
    expect(found).toEqual([]);
  });
});

/** Every file under a folder, leaving out what is installed, built or generated. */
function walk(dir: string): string[] {
  const skip = new Set(["node_modules", ".next", ".git", ".data", "test-results", "playwright-report", ".ceiling-routes"]);
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (skip.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(full));
    else if (entry.isFile()) out.push(full);
  }
  return out;
}

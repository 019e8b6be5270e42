import type { CheckResult } from "./types";

// The doctor's report as a plain-text table for a terminal (and docs/operations.md): one row per check,
// long findings and fixes wrapped inside their column (an address wider than it is never cut).

const WIDTHS = { check: 17, status: 6, finding: 46, fix: 40 } as const;
const MARK = { ok: "ok", warn: "WARN", fail: "FAIL" } as const;

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = "";
    }
    // A word wider than the column (an address to copy) stays whole and widens its line.
    line = line ? `${line} ${word}` : word;
  }
  if (line || lines.length === 0) lines.push(line);
  return lines;
}

export function formatTable(rows: Pick<CheckResult, "check" | "status" | "finding" | "fix">[]): string {
  const columns = ["check", "status", "finding", "fix"] as const;
  const rule = `+${columns.map((c) => "-".repeat(WIDTHS[c] + 2)).join("+")}+`;
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(WIDTHS[columns[i]!])).join(" | ")} |`;
  const out = [rule, line([...columns]), rule];
  for (const row of rows) {
    const cells = [wrap(row.check, WIDTHS.check), [MARK[row.status]], wrap(row.finding, WIDTHS.finding), wrap(row.fix ?? "", WIDTHS.fix)];
    const height = Math.max(...cells.map((c) => c.length));
    for (let i = 0; i < height; i++) out.push(line(cells.map((c) => c[i] ?? "")));
    out.push(rule);
  }
  return out.join("\n");
}

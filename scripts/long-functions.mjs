// `npm run figures`: the product functions over 80 lines (app, components, lib, db), longest first.
// A figure, not a rule: a long function is a place to look, and the count is quoted in issue notes.
import ts from "typescript";
import fs from "node:fs";
import { execSync } from "node:child_process";
const files = execSync("git ls-files app components lib db proxy.ts instrumentation.ts server.mjs", { encoding: "utf8" }).split("\n")
  .filter((f) => /\.(ts|tsx|mts|mjs)$/.test(f) && !/\.(test|spec|property\.test)\.|\/migrations\//.test(f));
const long = [];
for (const f of files) {
  const src = ts.createSourceFile(f, fs.readFileSync(f, "utf8"), ts.ScriptTarget.Latest, true);
  const visit = (n) => {
    if (ts.isFunctionDeclaration(n) || ts.isArrowFunction(n) || ts.isFunctionExpression(n) || ts.isMethodDeclaration(n)) {
      const a = src.getLineAndCharacterOfPosition(n.getStart()).line, b = src.getLineAndCharacterOfPosition(n.getEnd()).line;
      if (b - a + 1 > 80) {
        let name = n.name?.getText() ?? (ts.isVariableDeclaration(n.parent) ? n.parent.name.getText() : ts.isPropertyAssignment(n.parent) ? n.parent.name.getText() : "(anonymous)");
        long.push(`${b - a + 1}\t${f}:${a + 1}\t${name}`);
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(src);
}
long.sort((x, y) => parseInt(y) - parseInt(x));
console.log(`files ${files.length}, functions over 80 lines: ${long.length}`);
console.log(long.join("\n"));

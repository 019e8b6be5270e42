// `npm run lint:cycles`: no import cycle between files, and none between rooms (ARCHITECTURE.md).
// A room is a folder of lib/ (each entity folder of lib/services/ on its own), a module at lib/'s
// top, app/, db/ or a folder of components/. Type imports count: a cycle through a type is still
// two rooms that cannot be understood one without the other.
import madge from "madge";

const roots = ["app", "components", "db", "lib", "proxy.ts", "instrumentation.ts"];

/** The room of a file. */
export function roomOf(file) {
  const parts = file.split("/");
  if (parts[0] === "lib" && parts[1] === "services" && parts.length > 3) return parts.slice(0, 3).join("/");
  if (parts[0] === "lib") return parts.length > 2 ? parts.slice(0, 2).join("/") : `lib/${parts[1].replace(/\.(tsx?|mts)$/, "")}`;
  if (parts[0] === "components" && parts.length > 2) return parts.slice(0, 2).join("/");
  return parts[0];
}

/** Strongly connected rooms (Tarjan): every group of two or more rooms that import each other round. */
function cyclesOf(edges) {
  let next = 0;
  const stack = [], onStack = new Set(), index = new Map(), low = new Map(), groups = [];
  const visit = (v) => {
    index.set(v, next); low.set(v, next); next += 1; stack.push(v); onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))); }
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const group = [];
    let w;
    do { w = stack.pop(); onStack.delete(w); group.push(w); } while (w !== v);
    if (group.length > 1) groups.push(group.sort());
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return groups;
}

const graph = await madge(roots, { fileExtensions: ["ts", "tsx", "mts"], tsConfig: "tsconfig.json" });
const files = graph.obj();
const edges = new Map();
const examples = new Map();
for (const [file, imports] of Object.entries(files)) {
  if (/\.(test|spec)\.|\.property\.test\./.test(file)) continue;
  const from = roomOf(file);
  if (!edges.has(from)) edges.set(from, new Set());
  for (const imported of imports) {
    const to = roomOf(imported);
    if (to === from) continue;
    edges.get(from).add(to);
    const key = `${from} -> ${to}`;
    if (!examples.has(key)) examples.set(key, `${file} imports ${imported}`);
  }
}

let failed = false;
const fileCycles = graph.circular();
if (fileCycles.length > 0) {
  failed = true;
  console.error(`${fileCycles.length} import cycle(s) between files:`);
  for (const cycle of fileCycles) console.error(`  ${cycle.join(" -> ")}`);
}
const roomCycles = cyclesOf(edges);
if (roomCycles.length > 0) {
  failed = true;
  console.error(`${roomCycles.length} cycle(s) between rooms; each room must import only rooms below it:`);
  for (const group of roomCycles) {
    console.error(`  ${group.join(", ")}`);
    const inGroup = new Set(group);
    for (const from of group) for (const to of edges.get(from) ?? []) if (inGroup.has(to)) console.error(`    ${examples.get(`${from} -> ${to}`)}`);
  }
}
console.log(`${Object.keys(files).length} files, ${edges.size} rooms: ${fileCycles.length} file cycles, ${roomCycles.length} room cycles`);
process.exit(failed ? 1 : 0);

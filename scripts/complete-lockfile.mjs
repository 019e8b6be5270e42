#!/usr/bin/env node
// Adds lockfile entries for platform-specific optional packages that the package registry
// reachable here does not serve (macOS, Windows, … builds of native binaries). npm records
// nothing for a package it cannot fetch, and `npm ci` then refuses the lockfile as out of sync.
// An entry with its `os`/`cpu` is what npm writes on a machine that can fetch it; on Linux
// x64 npm skips it without downloading. Run after `npm install` changes package-lock.json.
import { readFileSync, writeFileSync } from "node:fs";

const file = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(file, "utf8"));
const packages = lock.packages;

const OS = ["darwin", "win32", "linux", "android", "freebsd", "openharmony", "sunos", "aix", "netbsd", "openbsd"];
const CPU = { x64: "x64", arm64: "arm64", ia32: "ia32", arm: "arm", loong64: "loong64", ppc64: "ppc64", riscv64: "riscv64", s390x: "s390x", wasm32: "wasm32" };

function platformOf(name) {
  const parts = name.split("/").pop().split("-");
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.map((p) => CPU[p]).find(Boolean);
  if (parts.includes("wasm32")) return { cpu: ["wasm32"] };
  const out = {};
  if (os) out.os = [os];
  if (cpu) out.cpu = [cpu];
  if (os === "linux" && parts.some((p) => p.includes("musl"))) out.libc = ["musl"];
  else if (os === "linux" && parts.some((p) => p.includes("gnu"))) out.libc = ["glibc"];
  return out;
}

let added = 0;
for (const [where, pkg] of Object.entries(packages)) {
  for (const [dep, range] of Object.entries(pkg.optionalDependencies ?? {})) {
    const nested = `${where ? `${where}/` : ""}node_modules/${dep}`;
    if (packages[nested] || packages[`node_modules/${dep}`]) continue;
    const platform = platformOf(dep);
    if (!platform.os && !platform.cpu) continue; // not a platform build: leave it to npm
    packages[`node_modules/${dep}`] = { version: range.replace(/^[\^~=]/, ""), optional: true, ...platform };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))));
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${added} platform entries`);

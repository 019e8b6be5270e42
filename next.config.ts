import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships WASM and data files, argon2 a native addon, pino worker threads:
  // load them from node_modules at run time instead of bundling them.
  serverExternalPackages: ["@electric-sql/pglite", "@node-rs/argon2", "pino", "postgres"],
  poweredByHeader: false,
};

export default nextConfig;

import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const config = [
  ...nextVitals,
  ...nextTs,
  // Tests read JSON bodies loosely on purpose: the assertions are the type check.
  { files: ["tests/**", "e2e/**", "**/*.test.ts"], rules: { "@typescript-eslint/no-explicit-any": "off" } },
  { ignores: [".next/**", "bench/ceiling/.next/**", ".data/**", "node_modules/**", "next-env.d.ts", "db/migrations/**", "test-results/**", "playwright-report/**"] },
];

export default config;

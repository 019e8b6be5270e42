import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const config = [
  ...nextVitals,
  ...nextTs,
  { ignores: [".next/**", ".data/**", "node_modules/**", "next-env.d.ts", "db/migrations/**", "test-results/**", "playwright-report/**"] },
];

export default config;

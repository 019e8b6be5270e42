import "server-only";
import pino from "pino";
import { getConfig } from "@/lib/config";

function level(): string {
  try {
    return getConfig().logLevel;
  } catch {
    // A bad configuration is reported by the start-up check; logging must still work.
    return "info";
  }
}

// Structured JSON logs. Anything that looks like a credential is redacted wherever it
// appears in a logged object, so a careless `log.info({ body })` cannot leak one.
const redactKeys = [
  "password",
  "passwordHash",
  "token",
  "accessToken",
  "refreshToken",
  "appSpecificPassword",
  "secret",
  "authorization",
  "cookie",
  "jwtSecret",
  "encryptionKey",
  "authToken",
  "clientSecret",
  "client_secret",
  "code_verifier",
  "id_token",
  "access_token",
  "refresh_token",
];

// Drizzle puts the query parameters of a failed query into the error (a password hash, a token
// hash, a guest's email): keep the SQL and the cause, drop the values.
const withoutParams = (text: string | undefined) => text?.replace(/\nparams: [^\n]*/g, "\nparams: [redacted]");

function serializeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const cause = (error as { cause?: unknown }).cause;
  return {
    type: error.name,
    message: withoutParams(error.message),
    code: (error as { code?: unknown }).code,
    stack: withoutParams(error.stack),
    ...(cause ? { cause: serializeError(cause) } : {}),
  };
}

export const log = pino({
  serializers: { err: serializeError },
  level: level(),
  base: { service: "booking" },
  timestamp: pino.stdTimeFunctions.isoTime,
  redact: {
    paths: [...redactKeys, ...redactKeys.map((k) => `*.${k}`), ...redactKeys.map((k) => `*.*.${k}`)],
    censor: "[redacted]",
  },
});

import pino from "pino";

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
];

export const log = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "silent" : "info"),
  base: { service: "booking" },
  timestamp: pino.stdTimeFunctions.isoTime,
  redact: {
    paths: [...redactKeys, ...redactKeys.map((k) => `*.${k}`), ...redactKeys.map((k) => `*.*.${k}`)],
    censor: "[redacted]",
  },
});

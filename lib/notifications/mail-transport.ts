import "server-only";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { SendMailOptions, Transporter } from "nodemailer";
import { getConfig } from "@/lib/config";
import { log } from "@/lib/log";

// Where mail goes: SMTP_URL through nodemailer's SMTP transport; without it, each message is
// written whole (as an SMTP server would receive it) to DATA_DIR/mail/<time>-<id>.eml, and the
// path is logged, so a development setup can read what would have been sent.

export type SentMail = { via: "smtp"; response: string } | { via: "file"; path: string };

const holder = globalThis as unknown as { __bookingSmtp?: { url: string; transporter: Transporter } };

// nodemailer is loaded with the first message, not at start: a web process that never sends
// (the worker does) does not hold it.
const loadNodemailer = async () => (await import("nodemailer")).default;

async function smtpTransport(url: string): Promise<Transporter> {
  const nodemailer = await loadNodemailer();
  if (holder.__bookingSmtp?.url !== url) {
    holder.__bookingSmtp?.transporter.close();
    // Timeouts well inside the job's lease: a hung server fails the attempt, which is retried.
    holder.__bookingSmtp = { url, transporter: nodemailer.createTransport({ url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 }) };
  }
  return holder.__bookingSmtp.transporter;
}

let fileTransport: Transporter | undefined;
async function theFileTransport(): Promise<Transporter> {
  fileTransport ??= (await loadNodemailer()).createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return fileTransport;
}

function fileNameOf(messageId: string | undefined, now: Date): string {
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  const id = (messageId ?? "message").replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 120);
  return `${stamp}-${id}.eml`;
}

// The mail folders made by this process: made once, not before every message (and again should
// one be removed meanwhile).
const madeDirs = new Set<string>();

async function writeMailFile(dir: string, file: string, content: Buffer): Promise<void> {
  if (madeDirs.has(dir)) {
    try {
      return await writeFile(file, content);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  await mkdir(dir, { recursive: true });
  madeDirs.add(dir);
  await writeFile(file, content);
}

export async function sendMail(message: SendMailOptions): Promise<SentMail> {
  const { smtpUrl, dataDir } = getConfig();
  if (smtpUrl) {
    const info = await (await smtpTransport(smtpUrl)).sendMail(message);
    return { via: "smtp", response: String(info.response ?? "") };
  }
  const info = await (await theFileTransport()).sendMail(message);
  const dir = path.join(dataDir, "mail");
  const file = path.join(dir, fileNameOf(typeof message.messageId === "string" ? message.messageId : undefined, new Date()));
  await writeMailFile(dir, file, info.message as Buffer);
  log.info({ path: file }, "mail: SMTP_URL is not set; message written to a file");
  return { via: "file", path: file };
}

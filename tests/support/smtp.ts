import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

// A real SMTP server inside the test: nodemailer talks SMTP to it, and each message it accepts
// is parsed with mailparser (envelope recipients kept).

export type ReceivedMail = { envelopeTo: string[]; mail: ParsedMail; raw: string };

export type SmtpSink = { url: string; mails: ReceivedMail[]; close(): Promise<void> };

export async function startSmtpServer(): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        simpleParser(raw)
          .then((mail) => {
            mails.push({ envelopeTo: session.envelope.rcptTo.map((r) => r.address), mail, raw });
            callback();
          })
          .catch(callback);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

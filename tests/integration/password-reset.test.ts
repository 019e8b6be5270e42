import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/store/database";
import { outboxJobs, passwordResets } from "@/db/schema";
import { PASSWORD_RESET_EMAIL } from "@/lib/outbox/kinds";
import { api } from "../support/api";
import { clientHeaders } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createHost, type TestHost } from "../support/factories";
import { configure, testWorker } from "../support/jobs";
import { startSmtpServer, type SmtpSink } from "../support/smtp";

// Forgotten passwords end to end: the request through the API, the outbox worker, nodemailer
// talking SMTP to a server inside the test, the link from the message, the confirm.

withTestDatabase({ isolated: true });

let smtp: SmtpSink;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(() => smtp.close());
beforeEach(async () => {
  configure({ smtpUrl: smtp.url });
  smtp.mails.length = 0;
  await (await getDb()).delete(outboxJobs);
});

const ask = (email: string, headers = clientHeaders()) => api.post("/auth/password-reset", { email }, { headers });
const confirm = (token: string, newPassword: string) => api.post("/auth/password-reset/confirm", { token, newPassword }, { headers: clientHeaders() });
const logIn = (host: TestHost, password: string) => api.post("/auth/login", { email: host.email, password }, { headers: clientHeaders() });

/** Runs the outbox and answers the reset links that arrived for `email`, oldest first. */
async function linksFor(email: string): Promise<string[]> {
  await (await testWorker()).runDueJobs();
  return smtp.mails
    .filter((m) => m.envelopeTo.includes(email))
    .map((m) => {
      const url = /http:\/\/booking\.test\/reset-password\/([A-Za-z0-9_-]+)/.exec(m.mail.text ?? "");
      expect(url, m.mail.text).not.toBeNull();
      return url![1]!;
    });
}

describe("asking for a reset link (POST /auth/password-reset)", () => {
  it("answers the same for a known and an unknown address, and mails only the known one", async () => {
    const host = await createHost();
    const known = await ask(host.email.toUpperCase());
    const unknown = await ask(`nobody-${host.username}@example.com`);
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(unknown.body).toEqual(known.body);
    expect(Object.keys(known.body)).toEqual(["message"]);

    const links = await linksFor(host.email);
    expect(links).toHaveLength(1);
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0]!.mail.subject).toBe("Reset your password");
    // 256 random bits, base64url; only the hash is stored.
    expect(links[0]).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = await (await getDb()).select().from(passwordResets).where(eq(passwordResets.tokenHash, links[0]!));
    expect(rows).toHaveLength(0);
  });

  it("refuses a malformed address with 400 and changes nothing", async () => {
    const res = await api.post("/auth/password-reset", { email: "not-an-email" }, { headers: clientHeaders() });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("validation_error");
    expect(res.body.details.issues[0].path).toBe("email");
    expect(await (await getDb()).select().from(outboxJobs).where(eq(outboxJobs.kind, PASSWORD_RESET_EMAIL))).toHaveLength(0);
  });

  it("sends at most 3 mails an hour per address, still answering 202; 5 requests per 15 minutes per client address, then 429", async () => {
    const host = await createHost();
    const worker = await testWorker();
    for (let i = 0; i < 5; i++) {
      expect((await ask(host.email)).status).toBe(202);
      await worker.runDueJobs();
    }
    expect(await linksFor(host.email)).toHaveLength(3);

    const from = clientHeaders();
    for (let i = 0; i < 5; i++) expect((await ask(`someone-${i}-${host.username}@example.com`, from)).status).toBe(202);
    const refused = await ask(`someone-else-${host.username}@example.com`, from);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe("rate_limited");
  });
});

describe("setting the new password (POST /auth/password-reset/confirm)", () => {
  it("sets the password, ends every earlier token, and the link works once", async () => {
    const host = await createHost();
    await ask(host.email);
    const [token] = await linksFor(host.email);

    const res = await confirm(token!, "a brand new password");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toEqual(expect.any(String));

    expect((await api.get("/me", { token: host.token })).status).toBe(401);
    expect((await logIn(host, host.password)).status).toBe(401);
    const fresh = await logIn(host, "a brand new password");
    expect(fresh.status).toBe(200);
    expect((await api.get("/me", { token: fresh.body.accessToken })).status).toBe(200);

    const again = await confirm(token!, "yet another password");
    expect(again.status).toBe(400);
    expect(again.body.error).toBe("validation_error");
    expect(again.body.details.issues).toEqual([{ path: "token", message: expect.stringMatching(/expired or was already used/) }]);
    expect((await logIn(host, "a brand new password")).status).toBe(200);
  });

  it("refuses an expired link, an unknown one, a replaced one, and a short password, changing nothing", async () => {
    const host = await createHost();
    await ask(host.email);
    const [first] = await linksFor(host.email);
    await ask(host.email);
    const [, second] = await linksFor(host.email);
    // A newer request replaced the first link.
    expect((await confirm(first!, "a brand new password")).status).toBe(400);

    const short = await confirm(second!, "short");
    expect(short.status).toBe(400);
    expect(short.body.details.issues[0].path).toBe("newPassword");

    await (await getDb()).update(passwordResets).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(passwordResets.userId, host.id));
    const expired = await confirm(second!, "a brand new password");
    expect(expired.status).toBe(400);
    expect(expired.body.details.issues[0].path).toBe("token");

    expect((await confirm("x".repeat(43), "a brand new password")).status).toBe(400);
    expect((await logIn(host, host.password)).status).toBe(200);
    expect((await api.get("/me", { token: host.token })).status).toBe(200);
  });
});

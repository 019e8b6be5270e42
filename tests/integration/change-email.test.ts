import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/store/database";
import { emailChanges, outboxJobs } from "@/db/schema";
import { api } from "../support/api";
import { clientHeaders } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createHost, unique } from "../support/factories";
import { configure, testWorker } from "../support/jobs";
import { startSmtpServer, type SmtpSink } from "../support/smtp";

// POST /me/email: the new address gets a link, and the account's email changes only when the
// link is used.

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

async function linkTo(email: string): Promise<string> {
  await (await testWorker()).runDueJobs();
  const mail = smtp.mails.filter((m) => m.envelopeTo.includes(email)).at(-1);
  expect(mail, `a message to ${email}`).toBeDefined();
  return /http:\/\/booking\.test\/confirm-email\/([A-Za-z0-9_-]+)/.exec(mail!.mail.text ?? "")![1]!;
}
const confirm = (token: string) => api.post("/auth/email-change/confirm", { token }, { headers: clientHeaders() });

describe("changing the email", () => {
  it("mails the new address and changes the email only on confirm; the link works once", async () => {
    const host = await createHost();
    const newEmail = `${unique("new")}@example.com`;
    const res = await api.post("/me/email", { newEmail: newEmail.toUpperCase(), password: host.password }, { token: host.token });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.message).toEqual(expect.any(String));
    expect((await api.get("/me", { token: host.token })).body.email).toBe(host.email);

    const token = await linkTo(newEmail);
    expect(smtp.mails.every((m) => !m.envelopeTo.includes(host.email))).toBe(true);
    const done = await confirm(token);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect((await api.get("/me", { token: host.token })).body.email).toBe(newEmail);
    expect((await api.post("/auth/login", { email: newEmail, password: host.password }, { headers: clientHeaders() })).status).toBe(200);
    expect((await api.post("/auth/login", { email: host.email, password: host.password }, { headers: clientHeaders() })).status).toBe(401);

    // The address the account left is told, and where it went.
    await (await testWorker()).runDueJobs();
    const notice = smtp.mails.find((m) => m.envelopeTo.includes(host.email));
    expect(notice?.mail.subject).toBe("Your account's email was changed");
    expect(notice?.mail.text).toContain(newEmail);
    expect(notice?.mail.text).toContain("http://booking.test/forgot-password");

    const again = await confirm(token);
    expect(again.status).toBe(400);
    expect(again.body.details.issues[0].path).toBe("token");
  });

  it("answers 409 for a taken address, 400 for a wrong password or a bad address, and refuses an expired link", async () => {
    const host = await createHost();
    const other = await createHost();
    const taken = await api.post("/me/email", { newEmail: other.email, password: host.password }, { token: host.token });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toBe("conflict");
    const wrong = await api.post("/me/email", { newEmail: `${unique("x")}@example.com`, password: "not the password" }, { token: host.token });
    expect(wrong.status).toBe(400);
    expect(wrong.body.details.issues[0].path).toBe("password");
    const bad = await api.post("/me/email", { newEmail: "nope", password: host.password }, { token: host.token });
    expect(bad.status).toBe(400);
    expect(bad.body.details.issues[0].path).toBe("newEmail");
    expect(await (await getDb()).select().from(emailChanges).where(eq(emailChanges.userId, host.id))).toHaveLength(0);

    const newEmail = `${unique("late")}@example.com`;
    expect((await api.post("/me/email", { newEmail, password: host.password }, { token: host.token })).status).toBe(202);
    const token = await linkTo(newEmail);
    await (await getDb()).update(emailChanges).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(emailChanges.userId, host.id));
    expect((await confirm(token)).status).toBe(400);
    expect((await api.get("/me", { token: host.token })).body.email).toBe(host.email);
  });

  it("answers 409 at confirm when another account took the address meanwhile", async () => {
    const host = await createHost();
    const newEmail = `${unique("race")}@example.com`;
    expect((await api.post("/me/email", { newEmail, password: host.password }, { token: host.token })).status).toBe(202);
    const token = await linkTo(newEmail);
    const reg = await api.post(
      "/auth/register",
      { email: newEmail, password: "someone else's", fullName: "Other", username: unique("other"), timezone: "UTC" },
      { headers: clientHeaders() },
    );
    expect(reg.status).toBe(201);
    expect((await confirm(token)).status).toBe(409);
    expect((await api.get("/me", { token: host.token })).body.email).toBe(host.email);
  });
});

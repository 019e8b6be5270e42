import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/store/database";
import { emailChanges, outboxJobs } from "@/db/schema";
import { api } from "../support/api";
import { clientHeaders } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createHost, unique, type TestHost } from "../support/factories";
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

  it("answers 400 for a wrong password or a bad address, and refuses an expired link", async () => {
    const host = await createHost();
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

describe("an address that has an account (no enumeration)", () => {
  it("answers 202 as for a free one, records no usable change, and tells the taken address instead", async () => {
    const host = await createHost();
    const other = await createHost();
    const free = await api.post("/me/email", { newEmail: `${unique("free")}@example.com`, password: host.password }, { token: host.token });
    const taken = await api.post("/me/email", { newEmail: other.email.toUpperCase(), password: host.password }, { token: host.token });
    expect(taken.status, JSON.stringify(taken.body)).toBe(202);
    expect(taken.body).toEqual(free.body);
    // The request for the taken address replaced the earlier one, and left nothing to confirm.
    const rows = await (await getDb()).select().from(emailChanges).where(eq(emailChanges.userId, host.id));
    expect(rows.filter((r) => r.usedAt === null && r.expiresAt > new Date())).toHaveLength(0);

    await (await testWorker()).runDueJobs();
    const toOther = smtp.mails.filter((m) => m.envelopeTo.includes(other.email));
    expect(toOther).toHaveLength(1);
    expect(toOther[0]!.mail.subject).toBe("Someone tried to move an account to this email");
    expect(toOther[0]!.mail.text).toContain("already has an account");
    expect(toOther[0]!.mail.text).not.toMatch(/confirm-email|reset-password/);
    expect(smtp.mails.every((m) => !m.envelopeTo.includes(host.email))).toBe(true);
    expect((await api.get("/me", { token: other.token })).body.email).toBe(other.email);
    expect((await api.get("/me", { token: host.token })).body.email).toBe(host.email);
  });
});

// Whoever once had the password must not keep a way back in: an unused change of address ends
// when the password changes (in settings or by a reset) and on signing out everywhere, and a
// confirmed change of address ends the reset links sent to the old one.
describe("outstanding links end when the account's credentials change", () => {
  const logIn = (email: string, password: string) => api.post("/auth/login", { email, password }, { headers: clientHeaders() });

  async function pendingChange(host: TestHost): Promise<{ newEmail: string; token: string }> {
    const newEmail = `${unique("attacker")}@example.com`;
    expect((await api.post("/me/email", { newEmail, password: host.password }, { token: host.token })).status).toBe(202);
    return { newEmail, token: await linkTo(newEmail) };
  }
  async function resetLinkTo(email: string): Promise<string> {
    expect((await api.post("/auth/password-reset", { email }, { headers: clientHeaders() })).status).toBe(202);
    await (await testWorker()).runDueJobs();
    const mail = smtp.mails.filter((m) => m.envelopeTo.includes(email) && m.mail.subject === "Reset your password").at(-1);
    expect(mail, `a reset link to ${email}`).toBeDefined();
    return /http:\/\/booking\.test\/reset-password\/([A-Za-z0-9_-]+)/.exec(mail!.mail.text ?? "")![1]!;
  }
  async function expectRefused(change: { token: string }, host: TestHost, password: string) {
    const res = await confirm(change.token);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.details.issues[0].path).toBe("token");
    const token = (await logIn(host.email, password)).body.accessToken as string;
    expect((await api.get("/me", { token })).body.email).toBe(host.email);
  }

  it("a password change in settings ends a pending change of address", async () => {
    const host = await createHost();
    const change = await pendingChange(host);
    const changed = await api.post("/me/password", { currentPassword: host.password, newPassword: "a new password 1" }, { token: host.token });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    await expectRefused(change, host, "a new password 1");
  });

  it("signing out everywhere ends a pending change of address", async () => {
    const host = await createHost();
    const change = await pendingChange(host);
    expect((await api.post("/auth/logout", undefined, { token: host.token })).status).toBe(204);
    await expectRefused(change, host, host.password);
  });

  it("a password reset ends a pending change of address", async () => {
    const host = await createHost();
    const change = await pendingChange(host);
    const reset = await api.post("/auth/password-reset/confirm", { token: await resetLinkTo(host.email), newPassword: "a new password 2" }, { headers: clientHeaders() });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    await expectRefused(change, host, "a new password 2");
  });

  it("a confirmed change of address ends the reset links sent to the old one", async () => {
    const host = await createHost();
    const resetToken = await resetLinkTo(host.email);
    const change = await pendingChange(host);
    expect((await confirm(change.token)).status).toBe(200);
    const reset = await api.post("/auth/password-reset/confirm", { token: resetToken, newPassword: "taken over 3" }, { headers: clientHeaders() });
    expect(reset.status, JSON.stringify(reset.body)).toBe(400);
    expect((await logIn(change.newEmail, "taken over 3")).status).toBe(401);
    expect((await logIn(change.newEmail, host.password)).status).toBe(200);
  });
});

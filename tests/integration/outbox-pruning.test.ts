import { count, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bookingGuestTokens, outboxJobs, passwordResets } from "@/db/schema";
import { runHousekeeping } from "@/lib/jobs/housekeeping";
import { getDb } from "@/lib/store/database";
import { api } from "../support/api";
import { book, dateIn, getSlots, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, unique } from "../support/factories";
import { readIcs } from "../support/ics";
import { configure, testWorker } from "../support/jobs";
import { startSmtpServer, type SmtpSink } from "../support/smtp";

// Finished outbox rows are pruned after OUTBOX_RETENTION_DAYS; nothing a later message needs
// lives in them (the guest's token has its own table), so the guest's links keep working.

withTestDatabase({ isolated: true });

const DAY = 86_400_000;
let smtp: SmtpSink;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp.close();
});

const linksIn = (text: string) => [...text.matchAll(/http:\/\/booking\.test\/(?:cancel|reschedule|booking)\/[\w-]+/g)].map((m) => m[0]).sort();

describe("outbox retention", () => {
  it("prunes finished rows after the retention period, and the guest's links in later emails still work", async () => {
    configure({ smtpUrl: smtp.url, outboxRetentionDays: 7 });
    const db = await getDb();
    const host = await createHost({ timezone: "Europe/Berlin" });
    const eventType = await createEventType(host, { title: "Intro call" });
    const date = dateIn(10, host.timezone);
    await openOnly(host, date);
    const slots = await getSlots(host, eventType.slug, date);
    const guestEmail = `${unique("guest")}@example.com`;
    const booked = await book(host, eventType.slug, slots[0]!.startTime, { guestEmail });
    expect(booked.status).toBe(201);
    const worker = await testWorker();
    await worker.runDueJobs();
    const confirmation = smtp.mails.find((m) => m.envelopeTo[0] === guestEmail)!.mail;
    const links = linksIn(confirmation.text ?? "");
    expect(links).toHaveLength(3);
    // The token is kept sealed beside the booking, never readable.
    const [kept] = await db.select().from(bookingGuestTokens).where(eq(bookingGuestTokens.bookingId, booked.body.id));
    expect(kept!.sealedToken).not.toContain(new URL(booked.body.cancelUrl).pathname.split("/").pop()!);

    const mine = async () => (await db.select({ n: count() }).from(outboxJobs))[0]!.n;
    const finished = await mine();
    expect(finished).toBeGreaterThan(0);
    // Within the retention period nothing goes; past it every finished row does.
    expect((await runHousekeeping(db, Date.now() + 6 * DAY)).outboxJobs).toBe(0);
    expect(await mine()).toBe(finished);
    const pruned = await runHousekeeping(db, Date.now() + 8 * DAY);
    expect(pruned.outboxJobs).toBe(finished);
    expect(await mine()).toBe(0);

    // A later change still mails the guest the same working links.
    const before = smtp.mails.length;
    expect((await api.post(`/me/bookings/${booked.body.id}/reschedule`, { startTime: slots[2]!.startTime }, { token: host.token })).status).toBe(200);
    await worker.runDueJobs();
    const moved = smtp.mails.slice(before).find((m) => m.envelopeTo[0] === guestEmail)!.mail;
    expect(moved.subject).toMatch(/^Rescheduled:/);
    expect(linksIn(moved.text ?? "")).toEqual(links);
    const token = booked.body.cancelUrl.split("/").pop();
    const file = await api.get(`/public/bookings/${token}.ics`);
    expect(file.status).toBe(200);
    expect(readIcs(file.body)).toMatchObject({ start: slots[2]!.startTime });
  });

  it("keeps pending and running rows whatever their age, and removes expired account links", async () => {
    const db = await getDb();
    const host = await createHost();
    const old = new Date(Date.now() - 400 * DAY);
    const [pending] = await db.insert(outboxJobs).values({ kind: "test.pending", payload: {}, createdAt: old, runAfter: old }).returning();
    const [running] = await db.insert(outboxJobs).values({ kind: "test.running", payload: {}, status: "running", createdAt: old, runAfter: old }).returning();
    const [failed] = await db.insert(outboxJobs).values({ kind: "test.failed", payload: {}, status: "failed", createdAt: old, finishedAt: old }).returning();
    await db.insert(passwordResets).values([
      { id: unique("reset-old"), userId: host.id, tokenHash: unique("h1"), expiresAt: new Date(Date.now() - 2 * DAY) },
      { id: unique("reset-live"), userId: host.id, tokenHash: unique("h2"), expiresAt: new Date(Date.now() + 3_600_000) },
    ]);
    const result = await runHousekeeping(db);
    expect(result.accountLinks).toBe(1);
    const left = await db.select({ id: outboxJobs.id }).from(outboxJobs).where(inArray(outboxJobs.id, [pending!.id, running!.id, failed!.id]));
    expect(left.map((r) => r.id).sort()).toEqual([pending!.id, running!.id].sort());
    expect(await db.select().from(passwordResets).where(eq(passwordResets.userId, host.id))).toHaveLength(1);
  });
});

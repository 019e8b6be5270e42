import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/store/database";
import { bookings, outboxJobs } from "@/db/schema";
import { api } from "../support/api";
import { book, dateIn, getSlots, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, unique } from "../support/factories";
import { configure, testWorker } from "../support/jobs";
import { startSmtpServer, type SmtpSink } from "../support/smtp";

// The guest's manage link (manageUrl), a cancel reason that reaches the host, and what the
// emails give each reader: the manage link, a Reply-To to the guest, readable phone numbers, and
// times on the clock of the reader's country.

withTestDatabase({ isolated: true });

let smtp: SmtpSink;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp.close();
});

const rowOf = async (id: string) => (await (await getDb()).select().from(bookings).where(eq(bookings.id, id)))[0]!;
const tokenOf = (url: string) => new URL(url).pathname.split("/").pop()!;

async function setUp(hostZone = "Europe/Berlin") {
  await (await getDb()).delete(outboxJobs);
  configure({ smtpUrl: smtp.url });
  const host = await createHost({ timezone: hostZone, fullName: "Ada Host" });
  const eventType = await createEventType(host, {
    title: "Intro call",
    customQuestions: [{ id: "phone", label: "Phone", required: true, type: "phone" }],
  });
  const date = dateIn(6, hostZone);
  await openOnly(host, date);
  return { host, eventType, slots: await getSlots(host, eventType.slug, date) };
}

describe("manageUrl", () => {
  it("the create answer carries {APP_URL}/booking/{token} with the cancel link's token, on a replay too, and in the OpenAPI schema", async () => {
    const { host, eventType, slots } = await setUp();
    const key = randomUUID();
    const body = { guestEmail: `${unique("same")}@example.com`, customAnswers: { phone: "+14155550100" } };
    const made = await book(host, eventType.slug, slots[0]!.startTime, body, key);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const token = tokenOf(made.body.cancelUrl);
    expect(made.body.manageUrl).toBe(`http://booking.test/booking/${token}`);
    const replay = await book(host, eventType.slug, slots[0]!.startTime, body, key);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body.manageUrl).toBe(made.body.manageUrl);

    const doc = (await api.get("/openapi.json")).body;
    expect(doc.components.schemas.CreatedBooking.properties.manageUrl).toMatchObject({ type: "string" });
    expect(doc.components.schemas.CreatedBooking.required).toContain("manageUrl");
  });
});

describe("POST /public/cancel with a reason", () => {
  it("keeps the reason as cancellationReason and tells the host; over 500 characters is a 400 that cancels nothing", async () => {
    const { host, eventType, slots } = await setUp();
    const made = await book(host, eventType.slug, slots[1]!.startTime, { customAnswers: { phone: "+14155550100" } });
    const token = tokenOf(made.body.cancelUrl);

    const tooLong = await api.post("/public/cancel", { token, reason: "x".repeat(501) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.details.issues[0].path).toBe("reason");
    expect((await rowOf(made.body.id)).status).toBe("confirmed");

    const worker = await testWorker();
    await worker.runDueJobs();
    const before = smtp.mails.length;
    const cancelled = await api.post("/public/cancel", { token, reason: "  Something came up at work.  " });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(await rowOf(made.body.id)).toMatchObject({ status: "cancelled", cancelledBy: "guest", cancellationReason: "Something came up at work." });

    await worker.runDueJobs();
    const hostMail = smtp.mails.slice(before).find((m) => m.envelopeTo[0] === host.email)!.mail;
    expect(hostMail.text).toMatch(/Reason:\s+Something came up at work\./);
  });
});

describe("booking emails for the guest's later pages", () => {
  it("guest: the manage link in the text and the invitation; host: Reply-To the guest, a readable phone number, times on each reader's clock", async () => {
    const { host, eventType, slots } = await setUp("Europe/Berlin");
    const worker = await testWorker();
    const guestEmail = `${unique("nora")}@example.com`;
    const made = await book(host, eventType.slug, slots[0]!.startTime, {
      guestName: "Nora Guest",
      guestEmail,
      guestTimezone: "America/New_York",
      customAnswers: { phone: "+1 (415) 555-0100" },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const before = smtp.mails.length;
    await worker.runDueJobs();
    const batch = smtp.mails.slice(before);
    const guest = batch.find((m) => m.envelopeTo[0] === guestEmail)!.mail;
    const hostMail = batch.find((m) => m.envelopeTo[0] === host.email)!.mail;

    expect(guest.text).toContain(`See your booking: ${made.body.manageUrl}`);
    const guestIcs = guest.attachments.find((a) => a.contentType.startsWith("text/calendar"))!.content.toString("utf8");
    expect(guestIcs.replace(/\r\n[ \t]/g, "")).toContain(`DESCRIPTION:See\\, reschedule or cancel this booking: ${made.body.manageUrl}`);
    expect(guest.replyTo).toBeUndefined();
    // New York reads a 12-hour clock, Berlin a 24-hour one.
    expect(guest.text).toMatch(/\d{1,2}:\d\d (AM|PM) \(Eastern Time \(US & Canada\)\)/);
    expect(hostMail.text).toMatch(/, \d\d:\d\d – \d\d:\d\d \(Central European Time\)/);
    // A 12-hour time anywhere in it ("9:00 AM"), not the letters: the booking's id in its link is
    // random and held "AM" in one CI run (bkg_qkAM7s…).
    expect(hostMail.text).not.toMatch(/\d{1,2}:\d\d\s?(AM|PM)/);

    expect(hostMail.replyTo?.value).toEqual([{ name: "Nora Guest", address: guestEmail }]);
    expect(hostMail.text).toMatch(/Phone:\s+\+1 415 555 0100/);
    expect(hostMail.text).not.toContain("+14155550100");
    const hostIcs = hostMail.attachments.find((a) => a.contentType.startsWith("text/calendar"))!.content.toString("utf8");
    expect(hostIcs).not.toContain("/booking/"); // the guest's secret stays the guest's

    const file = await api.get(`/public/bookings/${tokenOf(made.body.manageUrl)}.ics`);
    expect(file.status).toBe(200);
    expect(String(file.body).replace(/\r\n[ \t]/g, "")).toContain(made.body.manageUrl);
  });
});

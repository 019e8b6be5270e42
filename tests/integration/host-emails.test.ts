import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/store/database";
import { outboxJobs } from "@/db/schema";
import { rangeOf } from "@/lib/time/in-words";
import { api } from "../support/api";
import { book, dateIn, getSlots, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, unique } from "../support/factories";
import { configure, testWorker } from "../support/jobs";
import { startSmtpServer, type SmtpSink } from "../support/smtp";

// The host's own emails: the welcome at sign-up, and the language the host chooses for what is
// written to them (PATCH /me), with times on their own clock.

withTestDatabase({ isolated: true });

let smtp: SmtpSink;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(() => smtp.close());

const HOST_ZONE = "America/New_York";

describe("the welcome email", () => {
  it("goes out once after sign-up, with the host's page and starter link to share", async () => {
    await (await getDb()).delete(outboxJobs);
    configure({ smtpUrl: smtp.url });
    smtp.mails.length = 0;
    const host = await createHost({ fullName: "Wendy Welcome", welcome: true });
    const worker = await testWorker();
    await worker.runDueJobs();
    await worker.runDueJobs();
    const mails = smtp.mails.filter((m) => m.envelopeTo.includes(host.email));
    expect(mails).toHaveLength(1);
    const mail = mails[0]!.mail;
    expect(mail.subject).toBe("Welcome, Wendy Welcome: your booking page is ready");
    expect(mail.text).toContain(`Your booking page: http://booking.test/${host.username}\n`);
    expect(mail.text).toContain(`Your 30 minute meeting link: http://booking.test/${host.username}/30min\n`);
    expect(mail.html).toContain(`href="http://booking.test/${host.username}/30min"`);
    expect(mail.messageId).toBe(`<${host.id}.welcome@booking.test>`);
  });
});

describe("the host's language", () => {
  it("is English until chosen; PATCH /me sets it, GET /me shows it, and refuses one not spoken here", async () => {
    const host = await createHost();
    expect((await api.get("/me", { token: host.token })).body.language).toBe("en");
    const bad = await api.patch("/me", { language: "it" }, { token: host.token });
    expect(bad.status).toBe(400);
    const set = await api.patch("/me", { language: "de" }, { token: host.token });
    expect(set.status).toBe(200);
    expect(set.body.language).toBe("de");
    expect((await api.get("/me", { token: host.token })).body.language).toBe("de");
  });

  it("a German host's booking notice is in German, at the host's time, while the guest's stays English", async () => {
    await (await getDb()).delete(outboxJobs);
    configure({ smtpUrl: smtp.url });
    const host = await createHost({ timezone: HOST_ZONE, fullName: "Ada Host" });
    expect((await api.patch("/me", { language: "de" }, { token: host.token })).status).toBe(200);
    const eventType = await createEventType(host, { title: "Intro call" });
    const date = dateIn(6, HOST_ZONE);
    await openOnly(host, date);
    const slot = (await getSlots(host, eventType.slug, date))[0]!;
    const guestEmail = `${unique("gus")}@example.com`;
    const before = smtp.mails.length;
    expect((await book(host, eventType.slug, slot.startTime, { guestName: "Gus", guestEmail, guestTimezone: "Europe/London", guestLanguage: "en" })).status).toBe(201);
    await (await testWorker()).runDueJobs();
    const sent = smtp.mails.slice(before);
    const toHost = sent.find((m) => m.envelopeTo.includes(host.email))!.mail;
    const toGuest = sent.find((m) => m.envelopeTo.includes(guestEmail))!.mail;
    const startMs = Date.parse(slot.startTime);
    const day = DateTime.fromMillis(startMs, { zone: HOST_ZONE, locale: "de-DE" }).toLocaleString({ weekday: "long", month: "long", day: "numeric", year: "numeric" });
    expect(toHost.subject).toBe(`Neue Buchung: Intro call mit Gus am ${day}`);
    expect(toHost.text).toMatch(/^Hallo Ada Host,\n/);
    expect(toHost.text).toContain(`Wann: ${rangeOf(startMs, startMs + 30 * 60_000, HOST_ZONE, undefined, "de")}\n`);
    expect(toHost.replyTo?.text).toContain(guestEmail);
    expect(toGuest.subject).toMatch(/^Confirmed: Intro call with Ada Host on /);
  });
});

import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { DateTime } from "luxon";
import type { ParsedMail } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/store/database";
import { bookings, outboxJobs } from "@/db/schema";
import { rangeOf, sentenceRange } from "@/lib/time/in-words";
import { api } from "../support/api";
import { book, clientHeaders, dateIn, getSlots, guest, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, unique } from "../support/factories";
import { readIcs } from "../support/ics";
import { configure, testWorker } from "../support/jobs";
import { startSmtpServer, type SmtpSink } from "../support/smtp";

// The guest's language goes with the booking: chosen when booking (the body's guestLanguage, else
// the guest's cookie, else Accept-Language), stored, and used for every later message to the
// guest, whoever causes it. The host's messages stay in English.

withTestDatabase({ isolated: true });

let smtp: SmtpSink;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp.close();
});

const HOST_ZONE = "America/New_York";
const GUEST_ZONE = "Europe/Berlin";

async function setUp() {
  await (await getDb()).delete(outboxJobs);
  configure({ smtpUrl: smtp.url });
  const host = await createHost({ timezone: HOST_ZONE, fullName: "Ada Host" });
  const eventType = await createEventType(host, { title: "Intro call", location: "Video call" });
  const date = dateIn(6, HOST_ZONE);
  await openOnly(host, date);
  return { host, eventType, slots: await getSlots(host, eventType.slug, date) };
}

async function storedLanguage(id: string) {
  const [row] = await (await getDb()).select({ language: bookings.guestLanguage }).from(bookings).where(eq(bookings.id, id));
  return row?.language;
}

function mailTo(from: number, address: string): ParsedMail {
  const found = smtp.mails.slice(from).filter((m) => m.envelopeTo[0] === address);
  expect(found, `one message to ${address}`).toHaveLength(1);
  return found[0]!.mail;
}

function calendarText(mail: ParsedMail): string {
  return mail.attachments.find((a) => a.contentType.startsWith("text/calendar"))!.content.toString("utf8");
}

/** "Montag, 15. März 2027": the day as German writes it. */
const germanDay = (ms: number) => DateTime.fromMillis(ms, { zone: GUEST_ZONE, locale: "de-DE" }).toLocaleString({ weekday: "long", month: "long", day: "numeric", year: "numeric" });

describe("the guest's language", () => {
  it("a booking made in German stores de: its confirmation and cancellation reach the guest in German, the host in English", async () => {
    const { host, eventType, slots } = await setUp();
    const worker = await testWorker();
    const guestEmail = `${unique("greta")}@example.com`;
    const slot = slots[0]!;
    const startMs = Date.parse(slot.startTime);
    const endMs = Date.parse(slot.endTime);

    const booked = await book(host, eventType.slug, slot.startTime, { guestName: "Greta Gast", guestEmail, guestTimezone: GUEST_ZONE, guestLanguage: "de-DE" });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    expect(await storedLanguage(booked.body.id)).toBe("de");
    expect(booked.body.confirmationMessage).toBe(
      `Intro call mit Ada Host ist bestätigt für ${sentenceRange(startMs, endMs, GUEST_ZONE, "de")}. Ort: Video call.`,
    );

    let before = smtp.mails.length;
    await worker.runDueJobs();
    let mail = mailTo(before, guestEmail);
    expect(mail.subject).toBe(`Bestätigt: Intro call mit Ada Host am ${germanDay(startMs)}`);
    expect(mail.text).toContain("Guten Tag Greta Gast,");
    expect(mail.text).toContain("Ihre Buchung mit Ada Host ist bestätigt.");
    expect(mail.text).toMatch(new RegExp(`Wann:\\s+${rangeOf(startMs, endMs, GUEST_ZONE, false, "de").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
    expect(mail.text).toMatch(/(Montag|Dienstag|Mittwoch|Donnerstag|Freitag|Samstag|Sonntag), \d+\. /);
    expect(mail.text).toContain(`Diese Buchung stornieren: ${booked.body.cancelUrl}`);
    expect(mail.text).not.toMatch(/\b(Hi|When|Cancel this booking|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)\b/);
    expect(mail.html).toMatch(/<html [^>]*lang="de"/);
    const invite = readIcs(calendarText(mail));
    expect(invite.summary).toBe("Intro call mit Ada Host");
    expect(calendarText(mail)).toContain("Buchung ansehen\\, verschieben oder stornieren:");
    const hostMail = mailTo(before, host.email);
    expect(hostMail.subject).toMatch(/^New booking: Intro call with Greta Gast on /);
    expect(readIcs(calendarText(hostMail)).summary).toBe("Intro call with Greta Gast");

    // The guest's own calendar file speaks German too.
    const token = new URL(booked.body.cancelUrl).pathname.split("/").pop()!;
    expect(readIcs((await api.get(`/public/bookings/${token}.ics`)).body).summary).toBe("Intro call mit Ada Host");

    // Cancelled from a browser that asks for English: the booking's language still decides.
    const cancelled = await api.post("/public/cancel", { token }, { headers: { "accept-language": "en-US" } });
    expect(cancelled.body.message).toMatch(/^Ihre Buchung „Intro call“ mit Ada Host am \S+, \d+\. \S+ \d{4}, \d\d:\d\d \(Europe\/Berlin\) ist storniert\.$/);
    before = smtp.mails.length;
    await worker.runDueJobs();
    mail = mailTo(before, guestEmail);
    expect(mail.subject).toBe(`Storniert: Intro call mit Ada Host am ${germanDay(startMs)}`);
    expect(mail.text).toContain("Sie haben Ihre Buchung mit Ada Host storniert.");
    expect(mail.text).toMatch(/Wann:\s+\S+, \d+\. /);
    expect(mailTo(before, host.email).text).toContain("Greta Gast cancelled their booking.");
  });

  it("a move by the host reaches a French guest in French", async () => {
    const { host, eventType, slots } = await setUp();
    const worker = await testWorker();
    const guestEmail = `${unique("flore")}@example.com`;
    const booked = await book(host, eventType.slug, slots[1]!.startTime, { guestEmail, guestTimezone: "Europe/Paris", guestLanguage: "fr" });
    await worker.runDueJobs();
    expect((await api.post(`/me/bookings/${booked.body.id}/reschedule`, { startTime: slots[4]!.startTime }, { token: host.token })).status).toBe(200);
    const before = smtp.mails.length;
    await worker.runDueJobs();
    const mail = mailTo(before, guestEmail);
    expect(mail.subject).toMatch(/^Déplacé\u202f: Intro call avec Ada Host, désormais le (lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche) \d+ \S+ \d{4}$/);
    expect(mail.text).toContain("Votre réservation avec Ada Host a été déplacée à un nouvel horaire.");
    expect(mail.text).toMatch(/Auparavant\u202f:\s+(lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche) \d+ /);
  });

  it("without guestLanguage: the guest's cookie, else Accept-Language; a language not spoken here is English", async () => {
    const { host, eventType, slots } = await setUp();
    const post = (slot: number, headers: Record<string, string>, fields: Record<string, unknown> = {}) =>
      api.post(`/public/${host.username}/${eventType.slug}/bookings`, { startTime: slots[slot]!.startTime, ...guest(fields) }, {
        headers: { "idempotency-key": randomUUID(), ...clientHeaders(), ...headers },
      });

    const french = await post(0, { "accept-language": "fr-CA,fr;q=0.9,en;q=0.5" });
    expect(french.status).toBe(201);
    expect(await storedLanguage(french.body.id)).toBe("fr");
    expect(french.body.confirmationMessage).toMatch(/^Intro call avec Ada Host est confirmé pour le /);

    const chosen = await post(1, { "accept-language": "de", cookie: "booking_lang=es" });
    expect(await storedLanguage(chosen.body.id)).toBe("es");

    const italian = await post(2, { "accept-language": "it-IT" });
    expect(await storedLanguage(italian.body.id)).toBe("en");
    expect(italian.body.confirmationMessage).toMatch(/^Intro call with Ada Host is confirmed for \w+day, /);

    const named = await post(3, { "accept-language": "de" }, { guestLanguage: "pt-BR" });
    expect(await storedLanguage(named.body.id)).toBe("pt");

    const bad = await post(4, {}, { guestLanguage: "not a language!" });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("validation_error");
    expect(bad.body.details.issues.map((i: { path: string }) => i.path)).toEqual(["guestLanguage"]);
    const rows = await (await getDb()).select().from(bookings).where(eq(bookings.hostId, host.id));
    expect(rows).toHaveLength(4);
  });

  it("the guest's reschedule answers in the booking's language", async () => {
    const { host, eventType, slots } = await setUp();
    const booked = await book(host, eventType.slug, slots[0]!.startTime, { guestLanguage: "es", guestTimezone: "Europe/Madrid" });
    const token = new URL(booked.body.cancelUrl).pathname.split("/").pop()!;
    const moved = await api.post("/public/reschedule", { token, startTime: slots[2]!.startTime });
    expect(moved.status).toBe(200);
    expect(moved.body.message).toMatch(/^Su reserva «Intro call» con Ada Host se ha cambiado al \S+, \d+ de \S+ de \d{4}, \d\d:\d\d \(Europe\/Madrid\)\.$/);
  });
});

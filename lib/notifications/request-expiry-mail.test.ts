import { describe, expect, it } from "vitest";
import type { BookingRow } from "@/db/schema";
import { rangeOf } from "@/lib/time/in-words";
import type { BookingFacts } from "./booking-facts";
import { composeRequestExpiryMail, timeLeftWords } from "./request-expiry-mail";

// The host's warning that a request expires soon unanswered: its words, times and link, in the
// host's language and zone.

const HOUR = 3_600_000;
const start = new Date("2031-12-02T15:00:00Z"); // Tuesday 10:00 in New York, 16:00 in Berlin
const end = new Date("2031-12-02T15:30:00Z");

const booking = {
  id: "bkg_1",
  guestName: "Jane Doe",
  guestEmail: "jane@example.com",
  guestTimezone: "Europe/London",
  location: "",
  status: "pending",
  startTime: start,
  endTime: end,
  customAnswers: {},
} as unknown as BookingRow;

function factsFor(language: string, timezone: string): BookingFacts {
  const host = { userId: "usr_ada", fullName: "Ada Host", email: "ada@example.com", timezone, language };
  return { booking, title: "Intro call", questions: [], host, hosts: [host], team: null };
}

const compose = (language: string, timezone: string) =>
  composeRequestExpiryMail({
    facts: factsFor(language, timezone),
    dashboardUrl: "https://booking.test/dashboard/bookings?booking=bkg_1",
    now: start.getTime() - 3 * HOUR,
    from: "no-reply@booking.test",
    messageId: "<m@booking.test>",
  });

describe("the host's warning that a request expires", () => {
  it("says in English, on the host's clock and in their zone, how long is left, who asks, and where to answer", async () => {
    const mail = await compose("en", "America/New_York");
    expect(mail.subject).toBe("A request expires in 3 hours: Jane Doe, Tuesday, December 2, 2031, 10:00 – 10:30 AM");
    const text = String(mail.text);
    expect(text).toContain("Hi Ada Host,");
    expect(text).toContain("The booking request of Jane Doe is still waiting for your answer. Unless you confirm it, it is cancelled in 3 hours, at its start.");
    expect(text).toContain(`When: ${rangeOf(start.getTime(), end.getTime(), "America/New_York")}`);
    expect(text).toContain("(Eastern Time (US & Canada))");
    expect(text).toContain("Guest: Jane Doe <jane@example.com>");
    expect(text).toContain("Confirm or decline it: https://booking.test/dashboard/bookings?booking=bkg_1");
    expect(text).not.toMatch(/America\/New_York|2031-12-02T/);
    expect(mail.to).toEqual({ name: "Ada Host", address: "ada@example.com" });
    expect(mail.replyTo).toEqual({ name: "Jane Doe", address: "jane@example.com" });
    expect(mail.icalEvent).toBeUndefined();
  });

  it("draws the same in HTML: the lead, the rows and one button to the request", async () => {
    const html = String((await compose("en", "America/New_York")).html);
    expect(html).toContain('lang="en"');
    expect(html).toContain("Unless you confirm it, it is cancelled in 3 hours, at its start.");
    expect(html).toContain("Jane Doe &lt;jane@example.com&gt;");
    expect(html).toMatch(/<a[^>]+href="https:\/\/booking\.test\/dashboard\/bookings\?booking=bkg_1"[^>]*>[\s\S]*?Confirm or decline it/);
  });

  it("is written in the host's language (users.language), on their zone's 24-hour clock", async () => {
    const mail = await compose("de", "Europe/Berlin");
    expect(mail.subject).toBe("Eine Anfrage läuft in 3 Stunden ab: Jane Doe, Dienstag, 2. Dezember 2031, 16:00 – 16:30");
    expect(String(mail.text)).toContain("Ohne Bestätigung wird sie in 3 Stunden storniert, zu ihrem Beginn.");
    expect(String(mail.text)).toContain("Bestätigen oder ablehnen: https://booking.test/");
    expect(String(mail.html)).toContain('lang="de"');
    const fr = await compose("fr", "Europe/Paris");
    expect(fr.subject).toMatch(/^Une demande expire dans 3 heures\u202f: Jane Doe, mardi 2 décembre 2031, 16:00 – 16:30$/);
    expect((await compose("es", "Europe/Madrid")).subject).toMatch(/^Una solicitud vence dentro de 3 horas: Jane Doe/);
    expect((await compose("pt", "America/Sao_Paulo")).subject).toMatch(/^Um pedido expira em 3 horas: Jane Doe/);
  });

  it("counts what is left in whole hours, or minutes under an hour, in the reader's words", () => {
    expect(timeLeftWords(3 * HOUR, "en")).toBe("in 3 hours");
    expect(timeLeftWords(HOUR + 10 * 60_000, "en")).toBe("in 1 hour");
    expect(timeLeftWords(45 * 60_000, "en")).toBe("in 45 minutes");
    expect(timeLeftWords(2.6 * HOUR, "de")).toBe("in 3 Stunden");
  });
});

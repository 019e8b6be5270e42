import { describe, expect, it } from "vitest";
import type { BookingRow } from "@/db/schema";
import type { BookingFacts } from "./booking-facts";
import { composeWelcomeMail, composePasswordResetMail } from "./account-mail";
import { composeBookingMail } from "./booking-mail";
import { composeReminderMail } from "./reminder-mail";

// The plain-text part as a person reads it, and the host's messages in the host's language.

const start = new Date("2031-03-12T09:00:00Z");
const end = new Date("2031-03-12T09:30:00Z");
const booking = {
  id: "bkg_1",
  guestName: "Grace Guest",
  guestEmail: "grace@example.com",
  guestTimezone: "America/New_York",
  guestLanguage: "en",
  location: "https://meet.example.com/room-1",
  status: "confirmed",
  cancelledBy: null,
  cancellationReason: null,
  startTime: start,
  endTime: end,
  customAnswers: {},
} as unknown as BookingRow;

function factsFor(language: string): BookingFacts {
  const host = { userId: "usr_ada", fullName: "Ada", email: "ada@example.com", timezone: "Europe/Paris", language };
  return { booking, title: "Intro call", questions: [], host, hosts: [host], team: null };
}

const created = (language: string, reader: "guest" | "host" = "host") =>
  composeBookingMail({
    event: "booking.created",
    reader,
    facts: factsFor(language),
    start,
    end,
    sequence: 0,
    from: "bookings@example.com",
    messageId: "<m1@example.com>",
    stamp: start,
    dashboardUrl: "http://booking.test/dashboard/bookings?booking=bkg_1",
    guestLinks: { cancelUrl: "http://booking.test/cancel/t", rescheduleUrl: "http://booking.test/reschedule/t", manageUrl: "http://booking.test/booking/t", icsUrl: "http://booking.test/t.ics" },
  });

describe("the plain-text part", () => {
  it("puts one space after each label, however long the longest label is", async () => {
    const text = String((await created("en")).text);
    expect(text).toContain("\nWhat: Intro call\n");
    expect(text).toContain("\nGuest: Grace Guest <grace@example.com>\n");
    // The zone by its name, never its id.
    expect(text).toContain("\nGuest's timezone: Eastern Time (US & Canada)\n");
    expect(text).not.toContain("America/New_York");
  });

  it("lists the guest's actions, a meeting link first", async () => {
    const text = String((await created("en", "guest")).text);
    expect(text).toContain("Join the meeting: https://meet.example.com/room-1\nSee your booking: http://booking.test/booking/t\nPick another time: http://booking.test/reschedule/t\nCancel this booking: http://booking.test/cancel/t\n");
  });
});

describe("a host's messages, in the language of their profile", () => {
  it("German: greeting with a comma, German words, times on the host's clock", async () => {
    const mail = await created("de");
    expect(mail.subject).toBe("Neue Buchung: Intro call mit Grace Guest am Mittwoch, 12. März 2031");
    const text = String(mail.text);
    expect(text.startsWith("Hallo Ada,\n")).toBe(true);
    expect(text).toContain("Wann: Mittwoch, 12. März 2031, 10:00 – 10:30 (Mitteleuropäische Zeit)");
    expect(String(mail.html)).toMatch(/<html [^>]*lang="de"/);
  });

  it("French: a narrow no-break space before the colon, in the subject and the rows", async () => {
    const mail = await created("fr");
    expect(mail.subject).toBe("Nouvelle réservation\u202f: Intro call avec Grace Guest le mercredi 12 mars 2031");
    const text = String(mail.text);
    expect(text).toContain("Quoi\u202f: Intro call\n");
    expect(text).not.toMatch(/ :/);
    // A URL's own colon is left alone.
    expect(text).toContain("Rejoindre la réunion\u202f: https://meet.example.com/room-1");
  });

  it("a reminder to a Spanish host; the guest's stays in the booking's language", async () => {
    const host = await composeReminderMail({ reader: "host", facts: factsFor("es"), from: "b@example.com", messageId: "<r@example.com>" });
    expect(host.subject).toBe("Recordatorio: Intro call con Grace Guest el miércoles, 12 de marzo de 2031");
    const guest = await composeReminderMail({ reader: "guest", facts: factsFor("es"), from: "b@example.com", messageId: "<r2@example.com>" });
    expect(guest.subject).toMatch(/^Reminder: Intro call with Ada on Wednesday, March 12, 2031$/);
  });

  it("an unknown stored language reads as English", async () => {
    expect((await created("xx")).subject).toBe("New booking: Intro call with Grace Guest on Wednesday, March 12, 2031");
  });
});

describe("account messages", () => {
  const to = { name: "Ada", address: "ada@example.com" };
  it("the welcome gives the links to share and the dashboard, as buttons and in the text", async () => {
    const mail = await composeWelcomeMail({
      to,
      from: "b@example.com",
      messageId: "<w@example.com>",
      pageUrl: "http://booking.test/ada",
      starter: { title: "30 minute meeting", url: "http://booking.test/ada/30min" },
      dashboardUrl: "http://booking.test/dashboard",
    });
    expect(mail.subject).toBe("Welcome, Ada: your booking page is ready");
    expect(String(mail.text)).toContain("Your booking page: http://booking.test/ada\nYour 30 minute meeting link: http://booking.test/ada/30min\nOpen your dashboard: http://booking.test/dashboard\n");
    for (const url of ["http://booking.test/ada", "http://booking.test/ada/30min", "http://booking.test/dashboard"]) expect(String(mail.html)).toContain(`href="${url}"`);
  });

  it("a password reset in German, with its link", async () => {
    const mail = await composePasswordResetMail({ to, from: "b@example.com", messageId: "<p@example.com>", url: "http://booking.test/reset-password/x", language: "de" });
    expect(mail.subject).toBe("Passwort zurücksetzen");
    expect(String(mail.text)).toMatch(/^Hallo Ada,\n/);
    expect(String(mail.text)).toContain("Neues Passwort festlegen: http://booking.test/reset-password/x");
  });

  it("escapes a name: no markup from it", async () => {
    const mail = await composePasswordResetMail({ to: { name: "<b>Ada</b>", address: "a@example.com" }, from: "b@example.com", messageId: "<p@example.com>", url: "http://x.test/r" });
    expect(String(mail.html)).toContain("Hi &lt;b&gt;Ada&lt;/b&gt;,");
    expect(String(mail.html)).not.toContain("<b>");
  });
});

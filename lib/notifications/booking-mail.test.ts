import { describe, expect, it } from "vitest";
import type { BookingRow } from "@/db/schema";
import type { BookingFacts } from "./booking-facts";
import { composeBookingMail } from "./booking-mail";

// The host's "new booking" message lists the guest's answers as people read them.

const start = new Date("2031-03-12T09:00:00Z");
const end = new Date("2031-03-12T09:30:00Z");

const booking = {
  id: "bkg_1",
  guestName: "Grace Guest",
  guestEmail: "grace@example.com",
  guestTimezone: "Europe/Berlin",
  location: "",
  status: "confirmed",
  cancelledBy: null,
  cancellationReason: null,
  customAnswers: { mobile: "+14155550100", tools: "Slack\nEmail, mostly", notes: "Line one\nLine two <b>" },
} as unknown as BookingRow;

const facts: BookingFacts = {
  booking,
  title: "Intro call",
  questions: [
    { id: "mobile", label: "Mobile", required: false, type: "phone" },
    { id: "tools", label: "Tools", required: false, type: "checkboxes", options: ["Slack", "Email, mostly"] },
    { id: "notes", label: "Notes", required: false, type: "long_text" },
  ],
  host: { userId: "usr_ada", fullName: "Ada Host", email: "ada@example.com", timezone: "Europe/Berlin", language: "en" },
  hosts: [{ userId: "usr_ada", fullName: "Ada Host", email: "ada@example.com", timezone: "Europe/Berlin", language: "en" }],
  team: null,
};

describe("the host's new-booking message", () => {
  const mail = composeBookingMail({
    event: "booking.created",
    reader: "host",
    facts,
    start,
    end,
    sequence: 0,
    from: "bookings@example.com",
    messageId: "<m1@example.com>",
    stamp: start,
  });

  it("writes phone numbers internationally and each checked option on its own line, in the value's column", async () => {
    const text = String((await mail).text);
    expect(text).toMatch(/Mobile: +\+1 415 555 0100\n/);
    const tools = text.split("\n").findIndex((line) => line.startsWith("Tools:"));
    const lines = text.split("\n");
    expect(lines[tools]).toMatch(/^Tools: +Slack$/);
    // The second option starts where the first did.
    expect(lines[tools + 1]!.indexOf("Email, mostly")).toBe(lines[tools]!.indexOf("Slack"));
  });

  it("breaks the HTML's lines without letting an answer write markup", async () => {
    const html = String((await mail).html);
    expect(html).toContain("Slack<br/>Email, mostly");
    expect(html).toContain("Line one<br/>Line two &lt;b&gt;");
    expect(html).not.toContain("<b>");
  });
});

describe("a series' one message (decisions §19)", () => {
  // Across New York's change to summer time (March 9, 2031): the same wall-clock time in Berlin
  // for the host, the guest's own zone for the guest.
  const occurrences = [0, 7, 14].map((days, k) => ({
    bookingId: `bkg_${k + 1}`,
    sequence: 0,
    start: new Date(Date.parse("2031-03-05T09:00:00Z") + days * 86_400_000),
    end: new Date(Date.parse("2031-03-05T09:30:00Z") + days * 86_400_000),
    cancelled: false,
  }));
  const input = { event: "booking.created" as const, start: occurrences[0]!.start, end: occurrences[0]!.end, sequence: 0, from: "bookings@example.com", messageId: "<m2@example.com>", stamp: start, occurrences };

  it("the guest's lists every date in their zone and language, and its invitation holds every occurrence", async () => {
    const guestFacts = { ...facts, booking: { ...booking, guestTimezone: "America/New_York", guestLanguage: "de" } as BookingRow };
    const mail = await composeBookingMail({ ...input, reader: "guest", facts: guestFacts });
    const text = String(mail.text);
    expect(text).toContain("Termine:");
    expect(text).not.toMatch(/^Wann:/m);
    // 09:00 UTC is 4:00 in New York before March 9, 5:00 after (on the zone's own clock).
    expect(text).toMatch(/5\. März 2031, 4:00 /);
    expect(text).toMatch(/12\. März 2031, 5:00 /);
    expect(text).toMatch(/19\. März 2031, 5:00 /);
    const ics = String((mail.icalEvent as { content: string }).content);
    expect(ics.match(/^BEGIN:VEVENT/gm)).toHaveLength(3);
    for (const o of occurrences) expect(ics).toContain(`UID:${o.bookingId}@booking.test`);
  });

  it("the host's lists them in the host's zone under Dates", async () => {
    const mail = await composeBookingMail({ ...input, reader: "host", facts });
    const text = String(mail.text);
    const at = text.split("\n").findIndex((line) => line.startsWith("Dates:"));
    expect(at).toBeGreaterThan(-1);
    const dates = text.split("\n").slice(at, at + 3).join("\n");
    expect(dates).toMatch(/March 5, 2031.*10:00/);
    expect(dates).toMatch(/March 12, 2031.*10:00/);
    expect(dates).toMatch(/March 19, 2031.*10:00/);
    expect(String((mail.icalEvent as { content: string }).content).match(/^BEGIN:VEVENT/gm)).toHaveLength(3);
  });
});

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

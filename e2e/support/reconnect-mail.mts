// Prints the reconnect email (lib/notifications/broken-calendar-mail.ts) as JSON {subject, html},
// for e2e/emails.spec.ts to draw in Chromium: the message goes out only after a connection has
// been broken for an hour on the worker's clock, which a browser test's server cannot wait for;
// the words and layout are the same module's. Run with tsx --conditions=react-server.
import { composeBrokenCalendarMail } from "@/lib/notifications/broken-calendar-mail";
import type { UserRow } from "@/db/schema";

const language = process.argv[2] ?? "en";
const host = { fullName: "Hana Host", email: "hana@example.com", timezone: "America/New_York", language } as UserRow;
const mail = await composeBrokenCalendarMail({
  host,
  connection: { provider: "provider_c", email: "hana@icloud.example", brokenSince: new Date("2026-12-01T14:05:00Z") },
  calendarName: "Work",
  serverHost: null,
  notice: Number(process.argv[3] ?? 1),
  reconnectUrl: "https://booking.example/dashboard/calendars",
  from: "Booking <no-reply@booking.example>",
  messageId: "<reconnect@booking.example>",
});
process.stdout.write(JSON.stringify({ subject: mail.subject, html: mail.html, text: mail.text }));

import { describe, expect, it } from "vitest";
import type { UserRow } from "@/db/schema";
import { composeBrokenCalendarMail } from "./broken-calendar-mail";

// The reconnect email of a broken calendar connection (decisions §21): which connection, since
// when in the host's zone and language (no ISO time), what it means, and the way to reconnect.

const brokenSince = new Date("2031-12-02T08:00:00Z"); // Tuesday 09:00 in Berlin, 03:00 in New York

function mail(language: string, timezone: string, notice = 1, serverHost: string | null = null) {
  const host = { fullName: "Ada Host", email: "ada@example.com", language, timezone } as UserRow;
  return composeBrokenCalendarMail({
    host,
    connection: { provider: "provider_c", email: "ada@icloud.com", brokenSince },
    calendarName: "Work",
    serverHost,
    notice,
    reconnectUrl: "https://booking.example.com/dashboard/calendars",
    from: "Booking <no-reply@booking.example.com>",
    messageId: "<cal_1.broken@booking.example.com>",
  });
}

describe("the reconnect email", () => {
  it("names the connection, says since when in the host's zone, what it means, and links to the Calendars page", async () => {
    const m = await mail("en", "Europe/Berlin");
    expect(m.subject).toBe("Your Work calendar (Apple iCloud) needs reconnecting");
    expect(m.to).toEqual({ name: "Ada Host", address: "ada@example.com" });
    expect(m.text).toContain("Your Work calendar (Apple iCloud, ada@icloud.com) stopped syncing on Tuesday, December 2, 2031, 9:00 AM (");
    expect(m.text).toContain("its busy time is no longer checked, so guests may book over its events");
    expect(m.text).toContain("https://booking.example.com/dashboard/calendars");
    expect(m.html).toContain("https://booking.example.com/dashboard/calendars");
    expect(`${m.text}${m.html}`).not.toMatch(/\d{4}-\d{2}-\d{2}T\d/);
    expect(m.text).not.toContain("last reminder");
    expect((await mail("en", "America/New_York")).text).toContain("stopped syncing on Tuesday, December 2, 2031, 3:00 AM (");
  });

  it("the second says it is the last; a CalDAV server the host named goes by its address", async () => {
    const m = await mail("en", "Europe/Berlin", 2, "cloud.example.com");
    expect(m.subject).toBe("Your Work calendar (CalDAV cloud.example.com) needs reconnecting");
    expect(m.text).toContain("This is the last reminder about it.");
  });

  it("is written in the host's language", async () => {
    const subjects = await Promise.all(["de", "fr", "es", "pt"].map(async (l) => (await mail(l, "Europe/Berlin")).subject));
    expect(subjects).toEqual([
      "Dein Kalender Work (Apple iCloud) muss neu verbunden werden",
      "Votre calendrier Work (Apple iCloud) doit être reconnecté",
      "Su calendario Work (Apple iCloud) necesita volver a conectarse",
      "Seu calendário Work (Apple iCloud) precisa ser reconectado",
    ]);
    expect((await mail("de", "Europe/Berlin")).text).toContain("Dienstag, 2. Dezember 2031, 09:00");
  });
});

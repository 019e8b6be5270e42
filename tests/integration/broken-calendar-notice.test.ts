import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { calendarConnections, calendars, outboxJobs } from "@/db/schema";
import { sweepBrokenCalendars } from "@/lib/jobs/housekeeping";
import { newId } from "@/lib/ids";
import { getDb } from "@/lib/store/database";
import { sentenceMoment } from "@/lib/time/in-words";
import { isoUtc } from "@/lib/time/instants";
import { zoneName } from "@/lib/time/zones";
import { randomUUID } from "node:crypto";
import { api } from "../support/api";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, type TestHost } from "../support/factories";
import { configure, testWorker } from "../support/jobs";
import { startSmtpServer, type SmtpSink } from "../support/smtp";
import { teamWithType } from "../support/teams";

// A broken calendar is never silent (decisions §21): a connection in reauth_required for an hour
// gets one email to its host, a second 24 h after the first, never a third; fixed and broken
// again, it starts over. The housekeeping sweep and the outbox worker run on a clock the test
// steps; mail over SMTP. Also run under TZ=America/New_York (the email says since when).

withTestDatabase({ isolated: true });

let smtp: SmtpSink;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp.close();
});

const ZONE = "Europe/Berlin";
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

async function connectionOf(host: TestHost): Promise<string> {
  const db = await getDb();
  const id = newId("cal");
  await db.insert(calendarConnections).values({ id, userId: host.id, provider: "provider_c", email: "ada@icloud.example", credentialsEncrypted: "not read here", busyAsOf: new Date() });
  await db.insert(calendars).values([
    { id: newId("cld"), connectionId: id, userId: host.id, externalId: randomUUID(), name: "Family" },
    { id: newId("cld"), connectionId: id, userId: host.id, externalId: randomUUID(), name: "Work", isPrimary: true },
  ]);
  return id;
}

/** Sets the status as the sync would; the trigger keeps broken_since. When it broke (the database's clock). */
async function setStatus(connectionId: string, status: "connected" | "reauth_required" | "error"): Promise<number | null> {
  const [row] = await (await getDb())
    .update(calendarConnections)
    .set({ status })
    .where(eq(calendarConnections.id, connectionId))
    .returning({ brokenSince: calendarConnections.brokenSince });
  return row!.brokenSince?.getTime() ?? null;
}

describe("the reconnect emails of a broken calendar connection", () => {
  it("one after an hour, a second a day later, never a third; fixed and broken again starts over", async () => {
    const db = await getDb();
    await db.delete(outboxJobs);
    smtp.mails.length = 0;
    configure({ smtpUrl: smtp.url });
    const host = await createHost({ timezone: ZONE, fullName: "Ada Host" });
    const connectionId = await connectionOf(host);
    const worker = await testWorker();
    const mails = () => smtp.mails.filter((m) => m.envelopeTo[0] === host.email).map((m) => m.mail);
    const step = async (now: number) => {
      await sweepBrokenCalendars(db, now);
      await worker.runDueJobs(now);
    };

    const broke = (await setStatus(connectionId, "reauth_required"))!;
    expect(broke).toBeGreaterThan(Date.now() - 5 * MINUTE);
    // Another failure while broken keeps the moment it broke.
    expect(await setStatus(connectionId, "error")).toBe(broke);

    await step(broke + 30 * MINUTE);
    expect(mails()).toEqual([]);
    await step(broke + 61 * MINUTE);
    // Two instances sweeping at the same moment: the claim lets one through.
    await Promise.all([sweepBrokenCalendars(db, broke + 61 * MINUTE), sweepBrokenCalendars(db, broke + 61 * MINUTE)]);
    await worker.runDueJobs(broke + 62 * MINUTE);
    expect(mails()).toHaveLength(1);
    const first = mails()[0]!;
    expect(first.subject).toBe("Your Work calendar (Apple iCloud) needs reconnecting");
    const since = sentenceMoment(broke, ZONE, "en");
    expect(first.text).toContain(`Your Work calendar (Apple iCloud, ada@icloud.example) stopped syncing on ${since} (${zoneName(ZONE, new Date(broke), "en")}).`);
    expect(first.text).toContain("guests may book over its events");
    expect(first.text).toContain("/dashboard/calendars");
    expect(first.text).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    expect(first.html).toContain("/dashboard/calendars");
    expect(first.text).not.toContain("last reminder");

    await step(broke + 2 * HOUR);
    expect(mails()).toHaveLength(1);
    await step(broke + 24 * HOUR);
    expect(mails()).toHaveLength(1);
    await step(broke + 25 * HOUR + MINUTE);
    expect(mails()).toHaveLength(2);
    expect(mails()[1]!.subject).toBe("Your Work calendar (Apple iCloud) needs reconnecting");
    expect(mails()[1]!.text).toContain("This is the last reminder about it.");
    await step(broke + 50 * HOUR);
    await step(broke + 100 * HOUR);
    expect(mails()).toHaveLength(2);

    // Fixed: the breakage and its count are forgotten; broken again, it starts over.
    expect(await setStatus(connectionId, "connected")).toBeNull();
    const again = (await setStatus(connectionId, "reauth_required"))!;
    await step(again + 30 * MINUTE);
    expect(mails()).toHaveLength(2);
    await step(again + 61 * MINUTE);
    expect(mails()).toHaveLength(3);
  });

  it("says nothing of a connection fixed (or removed) before its email went, and writes in the host's language", async () => {
    const db = await getDb();
    await db.delete(outboxJobs);
    smtp.mails.length = 0;
    configure({ smtpUrl: smtp.url });
    const host = await createHost({ timezone: ZONE, fullName: "Ada Host" });
    expect((await api.patch("/me", { language: "de" }, { token: host.token })).status).toBe(200);
    const fixed = await connectionOf(host);
    const worker = await testWorker();
    const broke = (await setStatus(fixed, "error"))!;
    await sweepBrokenCalendars(db, broke + 61 * MINUTE);
    await setStatus(fixed, "connected");
    await worker.runDueJobs(broke + 61 * MINUTE);
    expect(smtp.mails.filter((m) => m.envelopeTo[0] === host.email)).toEqual([]);

    // A second connection of the same host (another account), broken: German words.
    await db.update(calendarConnections).set({ email: "ada-2@icloud.example" }).where(eq(calendarConnections.id, fixed));
    const other = await connectionOf(host);
    const otherBroke = (await setStatus(other, "reauth_required"))!;
    await sweepBrokenCalendars(db, otherBroke + 61 * MINUTE);
    await worker.runDueJobs(otherBroke + 61 * MINUTE);
    const [mail, ...more] = smtp.mails.filter((m) => m.envelopeTo[0] === host.email).map((m) => m.mail);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe("Dein Kalender Work (Apple iCloud) muss neu verbunden werden");
    expect(mail!.text).toContain(sentenceMoment(otherBroke, ZONE, "de"));
  });

  it("the connection says since when it is broken, and explain says its busy data is old even when the time looks open", async () => {
    const host = await createHost({ timezone: ZONE, fullName: "Ada Host" });
    const connectionId = await connectionOf(host);
    const eventType = await createEventType(host);
    const startTime = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const explain = () => api.get(`/me/event-types/${eventType.id}/explain?startTime=${encodeURIComponent(startTime)}`, { token: host.token });
    configure({ calendarFreshS: 3600 });
    expect((await explain()).body).not.toHaveProperty("calendars");

    const broke = (await setStatus(connectionId, "reauth_required"))!;
    const listed = (await api.get("/me/calendar-connections", { token: host.token })).body.data[0];
    expect(listed).toMatchObject({ status: "reauth_required", brokenSince: isoUtc(new Date(broke)) });
    expect(listed.calendars.find((c: any) => c.primary).name).toBe("Work");
    const why = await explain();
    expect(why.status).toBe(200);
    expect(why.body.calendars).toEqual([
      {
        connectionId,
        provider: "provider_c",
        email: "ada@icloud.example",
        status: "reauth_required",
        brokenSince: isoUtc(new Date(broke)),
        busyAsOf: expect.any(String),
        message: expect.stringMatching(/^Busy data from your Work calendar \(Apple iCloud, ada@icloud\.example\) is old: it stopped syncing on \w+day, /),
      },
    ]);
    // An event type that counts none of this connection's calendars has nothing to say about it.
    const none = await api.patch(`/me/event-types/${eventType.id}`, { conflictCalendars: [] }, { token: host.token });
    expect(none.status).toBe(200);
    expect((await explain()).body).not.toHaveProperty("calendars");
    await setStatus(connectionId, "connected");
    expect((await api.get("/me/calendar-connections", { token: host.token })).body.data[0].brokenSince).toBeNull();
  });

  it("a team's explanation notes a host's broken calendar for the host and the owners, not for other members", async () => {
    configure({ calendarFreshS: 3600 });
    const owner = await createHost({ timezone: ZONE, fullName: "Olive Owner" });
    const ada = await createHost({ timezone: ZONE, fullName: "Ada Host" });
    const bea = await createHost({ timezone: ZONE, fullName: "Bea Member" });
    const { team, eventType } = await teamWithType(owner, [ada, bea], { hostIds: [ada.id, bea.id] });
    const connectionId = await connectionOf(ada);
    await setStatus(connectionId, "error");
    const startTime = encodeURIComponent(new Date(Date.now() + 3 * 86_400_000).toISOString());
    const explainAs = async (who: TestHost) => {
      const res = await api.get(`/me/teams/${team.id}/event-types/${eventType.id}/explain?startTime=${startTime}`, { token: who.token });
      expect(res.status).toBe(200);
      return res.body.hosts.find((h: any) => h.userId === ada.id);
    };
    expect((await explainAs(ada)).calendars).toEqual([expect.objectContaining({ connectionId, status: "error", message: expect.stringMatching(/^Busy data from your Work calendar/) })]);
    expect((await explainAs(owner)).calendars).toEqual([expect.objectContaining({ connectionId, message: expect.stringMatching(/^Busy data from Ada Host’s Work calendar/) })]);
    expect(await explainAs(bea)).not.toHaveProperty("calendars");
  });
});

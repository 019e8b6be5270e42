import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/store/database";
import { outboxJobs } from "@/db/schema";
import { api, site } from "../support/api";
import { book, clientHeaders, dateIn, getSlots, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, unique } from "../support/factories";
import { startFakeGoogle } from "../support/fake-google";
import { startFakeTelephony, type FakeTelephony } from "../support/fake-telephony";
import { configure, testWorker } from "../support/jobs";
import { connectThroughOAuth, useOAuthFakes } from "../support/oauth-connect";
import { startSmtpServer, type SmtpSink } from "../support/smtp";
import { teamWithType } from "../support/teams";
import { startReceiver, type Receiver } from "../support/webhook-receiver";

// A guest's data, per host (decisions §16): what the host holds of them, as JSON and as a file,
// and its erasure — from the bookings and from every record that copied it (job payloads sent
// and unsent, webhook deliveries, stored idempotent answers, calls), found afterwards in no table.

withTestDatabase({ isolated: true });

let smtp: SmtpSink;
let receiver: Receiver;
let phone: FakeTelephony;
beforeAll(async () => {
  smtp = await startSmtpServer();
  receiver = await startReceiver();
  phone = await startFakeTelephony();
});
afterAll(async () => {
  await smtp.close();
  await receiver.close();
  await phone.close();
});

const QUESTIONS = [
  { id: "topic", label: "What shall we talk about?", required: true, type: "text" },
  { id: "phone", label: "Phone", required: false, type: "phone" },
];

function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/** Every table of the database, and in each the rows whose text holds `needle` (any case). */
async function tablesHolding(needle: string): Promise<string[]> {
  const db = await getDb();
  const tables = rowsOf<{ table_name: string }>(
    await db.execute(sql`select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`),
  ).map((t) => t.table_name);
  expect(tables).toEqual(expect.arrayContaining(["bookings", "outbox_jobs", "webhook_deliveries", "idempotency_keys", "calls", "booking_history"]));
  const holding: string[] = [];
  for (const table of tables) {
    const [row] = rowsOf<{ n: number | string }>(
      await db.execute(sql`select count(*) as n from ${sql.identifier(table)} as r where strpos(lower(r::text), ${needle.toLowerCase()}) > 0`),
    );
    if (Number(row!.n) > 0) holding.push(table);
  }
  return holding;
}

async function setUp() {
  await (await getDb()).delete(outboxJobs);
  configure({
    smtpUrl: smtp.url,
    webhooksAllowPrivate: true,
    calls: { baseUrl: phone.url, accountSid: phone.accountSid, authToken: phone.authToken, fromNumber: "+14155550100", timeoutMs: 5_000 },
  });
  const date = dateIn(5, "UTC");
  const ann = await createHost({ timezone: "UTC", fullName: "Ann Host" });
  const ben = await createHost({ timezone: "UTC", fullName: "Ben Host" });
  await openOnly(ann, date, [{ startTime: "09:00", endTime: "17:00" }]);
  await openOnly(ben, date, [{ startTime: "09:00", endTime: "17:00" }]);
  const personal = await createEventType(ann, { title: "Intro call", customQuestions: QUESTIONS, reminders: [{ minutesBefore: 60, to: "both" }] });
  const { team, eventType: panel } = await teamWithType(ann, [ben], { schedulingType: "collective", title: "Panel", customQuestions: QUESTIONS });
  const hook = await api.post("/me/webhooks", { url: receiver.url }, { token: ann.token });
  expect(hook.status).toBe(201);
  receiver.secrets = [hook.body.secret];
  return { date, ann, ben, personal, team, panel };
}

const at = (date: string, time: string) => `${date}T${time}:00Z`;

async function bookTeam(teamSlug: string, slug: string, startTime: string, fields: Record<string, unknown>) {
  const res = await api.post(
    `/public/teams/${teamSlug}/${slug}/bookings`,
    { startTime, guestTimezone: "Europe/Berlin", ...fields },
    { headers: { "idempotency-key": randomUUID(), ...clientHeaders() } },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const tokenOf = (cancelUrl: string) => new URL(cancelUrl).pathname.split("/").at(-1)!;

describe("guest data", () => {
  it("GET shows every booking of the guest the host hosts, with answers; ?download=1 is the same as a file; DELETE erases it everywhere, links die, times stay", async () => {
    const { date, ann, ben, personal, team, panel } = await setUp();
    const email = `${unique("zelda")}@example.com`;
    const name = `Zelda ${unique("Quux")}`;
    const topic = `Our secret plan ${randomUUID()}`;
    const number = "+1 415 555 0177";
    const guest = { guestName: name, guestEmail: email, customAnswers: { topic, phone: number } };

    const first = await book(ann, personal.slug, at(date, "09:00"), guest);
    expect(first.status).toBe(201);
    const teamBooking = await bookTeam(team.slug, panel.slug, at(date, "11:00"), { ...guest, guestEmail: email.toUpperCase() });
    // Another guest of the same host stays as they are.
    const other = await book(ann, personal.slug, at(date, "13:00"), { guestName: "Olga Other", customAnswers: { topic: "Something else" } });
    expect(other.status).toBe(201);
    const worker = await testWorker();
    await worker.runDueJobs();
    expect(receiver.received.map((r) => r.body.type)).toContain("booking.created");
    // The reminder agent called the guest once (its number is in the calls table).
    const called = await site.post("/api/calls/reminder/outbound", { bookingId: first.body.id }, { token: ann.token });
    expect(called.status, JSON.stringify(called.body)).toBe(201);
    // One more booking whose event is still to be fanned out: its payload waits in the outbox.
    const unsent = await book(ann, personal.slug, at(date, "15:00"), guest);
    expect(unsent.status).toBe(201);

    // A booking the guest cancelled, with a reason of their own.
    const reason = `Leaving town ${randomUUID()}`;
    const withdrawn = await book(ann, personal.slug, at(date, "16:00"), guest);
    expect(withdrawn.status).toBe(201);
    expect((await api.post("/public/cancel", { token: tokenOf(withdrawn.body.cancelUrl), reason })).status).toBe(200);
    await worker.runDueJobs();
    expect(await tablesHolding(reason)).toEqual(expect.arrayContaining(["bookings", "booking_history"]));

    // What the host holds: three bookings (the team one too), answers with their questions.
    const held = await api.get(`/me/guests/${encodeURIComponent(email.toUpperCase())}`, { token: ann.token });
    expect(held.status, JSON.stringify(held.body)).toBe(200);
    expect(held.body.email).toBe(email.toLowerCase());
    expect(held.body.bookings.map((b: any) => b.id)).toEqual([first.body.id, teamBooking.id, unsent.body.id, withdrawn.body.id]);
    const stored = held.body.bookings[0].customAnswers as Record<string, string>;
    expect(held.body.bookings[0]).toMatchObject({
      guestName: name,
      answers: [
        { questionId: "topic", label: "What shall we talk about?", answer: topic },
        { questionId: "phone", label: "Phone", answer: "+1 415 555 0177" },
      ],
    });
    expect(held.body.bookings[1].team).toMatchObject({ slug: team.slug });
    expect(held.headers.get("content-disposition")).toBeNull();
    const file = await api.get(`/me/guests/${encodeURIComponent(email)}?download=1`, { token: ann.token });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-disposition")).toBe('attachment; filename="guest-data.json"');
    expect(file.body).toEqual(held.body);
    // Ben co-hosts the team booking only.
    expect((await api.get(`/me/guests/${encodeURIComponent(email)}`, { token: ben.token })).body.bookings.map((b: any) => b.id)).toEqual([teamBooking.id]);
    expect((await api.get(`/me/guests/not-an-email`, { token: ann.token })).status).toBe(400);

    // Before: the guest's data is in several tables.
    expect(await tablesHolding(email)).toEqual(expect.arrayContaining(["bookings", "outbox_jobs", "webhook_deliveries", "idempotency_keys"]));
    expect(await tablesHolding(stored.phone!)).toEqual(expect.arrayContaining(["bookings", "calls"]));
    const slotsBefore = await getSlots(ann, personal.slug, date);
    const tokens = [first.body.cancelUrl, teamBooking.cancelUrl, unsent.body.cancelUrl].map(tokenOf);

    const erased = await api.delete(`/me/guests/${encodeURIComponent(email)}`, { token: ann.token });
    expect(erased.status).toBe(204);
    expect(erased.body).toBeUndefined();

    // The unsent event goes out now, without the guest; nothing is mailed to the guest.
    smtp.mails.length = 0;
    receiver.received.length = 0;
    await worker.runDueJobs();
    expect(smtp.mails.flatMap((m) => m.envelopeTo)).not.toContain(email);
    expect(JSON.stringify(receiver.received.map((r) => r.body))).not.toContain(email);

    // Nowhere: no table holds the address (any case), the name or an answer.
    for (const needle of [email, name, topic, stored.phone!, stored.topic!, reason]) expect(await tablesHolding(needle), needle).toEqual([]);

    // The bookings keep their times; their guest is erased.
    const list = await api.get(`/me/bookings?from=${date}&to=${date}`, { token: ann.token });
    const byId = new Map(list.body.data.map((b: any) => [b.id, b]));
    for (const id of [first.body.id, teamBooking.id, unsent.body.id]) {
      expect(byId.get(id)).toMatchObject({ guestName: "Erased guest", guestEmail: "", customAnswers: {}, status: "confirmed" });
    }
    expect(byId.get(other.body.id)).toMatchObject({ guestName: "Olga Other", customAnswers: { topic: "Something else" } });
    expect(await getSlots(ann, personal.slug, date)).toEqual(slotsBefore);
    expect((await api.get(`/me/guests/${encodeURIComponent(email)}`, { token: ann.token })).body.bookings).toEqual([]);

    // The guest's links are dead.
    for (const token of tokens) {
      expect((await api.get(`/public/bookings/${token}.ics`)).status).toBe(404);
      expect((await api.post("/public/cancel", { token })).status).toBe(404);
      expect((await api.post("/public/reschedule", { token, startTime: at(date, "16:00") })).status).toBe(404);
    }
    // The other guest's link still works.
    expect((await api.get(`/public/bookings/${tokenOf(other.body.cancelUrl)}.ics`)).status).toBe(200);

    // Erasing again, or a guest the host never had: 204, nothing to do.
    expect((await api.delete(`/me/guests/${encodeURIComponent(email)}`, { token: ann.token })).status).toBe(204);
    expect((await api.delete(`/me/guests/nobody@example.com`, { token: ann.token })).status).toBe(204);
  });

  it("touches only the erased bookings' records: another host's outbox, deliveries and replays stay byte for byte, whatever their strings", async () => {
    const { date, ann: attacker, personal } = await setUp();
    const beaName = `Bea ${unique("Victim")}`;
    const bea = await createHost({ timezone: "UTC", fullName: beaName });
    await openOnly(bea, date, [{ startTime: "09:00", endTime: "17:00" }]);
    const beasType = await createEventType(bea, { title: "Consultation", customQuestions: QUESTIONS });
    const beasHook = await api.post("/me/webhooks", { url: receiver.url }, { token: bea.token });
    expect(beasHook.status).toBe(201);
    // One address the suffix of another: n.x@… is inside jonathan.x@….
    const tag = unique("x").toLowerCase();
    const shared = `n.${tag}@example.com`;
    const longer = `jonathan.${tag}@example.com`;

    // Bea's guests: one delivered round (a webhook log, finished jobs), then the endpoint and the
    // mail server down, so her webhooks and her guests' confirmations wait in the outbox.
    const worker = await testWorker();
    const delivered = await book(bea, beasType.slug, at(date, "09:00"), { guestName: "Nora Shared", guestEmail: shared, customAnswers: { topic: "Budget" } });
    expect(delivered.status).toBe(201);
    await worker.runDueJobs();
    receiver.answer = () => 500;
    configure({ smtpUrl: "smtp://127.0.0.1:9" });
    const waiting = await book(bea, beasType.slug, at(date, "10:00"), { guestName: "Jonathan Longer", guestEmail: longer, customAnswers: { topic: "confirmed" } });
    const replayKey = randomUUID();
    const replayed = await book(bea, beasType.slug, at(date, "11:00"), { guestName: "Nora Shared", guestEmail: shared, customAnswers: { topic: "Budget" } }, replayKey);
    expect([waiting.status, replayed.status]).toEqual([201, 201]);
    await worker.runDueJobs();

    // The attacker books their own page with Bea's guest's address, Bea's own name, and answers
    // equal to strings in Bea's payloads ("confirmed" is every booking's status).
    const own = await book(attacker, personal.slug, at(date, "12:00"), { guestName: beaName, guestEmail: shared, customAnswers: { topic: "confirmed", phone: "+1 415 555 0177" } });
    expect(own.status).toBe(201);
    await worker.runDueJobs();

    const db = await getDb();
    const snapshot = async () => {
      const rows = rowsOf<{ t: string; id: string; r: string }>(
        await db.execute(sql`
          select 'outbox' as t, id::text as id, r::text as r from outbox_jobs r
          union all select 'delivery', id, r::text from webhook_deliveries r
          union all select 'answer', scope || ':' || key, r::text from idempotency_keys r`),
      );
      return new Map(rows.map((row) => [`${row.t}:${row.id}`, row.r]));
    };
    const before = await snapshot();
    const beasRows = [...before].filter(([, text]) => [delivered.body.id, waiting.body.id, replayed.body.id].some((id) => text.includes(id)));
    // Not vacuous: Bea's pending webhooks, her guests' waiting confirmations, a delivered log and a stored answer.
    const beasPending = rowsOf<{ kind: string }>(await db.execute(sql`select kind from outbox_jobs where status = 'pending' and (payload::text like ${"%" + waiting.body.id + "%"} or payload::text like ${"%" + replayed.body.id + "%"})`)).map((r) => r.kind);
    expect(beasPending).toEqual(expect.arrayContaining(["webhook.deliver", "email.booking"]));
    expect(beasRows.some(([k]) => k.startsWith("delivery"))).toBe(true);
    expect(beasRows.some(([k]) => k.startsWith("answer"))).toBe(true);

    expect((await api.delete(`/me/guests/${encodeURIComponent(shared)}`, { token: attacker.token })).status).toBe(204);

    const after = await snapshot();
    for (const [key, text] of beasRows) expect(after.get(key), key).toBe(text);
    // What changed is the attacker's own booking's records, and only those.
    const changed = [...before].filter(([key, text]) => after.get(key) !== text);
    expect(changed.length).toBeGreaterThan(0);
    for (const [key, text] of changed) expect(text, key).toContain(own.body.id);
    // And those are scrubbed as before: no record of the attacker's booking keeps the address or the name.
    const owns = [...after].filter(([, text]) => text.includes(own.body.id));
    expect(owns.length).toBeGreaterThan(0);
    for (const [key, text] of owns) for (const needle of [shared, beaName]) expect(text.toLowerCase(), key).not.toContain(needle.toLowerCase());

    // Bea's bookings keep their guests; her replay answers as it did; her guest still gets mail.
    const beas = await api.get(`/me/bookings?from=${date}&to=${date}`, { token: bea.token });
    expect(beas.body.data.map((b: any) => [b.guestName, b.guestEmail, b.customAnswers.topic])).toEqual([
      ["Nora Shared", shared, "Budget"],
      ["Jonathan Longer", longer, "confirmed"],
      ["Nora Shared", shared, "Budget"],
    ]);
    const again = await book(bea, beasType.slug, at(date, "11:00"), { guestName: "Nora Shared", guestEmail: shared, customAnswers: { topic: "Budget" } }, replayKey);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(replayed.body);
    configure({ smtpUrl: smtp.url });
    receiver.answer = () => 200;
  });

  it("finds the messages of the erased bookings by id, also those written before they named their booking and those to an endpoint deleted since", async () => {
    const { date, ann, personal } = await setUp();
    const email = `${unique("olden")}@example.com`;
    const name = `Olive ${unique("Older")}`;
    const topic = `Older plan ${randomUUID()}`;
    const guest = { guestName: name, guestEmail: email, customAnswers: { topic } };
    const db = await getDb();
    const worker = await testWorker();
    // A delivered round, then the endpoint and the mail server down: messages wait in the outbox.
    expect((await book(ann, personal.slug, at(date, "09:00"), guest)).status).toBe(201);
    await worker.runDueJobs();
    receiver.answer = () => 500;
    configure({ smtpUrl: "smtp://127.0.0.1:9" });
    expect((await book(ann, personal.slug, at(date, "10:00"), guest)).status).toBe(201);
    await worker.runDueJobs();
    // Rows written before the messages carried their booking at the top level: only their event knows it.
    await db.execute(sql`update outbox_jobs set payload = payload - 'bookingId' where kind in ('webhook.deliver', 'email.booking')`);
    // A message to an endpoint deleted since it was made: its key names a webhook no longer there.
    const gone = await api.post("/me/webhooks", { url: receiver.url }, { token: ann.token });
    expect(gone.status).toBe(201);
    const third = await book(ann, personal.slug, at(date, "11:00"), guest);
    expect(third.status).toBe(201);
    await worker.runDueJobs();
    expect((await api.delete(`/me/webhooks/${gone.body.id}`, { token: ann.token })).status).toBe(204);
    const waiting = rowsOf<{ kind: string; legacy: boolean }>(
      await db.execute(sql`select kind, not (payload ? 'bookingId') as legacy from outbox_jobs where status = 'pending' and kind in ('webhook.deliver', 'email.booking')`),
    );
    // Not vacuous: older and newer rows of both kinds wait.
    for (const kind of ["webhook.deliver", "email.booking"]) for (const legacy of [true, false]) expect(waiting, `${kind} ${legacy}`).toContainEqual({ kind, legacy });
    expect(await tablesHolding(email)).toContain("outbox_jobs");

    expect((await api.delete(`/me/guests/${encodeURIComponent(email)}`, { token: ann.token })).status).toBe(204);
    for (const needle of [email, name, topic]) expect(await tablesHolding(needle), needle).toEqual([]);
    receiver.answer = () => 200;
  });

  it("after an erasure, the host's later emails about the booking still compose and go out (no guest ATTENDEE)", async () => {
    const { date, ann, personal } = await setUp();
    const email = `${unique("erased")}@example.com`;
    const booked = await book(ann, personal.slug, at(date, "14:00"), { guestName: "Eli Erased", guestEmail: email, customAnswers: { topic: "Hello" } });
    expect(booked.status).toBe(201);
    const worker = await testWorker();
    await worker.runDueJobs();
    expect((await api.delete(`/me/guests/${encodeURIComponent(email)}`, { token: ann.token })).status).toBe(204);
    smtp.mails.length = 0;
    const cancelled = await api.post(`/me/bookings/${booked.body.id}/cancel`, { reason: "Closed" }, { token: ann.token });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    await worker.runDueJobs();
    const failed = rowsOf<{ kind: string; last_error: string | null }>(
      await (await getDb()).execute(sql`select kind, last_error from outbox_jobs where last_error is not null and payload::text like ${"%" + booked.body.id + "%"}`),
    );
    expect(failed).toEqual([]);
    const toHost = smtp.mails.filter((m) => m.envelopeTo.includes(ann.email));
    expect(toHost).toHaveLength(1);
    const invitation = toHost[0]!.mail.attachments.find((a) => a.contentType.startsWith("text/calendar") || a.contentType === "application/ics");
    expect(invitation).toBeDefined();
    expect(invitation!.content.toString("utf8")).toMatch(/^ORGANIZER/m);
    expect(invitation!.content.toString("utf8")).not.toMatch(/^ATTENDEE/m);
    expect(smtp.mails.flatMap((m) => m.envelopeTo)).not.toContain("");
  });

  it("after an erasure, the host's calendar event of the booking is written without the guest: no attendee with an empty address", async () => {
    const { date, ann, personal } = await setUp();
    const google = await startFakeGoogle();
    try {
      useOAuthFakes(google.env);
      await connectThroughOAuth(ann, "provider_a", (url) => google.consent(url));
      const email = `${unique("cal")}@example.com`;
      const booked = await book(ann, personal.slug, at(date, "14:00"), { guestName: "Cleo Calendar", guestEmail: email, customAnswers: { topic: "Hello" } });
      expect(booked.status).toBe(201);
      const worker = await testWorker();
      await worker.runDueJobs();
      const eventOf = () => google.events(google.email).find((e) => e.start.dateTime === new Date(at(date, "14:00")).toISOString() || e.start.dateTime === new Date(at(date, "15:00")).toISOString());
      expect(eventOf()?.attendees).toEqual([{ email, displayName: "Cleo Calendar" }]);

      expect((await api.delete(`/me/guests/${encodeURIComponent(email)}`, { token: ann.token })).status).toBe(204);
      const moved = await api.post(`/me/bookings/${booked.body.id}/reschedule`, { startTime: at(date, "15:00") }, { token: ann.token });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      await worker.runDueJobs();
      const failed = rowsOf<{ kind: string }>(await (await getDb()).execute(sql`select kind from outbox_jobs where last_error is not null`));
      expect(failed).toEqual([]);
      const event = eventOf();
      expect(event?.start.dateTime).toBe(new Date(at(date, "15:00")).toISOString());
      expect(event?.attendees ?? []).toEqual([]);
      expect(event?.description).not.toContain("<>");
      expect(JSON.stringify(event)).not.toContain(email);
    } finally {
      await google.close();
    }
  });

  it("is per host: another host's bookings of the same guest are neither shown nor erased", async () => {
    const { date, ann, personal } = await setUp();
    const carl = await createHost({ timezone: "UTC", fullName: "Carl Host" });
    await openOnly(carl, date, [{ startTime: "09:00", endTime: "17:00" }]);
    const carlsType = await createEventType(carl, { title: "Carl's call" });
    const email = `${unique("yusuf")}@example.com`;
    const mine = await book(ann, personal.slug, at(date, "10:00"), { guestName: "Yusuf Guest", guestEmail: email, customAnswers: { topic: "Hi" } });
    const his = await book(carl, carlsType.slug, at(date, "10:00"), { guestName: "Yusuf Guest", guestEmail: email });
    expect([mine.status, his.status]).toEqual([201, 201]);

    expect((await api.get(`/me/guests/${encodeURIComponent(email)}`, { token: carl.token })).body.bookings.map((b: any) => b.id)).toEqual([his.body.id]);
    expect((await api.delete(`/me/guests/${encodeURIComponent(email)}`, { token: ann.token })).status).toBe(204);
    const kept = await api.get(`/me/guests/${encodeURIComponent(email)}`, { token: carl.token });
    expect(kept.body.bookings).toMatchObject([{ id: his.body.id, guestName: "Yusuf Guest", guestEmail: email }]);
    expect((await api.get(`/public/bookings/${tokenOf(his.body.cancelUrl)}.ics`)).status).toBe(200);
    expect((await api.get(`/me/guests/${encodeURIComponent(email)}`, { token: ann.token })).body.bookings).toEqual([]);
    // Without a token: 401.
    expect((await api.get(`/me/guests/${encodeURIComponent(email)}`)).status).toBe(401);
  });
});

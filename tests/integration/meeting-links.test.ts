import { randomBytes } from "node:crypto";
import type { ParsedMail } from "mailparser";
import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as feed } from "@/app/feeds/[file]/route";
import { getDb } from "@/lib/store/database";
import { outboxJobs } from "@/db/schema";
import { getConfig, parseConfig } from "@/lib/config";
import { api, site } from "../support/api";
import { book, dateIn, getSlots, openOnly } from "../support/booking";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost, unique, type TestHost } from "../support/factories";
import { startFakeGoogle, type FakeGoogle } from "../support/fake-google";
import { startFakeMicrosoft, type FakeMicrosoft } from "../support/fake-microsoft";
import { configure, testWorker } from "../support/jobs";
import { startSmtpServer, type SmtpSink } from "../support/smtp";
import { startReceiver, type Receiver } from "../support/webhook-receiver";

// Meeting links (decisions §17) end to end: a `video` event type's bookings get a Google Meet
// link or a Teams link from the host's write-target calendar (the fakes answer in the providers'
// wire formats), or one from VIDEO_URL_TEMPLATE, or the words "the host will send the meeting
// link"; and whichever it is reaches the guest's email, the invitations, the webhook, the host's
// feed and the API, in that order: the messages wait for the link in the outbox.

withTestDatabase({ isolated: true });

let smtp: SmtpSink;
let receiver: Receiver;
let google: FakeGoogle;
let microsoft: FakeMicrosoft;
beforeAll(async () => {
  [smtp, receiver, google, microsoft] = await Promise.all([startSmtpServer(), startReceiver(), startFakeGoogle(), startFakeMicrosoft()]);
});
afterAll(async () => {
  await Promise.all([smtp?.close(), receiver?.close(), google?.close(), microsoft?.close()]);
});

const MEET = /^https:\/\/meet\.google\.com\/[a-z]{3}-[a-z]{4}-[a-z]{3}$/;
const TEAMS = /^https:\/\/teams\.microsoft\.com\/l\/meetup-join\//;

/** The service pointed at both fakes, SMTP and the receiver; `template` sets VIDEO_URL_TEMPLATE. */
function useServices(template?: string) {
  const parsed = parseConfig({
    NODE_ENV: "test",
    DATA_DIR: getConfig().dataDir,
    JWT_SECRET: "x".repeat(32),
    ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    ...google.env,
    ...microsoft.env,
    ...(template ? { VIDEO_URL_TEMPLATE: template } : {}),
  });
  configure({
    google: parsed.google,
    googleEndpoints: parsed.googleEndpoints,
    microsoft: parsed.microsoft,
    microsoftEndpoints: parsed.microsoftEndpoints,
    videoUrlTemplate: parsed.videoUrlTemplate,
    smtpUrl: smtp.url,
    webhooksAllowPrivate: true,
  });
}

/** The OAuth round trip a browser makes: authorize → the fake's consent → our callback. */
async function connect(host: TestHost, provider: "provider_a" | "provider_b") {
  const started = await api.get(`/me/calendar-connections/oauth/${provider}/authorize`, { token: host.token });
  expect(started.status).toBe(302);
  const cookie = started.headers.getSetCookie().map((c) => c.split(";")[0]!).join("; ");
  const fake = provider === "provider_a" ? google : microsoft;
  const back = new URL(await fake.consent(started.headers.get("location")!));
  const done = await site.get(`${back.pathname}${back.search}`, { headers: { cookie } });
  expect(done.status).toBe(302);
}

/** A host with a `video` event type, a webhook to the receiver, and open slots a few days ahead. */
async function videoHost(options: { language?: string } = {}) {
  await (await getDb()).delete(outboxJobs);
  receiver.received.length = 0;
  const host = await createHost({ timezone: "America/New_York", fullName: "Ada Host" });
  const eventType = await createEventType(host, { title: "Intro call", location: "video" });
  const date = dateIn(5, host.timezone);
  await openOnly(host, date);
  const slots = await getSlots(host, eventType.slug, date);
  const hook = await api.post("/me/webhooks", { url: receiver.url }, { token: host.token });
  receiver.secrets = [hook.body.secret];
  const guestEmail = `${unique("grace")}@example.com`;
  const bookIt = (slot = 0) => book(host, eventType.slug, slots[slot]!.startTime, { guestEmail, guestTimezone: "Europe/Berlin", ...(options.language ? { guestLanguage: options.language } : {}) });
  return { host, eventType, slots, guestEmail, bookIt };
}

function mailTo(address: string, from = 0): ParsedMail {
  const found = smtp.mails.slice(from).filter((m) => m.envelopeTo[0] === address);
  expect(found, `one message to ${address}`).toHaveLength(1);
  return found[0]!.mail;
}

/** LOCATION and URL of the message's invitation (or of any iCalendar text). */
function icsPlace(text: string) {
  const vevent = new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent("vevent")!;
  return { location: vevent.getFirstPropertyValue("location"), url: vevent.getFirstPropertyValue("url") };
}

function invitation(mail: ParsedMail) {
  const part = mail.attachments.find((a) => a.contentType.startsWith("text/calendar"));
  expect(part).toBeDefined();
  return icsPlace(part!.content.toString("utf8"));
}

async function feedOf(host: TestHost) {
  const url = (await api.post("/me/calendar-feed", undefined, { token: host.token })).body.url as string;
  const res = await feed(new Request(url), { params: Promise.resolve({ file: new URL(url).pathname.split("/").pop()! }) });
  return res.text();
}

/** The booking as the host's API shows it. */
async function hostBooking(host: TestHost, id: string) {
  const list = await api.get("/me/bookings", { token: host.token });
  expect(list.status).toBe(200);
  return (list.body.data as { id: string; location: string }[]).find((b) => b.id === id)!;
}

const tokenOf = (cancelUrl: string) => new URL(cancelUrl).pathname.split("/").pop()!;

describe("meeting links", () => {
  it("Google: the write target makes a Meet link; the guest's email, both invitations, the webhook, the feed and the API carry it, and a reschedule keeps it", async () => {
    useServices();
    const { host, slots, guestEmail, bookIt } = await videoHost();
    await connect(host, "provider_a");
    const worker = await testWorker();

    const booked = await bookIt();
    expect(booked.status).toBe(201);
    // Made after the commit by the calendar: the answer cannot know it yet, and says so.
    expect(booked.body.location).toBe("video");
    expect(booked.body.confirmationMessage).toContain("Your meeting link is on its way by email");

    const sent = smtp.mails.length;
    const meetingsBefore = google.meetingsMade();
    await worker.runDueJobs();
    // The calendar write ran and made the meeting; the messages wait for the fan-out's next look.
    expect(google.meetingsMade()).toBe(meetingsBefore + 1);
    expect(smtp.mails.length).toBe(sent);
    expect(receiver.received).toHaveLength(0);
    await worker.runDueJobs(Date.now() + 2_000);

    const id = booked.body.id as string;
    const link = (await hostBooking(host, id)).location;
    expect(link).toMatch(MEET);
    const event = google.events(google.email).find((e) => e.hangoutLink === link);
    expect(event?.conferenceData).toMatchObject({ entryPoints: expect.arrayContaining([{ entryPointType: "video", uri: link, label: expect.any(String) }]) });

    const guest = mailTo(guestEmail, sent);
    expect(guest.text).toContain(link);
    expect(guest.text).not.toMatch(/\bvideo\b/);
    expect(invitation(guest)).toEqual({ location: link, url: link });
    expect(invitation(mailTo(host.email, sent)).location).toBe(link);
    expect(receiver.received.map((r) => [r.body.type, r.body.data.location])).toEqual([["booking.created", link]]);
    expect(icsPlace((await api.get(`/public/bookings/${tokenOf(booked.body.cancelUrl)}.ics`)).body).location).toBe(link);
    expect(icsPlace(await feedOf(host)).location).toBe(link);
    const history = await api.get(`/me/bookings/${id}/history`, { token: host.token });
    expect(history.body.data.map((e: { action: string }) => e.action)).toEqual(["created", "meeting_link"]);
    expect(history.body.data[1]).toMatchObject({ actor: "system", location: link, source: "provider" });

    // Moved: the same event is updated, its meeting kept; every message names the same link.
    expect((await api.post(`/me/bookings/${id}/reschedule`, { startTime: slots[3]!.startTime }, { token: host.token })).status).toBe(200);
    const beforeMove = smtp.mails.length;
    await worker.runDueJobs();
    expect(google.meetingsMade()).toBe(meetingsBefore + 1);
    expect(google.events(google.email).find((e) => e.hangoutLink === link)?.start.dateTime).toBe(new Date(slots[3]!.startTime).toISOString());
    expect(mailTo(guestEmail, beforeMove).text).toContain(link);
    // (booking.rescheduled's payload names the times, not the place.)
    expect(receiver.received.map((r) => r.body.type)).toEqual(["booking.created", "booking.rescheduled"]);
    expect((await hostBooking(host, id)).location).toBe(link);
  });

  it("Microsoft: the write target makes a Teams meeting; its joinUrl is the booking's location and in the guest's email", async () => {
    useServices();
    const { host, guestEmail, bookIt } = await videoHost();
    await connect(host, "provider_b");
    const worker = await testWorker();

    const booked = await bookIt();
    expect(booked.status).toBe(201);
    const sent = smtp.mails.length;
    await worker.runDueJobs();
    await worker.runDueJobs(Date.now() + 2_000);
    const link = (await hostBooking(host, booked.body.id)).location as string;
    expect(link).toMatch(TEAMS);
    const written = microsoft.requests.find((r) => r.method === "POST" && r.path.endsWith("/events") && JSON.parse(r.body).isOnlineMeeting === true);
    expect(JSON.parse(written!.body)).toMatchObject({ isOnlineMeeting: true, onlineMeetingProvider: "teamsForBusiness" });
    expect(mailTo(guestEmail, sent).text).toContain(link);
    expect(invitation(mailTo(guestEmail, sent)).location).toBe(link);
    expect(receiver.received.map((r) => r.body.data.location)).toEqual([link]);
  });

  it("no calendar, VIDEO_URL_TEMPLATE set: the link is in the booking's answer at once, and the same everywhere after", async () => {
    useServices("https://meet.example.org/{room}?via=booking");
    const { host, guestEmail, bookIt } = await videoHost();
    const worker = await testWorker();

    const booked = await bookIt();
    expect(booked.status).toBe(201);
    const link = booked.body.location as string;
    expect(link).toMatch(/^https:\/\/meet\.example\.org\/[0-9a-f]{32}\?via=booking$/);
    expect(booked.body.confirmationMessage).toContain(link);

    const sent = smtp.mails.length;
    await worker.runDueJobs(); // no waiting: the link was there from the start
    expect(mailTo(guestEmail, sent).text).toContain(link);
    expect(invitation(mailTo(guestEmail, sent))).toEqual({ location: link, url: link });
    expect(receiver.received.map((r) => r.body.data.location)).toEqual([link]);
    expect((await hostBooking(host, booked.body.id)).location).toBe(link);
    expect(icsPlace(await feedOf(host)).location).toBe(link);
    // Each booking its own room.
    const second = await bookIt(2);
    expect(second.body.location).toMatch(/^https:\/\/meet\.example\.org\/[0-9a-f]{32}\?via=booking$/);
    expect(second.body.location).not.toBe(link);
  });

  it("no calendar, no template: the guest reads, in their language, that the host will send the link; the API keeps the word video", async () => {
    useServices();
    const { host, guestEmail, bookIt } = await videoHost({ language: "de" });
    const worker = await testWorker();

    const booked = await bookIt();
    expect(booked.status).toBe(201);
    expect(booked.body.location).toBe("video");
    expect(booked.body.confirmationMessage).toContain("Videoanruf (Der Gastgeber sendet Ihnen den Meeting-Link)");
    const sent = smtp.mails.length;
    await worker.runDueJobs();
    const guest = mailTo(guestEmail, sent);
    expect(guest.text).toContain("Videoanruf (Der Gastgeber sendet Ihnen den Meeting-Link)");
    expect(invitation(guest).location).toBe("Videoanruf (Der Gastgeber sendet Ihnen den Meeting-Link)");
    expect(invitation(guest).url).toBeNull();
    expect(mailTo(host.email, sent).text).toContain("Video call (no meeting link was made: send the guest one)");
    expect(receiver.received.map((r) => r.body.data.location)).toEqual(["video"]);
  });

  it("a provider that makes no meeting in time: after the wait the messages go with the template's link, stored for the booking", async () => {
    useServices("https://meet.example.org/{bookingId}");
    const { host, guestEmail, bookIt } = await videoHost();
    await connect(host, "provider_a");
    const worker = await testWorker();

    const booked = await bookIt(5);
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    expect(booked.body.location).toBe("video"); // the calendar was to make it
    google.behave({ kind: "fail", status: 503 });
    try {
      const sent = smtp.mails.length;
      await worker.runDueJobs();
      await worker.runDueJobs(Date.now() + 30_000);
      expect(smtp.mails.length).toBe(sent); // still within the wait
      await worker.runDueJobs(Date.now() + 61_000);
      const link = `https://meet.example.org/${booked.body.id}`;
      expect(mailTo(guestEmail, sent).text).toContain(link);
      expect(receiver.received.map((r) => r.body.data.location)).toEqual([link]);
      expect((await hostBooking(host, booked.body.id)).location).toBe(link);
      const history = await api.get(`/me/bookings/${booked.body.id}/history`, { token: host.token });
      expect(history.body.data[1]).toMatchObject({ action: "meeting_link", source: "template", location: link });
      // The deferrals were no failures: the fan-out used one attempt.
      const [fanOut] = (await (await getDb()).select().from(outboxJobs)).filter((j) => j.kind === "booking.created");
      expect(fanOut).toMatchObject({ status: "done", attempts: 1 });
    } finally {
      google.behave({ kind: "ok" });
    }
  });
});

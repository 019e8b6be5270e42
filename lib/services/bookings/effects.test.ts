import { describe, expect, it } from "vitest";
import type { BookingEvent, BookingEventPayload } from "@/lib/outbox/booking-events";
import type { NewJob } from "@/lib/outbox/enqueue";
import { webhookBody } from "@/lib/webhooks/body";
import { planEffects, type EffectFacts } from "./effects";

// What a booking event sets off, decided from its facts without a database: the jobs, their
// dedupe keys (what makes a fan-out run twice add nothing), their payloads and their order.

const JOB = 41;
const NOW = Date.parse("2031-03-10T09:00:00Z");
const reminder: NewJob = { kind: "reminder.email", runAfter: new Date(NOW + 3_600_000), dedupeKey: "reminder:bkg_1:0:60:guest", payload: { bookingId: "bkg_1" } };
const warning: NewJob = { kind: "email.request_expiring", runAfter: new Date(NOW + 7_200_000), dedupeKey: "request-expiry:bkg_1:0:usr_a", payload: { bookingId: "bkg_1" } };

function event(kind: BookingEvent, more: Partial<BookingEventPayload> = {}): BookingEventPayload {
  return {
    event: kind,
    hostId: "usr_a",
    hostIds: ["usr_a"],
    bookingId: "bkg_1",
    occurredAt: "2031-03-10T08:59:59.000Z",
    sequence: 0,
    data: { bookingId: "bkg_1", location: "Room 1" },
    ...more,
  };
}

function facts(more: Partial<EffectFacts> = {}): EffectFacts {
  return { calendarHosts: new Set(["usr_a"]), webhooks: [{ webhookId: "whk_1", messageId: "msg_1" }], reminders: [], warnings: [], ...more };
}

const keysOf = (jobs: NewJob[]) => jobs.map((j) => `${j.kind} ${j.dedupeKey}`);

describe("planEffects", () => {
  it.each<[string, BookingEventPayload, EffectFacts, string[]]>([
    [
      "created, personal: webhooks, the guest's email, the host's, the calendar write, then reminders and warnings",
      event("booking.created"),
      facts({ reminders: [reminder], warnings: [warning] }),
      ["webhook.deliver webhook:41:whk_1", "email.booking email:41:guest", "email.booking email:41:host", "calendar.write calendar:41", "reminder.email reminder:bkg_1:0:60:guest", "email.request_expiring request-expiry:bkg_1:0:usr_a"],
    ],
    [
      "confirmed: the same messages",
      event("booking.confirmed"),
      facts({ reminders: [reminder] }),
      ["webhook.deliver webhook:41:whk_1", "email.booking email:41:guest", "email.booking email:41:host", "calendar.write calendar:41", "reminder.email reminder:bkg_1:0:60:guest"],
    ],
    [
      "cancelled: messages and the calendar, nothing to remind",
      event("booking.cancelled"),
      facts(),
      ["webhook.deliver webhook:41:whk_1", "email.booking email:41:guest", "email.booking email:41:host", "calendar.write calendar:41"],
    ],
    [
      "no-show mark: its webhooks alone",
      event("booking.no_show_updated"),
      facts({ calendarHosts: new Set() }),
      ["webhook.deliver webhook:41:whk_1"],
    ],
    [
      "team with co-hosts: the booking's host keeps its keys, each co-host gets its own",
      event("booking.created", { hostIds: ["usr_a", "usr_b", "usr_c"] }),
      facts({ calendarHosts: new Set(["usr_a", "usr_b", "usr_c"]), webhooks: [{ webhookId: "whk_1", messageId: "msg_1" }, { webhookId: "whk_2", messageId: "msg_2" }] }),
      [
        "webhook.deliver webhook:41:whk_1",
        "webhook.deliver webhook:41:whk_2",
        "email.booking email:41:guest",
        "email.booking email:41:host",
        "email.booking email:41:host:usr_b",
        "email.booking email:41:host:usr_c",
        "calendar.write calendar:41",
        "calendar.write calendar:41:usr_b",
        "calendar.write calendar:41:usr_c",
      ],
    ],
    [
      "rescheduled to another host: the former host is told and their calendar cleared",
      event("booking.rescheduled", { hostId: "usr_b", hostIds: ["usr_b"], formerHostIds: ["usr_a"], sequence: 1 }),
      facts({ calendarHosts: new Set(["usr_a", "usr_b"]), webhooks: [] }),
      ["email.booking email:41:guest", "email.booking email:41:host", "email.booking email:41:host:usr_a", "calendar.write calendar:41", "calendar.write calendar:41:usr_a"],
    ],
    [
      "a host without calendar work gets no calendar write",
      event("booking.created", { hostIds: ["usr_a", "usr_b"] }),
      facts({ calendarHosts: new Set(["usr_b"]) }),
      ["webhook.deliver webhook:41:whk_1", "email.booking email:41:guest", "email.booking email:41:host", "email.booking email:41:host:usr_b", "calendar.write calendar:41:usr_b"],
    ],
    [
      "no webhooks: no deliveries",
      event("booking.created"),
      facts({ webhooks: [] }),
      ["email.booking email:41:guest", "email.booking email:41:host", "calendar.write calendar:41"],
    ],
    [
      "an event written before teams (hostId only) concerns its host",
      event("booking.created", { hostIds: undefined }),
      facts(),
      ["webhook.deliver webhook:41:whk_1", "email.booking email:41:guest", "email.booking email:41:host", "calendar.write calendar:41"],
    ],
  ])("%s", (_, given, known, keys) => {
    const plan = planEffects(given, JOB, known, NOW);
    expect(plan.status).toBe("done");
    expect(keysOf(plan.enqueue)).toEqual(keys);
  });

  it("carries the payloads each job kind expects", () => {
    const given = event("booking.created", { hostIds: ["usr_a", "usr_b"] });
    const plan = planEffects(given, JOB, facts({ calendarHosts: new Set(["usr_b"]) }), NOW);
    const shown = { ...given };
    expect(plan.enqueue).toEqual([
      { kind: "webhook.deliver", dedupeKey: "webhook:41:whk_1", payload: { webhookId: "whk_1", bookingId: "bkg_1", messageId: "msg_1", eventType: "booking.created", body: webhookBody("booking.created", given.occurredAt, given.data) } },
      { kind: "email.booking", dedupeKey: "email:41:guest", payload: { reader: "guest", bookingId: "bkg_1", eventJobId: JOB, event: shown } },
      { kind: "email.booking", dedupeKey: "email:41:host", payload: { reader: "host", hostId: "usr_a", bookingId: "bkg_1", eventJobId: JOB, event: shown } },
      { kind: "email.booking", dedupeKey: "email:41:host:usr_b", payload: { reader: "host", hostId: "usr_b", bookingId: "bkg_1", eventJobId: JOB, event: shown } },
      { kind: "calendar.write", dedupeKey: "calendar:41:usr_b", payload: { bookingId: "bkg_1", hostId: "usr_b" } },
    ]);
    // Byte for byte: the keys of each payload in the order the outbox has always stored them.
    expect(Object.keys(plan.enqueue[2]!.payload as object)).toEqual(["reader", "hostId", "bookingId", "eventJobId", "event"]);
    expect(Object.keys(plan.enqueue[0]!.payload as object)).toEqual(["webhookId", "bookingId", "messageId", "eventType", "body"]);
  });

  it("a video booking waiting for its link: only the calendar writes now, the rest a second later", () => {
    const given = event("booking.created", { hostIds: ["usr_a", "usr_b"], data: { bookingId: "bkg_1", location: "video" } });
    const plan = planEffects(given, JOB, facts({ calendarHosts: new Set(["usr_a", "usr_b"]), meetingLink: { wait: true } }), NOW);
    expect(plan).toEqual({
      status: "defer",
      until: NOW + 1_000,
      enqueue: [
        { kind: "calendar.write", dedupeKey: "calendar:41", payload: { bookingId: "bkg_1", hostId: "usr_a" } },
        { kind: "calendar.write", dedupeKey: "calendar:41:usr_b", payload: { bookingId: "bkg_1", hostId: "usr_b" } },
      ],
    });
  });

  it("a video booking once its link is known: every message shows the link", () => {
    const link = "https://meet.example/abc-defg-hij";
    const given = event("booking.created", { data: { bookingId: "bkg_1", location: "video" } });
    const plan = planEffects(given, JOB, facts({ meetingLink: { wait: false, location: link } }), NOW);
    expect(plan.status).toBe("done");
    const [delivery, guest, host, calendar] = plan.enqueue;
    expect(JSON.parse((delivery!.payload as { body: string }).body).data.location).toBe(link);
    for (const email of [guest, host]) expect((email!.payload as { event: { data: { location: string } } }).event.data.location).toBe(link);
    // The event itself (what the outbox row keeps) is left as it was.
    expect((given.data as { location: string }).location).toBe("video");
    expect(calendar!.dedupeKey).toBe("calendar:41");
  });
});

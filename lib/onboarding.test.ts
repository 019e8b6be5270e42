import { describe, expect, it } from "vitest";
import { checklist, STARTER_EVENT_TYPE, type ChecklistFacts } from "@/lib/onboarding";

const fresh: ChecklistFacts = {
  availability: {
    weeklyRules: [1, 2, 3, 4, 5].map((dayOfWeek) => ({ dayOfWeek, startTime: "09:00", endTime: "17:00" })),
    dateOverrides: [],
    minNoticeHours: 4,
    maxAdvanceDays: 60,
  },
  eventTypes: [{ ...STARTER_EVENT_TYPE }],
  calendarConnections: 0,
  bookings: 0,
  marks: {},
};
const done = (f: ChecklistFacts) => Object.fromEntries(checklist(f).map((i) => [i.id, i.done]));

describe("the getting-started checklist", () => {
  it("has everything to do for a new host", () => {
    expect(done(fresh)).toEqual({ hours: false, calendar: false, "event-type": false, share: false });
  });
  it("counts hours as set when anything differs from the defaults, or the host said they are right", () => {
    expect(done({ ...fresh, availability: { ...fresh.availability, minNoticeHours: 12 } }).hours).toBe(true);
    expect(done({ ...fresh, availability: { ...fresh.availability, weeklyRules: fresh.availability.weeklyRules.slice(1) } }).hours).toBe(true);
    expect(done({ ...fresh, availability: { ...fresh.availability, dateOverrides: [{}] } }).hours).toBe(true);
    expect(done({ ...fresh, marks: { hoursChecked: true } }).hours).toBe(true);
  });
  it("counts a calendar, an event type of one's own (or an edited starter), and a first booking or a copied link", () => {
    const all = done({
      ...fresh,
      calendarConnections: 1,
      eventTypes: [{ ...STARTER_EVENT_TYPE, durationMinutes: 45 }],
      bookings: 1,
    });
    expect(all).toEqual({ hours: false, calendar: true, "event-type": true, share: true });
    expect(done({ ...fresh, eventTypes: [{ ...STARTER_EVENT_TYPE }, { slug: "demo", title: "Demo", durationMinutes: 30, description: "" }] })["event-type"]).toBe(true);
    expect(done({ ...fresh, marks: { linkCopied: true } }).share).toBe(true);
  });
});

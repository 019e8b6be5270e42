// The dashboard's "get set up" list: what a new host still has to do before their link is
// worth sharing, derived from what the account already holds (no state of its own, except two
// marks the browser keeps: "these hours are right" and "I copied my link").

/** The starter's words for a length: its link, title and description say how long it is. */
export const starterWords = (minutes: number) => ({
  slug: `${minutes}min`,
  title: `${minutes} minute meeting`,
  description: `A ${minutes}-minute conversation. Pick a time that suits you.`,
});

/** The event type every new host starts with (lib/services/accounts/register.ts creates it). */
export const STARTER_EVENT_TYPE = { ...starterWords(30), durationMinutes: 30 } as const;

type Rule = { dayOfWeek: number; startTime: string; endTime: string };
export type ChecklistFacts = {
  availability: { weeklyRules: Rule[]; dateOverrides: unknown[]; minNoticeHours: number; maxAdvanceDays: number };
  eventTypes: { slug: string; title: string; durationMinutes: number; description: string }[];
  calendarConnections: number;
  bookings: number;
  marks: { hoursChecked?: boolean; linkCopied?: boolean };
};

export type ChecklistItem = { id: "hours" | "calendar" | "event-type" | "share"; done: boolean };

/** True while the availability is exactly what registration gave: Mon–Fri 09:00–17:00, 4 h notice, 60 days. */
export function hasDefaultHours(a: ChecklistFacts["availability"]): boolean {
  const weekdays = [1, 2, 3, 4, 5];
  return (
    a.dateOverrides.length === 0 &&
    a.minNoticeHours === 4 &&
    a.maxAdvanceDays === 60 &&
    a.weeklyRules.length === weekdays.length &&
    weekdays.every((d) => a.weeklyRules.some((r) => r.dayOfWeek === d && r.startTime === "09:00" && r.endTime === "17:00"))
  );
}

/** Whether the host has made an event type of their own, or at least changed the starter. */
export function hasOwnEventType(eventTypes: ChecklistFacts["eventTypes"]): boolean {
  return eventTypes.some(
    (e) =>
      e.slug !== STARTER_EVENT_TYPE.slug ||
      e.title !== STARTER_EVENT_TYPE.title ||
      e.durationMinutes !== STARTER_EVENT_TYPE.durationMinutes ||
      e.description !== STARTER_EVENT_TYPE.description,
  );
}

export function checklist(f: ChecklistFacts): ChecklistItem[] {
  return [
    { id: "hours", done: !hasDefaultHours(f.availability) || Boolean(f.marks.hoursChecked) },
    { id: "calendar", done: f.calendarConnections > 0 },
    { id: "event-type", done: hasOwnEventType(f.eventTypes) },
    { id: "share", done: f.bookings > 0 || Boolean(f.marks.linkCopied) },
  ];
}

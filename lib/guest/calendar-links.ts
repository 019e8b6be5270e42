// "Add to calendar" links for a booking: Google Calendar's and Outlook.com's compose pages take the
// event in their query string, so the guest needs no file. Google wants UTC as YYYYMMDDTHHMMSSZ;
// Outlook an ISO 8601 instant. Pure: used by the server-rendered manage page and the client confirmation.

export type CalendarEvent = {
  title: string;
  /** UTC instants, ISO 8601. */
  startTime: string;
  endTime: string;
  details: string;
  location: string;
};

/** 2027-03-15T13:00:00Z → 20270315T130000Z */
function googleStamp(iso: string): string {
  return new Date(iso).toISOString().replace(/\.\d{3}Z$/, "Z").replace(/[-:]/g, "");
}

/** 2027-03-15T13:00:00.000Z → 2027-03-15T13:00:00Z */
function isoSeconds(iso: string): string {
  return new Date(iso).toISOString().replace(/\.\d{3}Z$/, "Z");
}

export function googleCalendarUrl(e: CalendarEvent): string {
  const query = new URLSearchParams({
    action: "TEMPLATE",
    text: e.title,
    dates: `${googleStamp(e.startTime)}/${googleStamp(e.endTime)}`,
    details: e.details,
    location: e.location,
  });
  return `https://calendar.google.com/calendar/render?${query}`;
}

export function outlookCalendarUrl(e: CalendarEvent): string {
  const query = new URLSearchParams({
    subject: e.title,
    startdt: isoSeconds(e.startTime),
    enddt: isoSeconds(e.endTime),
    body: e.details,
    location: e.location,
  });
  return `https://outlook.live.com/calendar/0/action/compose?${query}`;
}

/** The guest's secret token: the last path segment of any of their links (cancelUrl, manageUrl…). */
export function tokenOfGuestUrl(url: string): string {
  return new URL(url).pathname.split("/").pop()!;
}

/** The booking's current invitation, by the guest's token. */
export function icsPathOf(token: string): string {
  return `/api/v1/public/bookings/${encodeURIComponent(token)}.ics`;
}

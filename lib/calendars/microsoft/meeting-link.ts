import "server-only";
import type { CalendarEvent } from "../types";

/** A Teams meeting (decisions §17): Graph makes it with the event and answers its join link. */
export function meetingRequest(event: CalendarEvent) {
  return event.wantsMeeting ? { isOnlineMeeting: true, onlineMeetingProvider: "teamsForBusiness" } : {};
}

/** The join link of the meeting made with a created event, when one was asked for. */
export function meetingUrlOf(event: CalendarEvent, created: { onlineMeeting?: { joinUrl?: unknown } | null }): string | undefined {
  const joinUrl = created.onlineMeeting?.joinUrl;
  return event.wantsMeeting && typeof joinUrl === "string" && joinUrl ? joinUrl : undefined;
}

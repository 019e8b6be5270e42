import "server-only";
import type { calendar_v3 } from "googleapis/build/src/apis/calendar";
import type { CalendarEvent } from "../types";

/**
 * A Google Meet for the event (decisions §17): conferenceData.createRequest, which Google reads
 * only with conferenceDataVersion=1. The requestId is the event's own id, so a retried insert
 * never makes a second meeting. Later updates (patch, version 0) leave the meeting as it is.
 */
export function meetingRequest(event: CalendarEvent, eventId: string) {
  if (!event.wantsMeeting) return undefined;
  return {
    params: { conferenceDataVersion: 1 },
    body: { conferenceData: { createRequest: { requestId: eventId, conferenceSolutionKey: { type: "hangoutsMeet" } } } } satisfies calendar_v3.Schema$Event,
  };
}

/** The meeting's join link: the video entry point (hangoutLink in older answers). */
export function meetingUrlOf(event: calendar_v3.Schema$Event | undefined): string | undefined {
  const video = event?.conferenceData?.entryPoints?.find((p) => p.entryPointType === "video")?.uri;
  return video ?? event?.hangoutLink ?? undefined;
}

import type { BookingRow, EventTypeRow, UserRow } from "@/db/schema";
import { getConfig } from "@/lib/config";
import { isoUtc, isoUtcOrNull } from "@/lib/time";

// Rows to API shapes. The only place that decides what leaves the service: no hash, token or
// internal column is ever in these.

function identity(u: UserRow) {
  return { id: u.id, email: u.email, fullName: u.fullName, username: u.username, timezone: u.timezone };
}

export function toRegisteredUser(u: UserRow) {
  return { ...identity(u), emailVerified: u.emailVerified };
}

export function toProfile(u: UserRow) {
  return { ...identity(u), avatarUrl: u.avatarUrl, createdAt: isoUtc(u.createdAt) };
}

export function toEventType(e: EventTypeRow, username: string) {
  return {
    id: e.id,
    slug: e.slug,
    title: e.title,
    durationMinutes: e.durationMinutes,
    bufferBeforeMinutes: e.bufferBeforeMinutes,
    bufferAfterMinutes: e.bufferAfterMinutes,
    slotIntervalMinutes: e.slotIntervalMinutes ?? e.durationMinutes,
    location: e.location,
    description: e.description,
    customQuestions: e.customQuestions,
    isActive: e.isActive,
    color: e.color,
    publicUrl: `${getConfig().appUrl}/${username}/${e.slug}`,
    createdAt: isoUtc(e.createdAt),
  };
}

export function toBooking(b: BookingRow, eventType: { id: string; title: string }) {
  return {
    id: b.id,
    eventType: { id: eventType.id, title: eventType.title },
    guestName: b.guestName,
    guestEmail: b.guestEmail,
    startTime: isoUtc(b.startTime),
    endTime: isoUtc(b.endTime),
    guestTimezone: b.guestTimezone,
    status: b.status,
    location: b.location,
    customAnswers: b.customAnswers,
    createdAt: isoUtc(b.createdAt),
    cancellationReason: b.cancellationReason,
    cancelledBy: b.cancelledBy,
    previousStartTime: isoUtcOrNull(b.previousStartTime),
  };
}

export type BookingDto = ReturnType<typeof toBooking>;

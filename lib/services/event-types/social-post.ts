import "server-only";
import type { Db } from "@/db";
import type { EventTypeRow, UserRow } from "@/db/schema";
import { ContentRecord, MAX_TEXT_HINT, type ContentRecordOut } from "@/lib/schemas/social-page";
import { toEventType } from "@/lib/dto";
import { AppError } from "@/lib/errors";
import { getEventType } from "./manage";
import { hostOwner } from "./owner";

const ELLIPSIS = "…";

/** At most `max` UTF-16 units of `text`, never cutting a surrogate pair in half. */
function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= ELLIPSIS.length) return "";
  let cut = text.slice(0, max - ELLIPSIS.length);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}${ELLIPSIS}`;
}

/**
 * The post's text: what, with whom, how long and where, the description as far as it fits, and
 * the call to book. Only the description (then the location, then the title) gives way to the
 * length limit: the link and the call to action always stay.
 */
export function announcementText(host: UserRow, eventType: EventTypeRow, link: string): string {
  const closing = `Book a time: ${link}`;
  const separator = "\n\n";
  let title = `${eventType.title} with ${host.fullName}`;
  let details = `${eventType.durationMinutes} minutes${eventType.location ? ` · ${eventType.location}` : ""}`;
  const fixed = () => title.length + details.length + closing.length + 2 * separator.length;
  if (fixed() > MAX_TEXT_HINT) details = truncate(details, Math.max(0, details.length - (fixed() - MAX_TEXT_HINT)));
  if (fixed() > MAX_TEXT_HINT) title = truncate(title, Math.max(0, title.length - (fixed() - MAX_TEXT_HINT)));
  const room = MAX_TEXT_HINT - fixed() - separator.length;
  const description = eventType.description.trim() && room > 0 ? truncate(eventType.description.trim(), room) : "";
  return [title, details, description, closing].filter(Boolean).join(separator);
}

/**
 * GET /me/event-types/{id}/social-post: a `content` record of the social page contract that
 * announces the event type's booking page. It is checked by the contract's own schema before it
 * leaves, so a record we hand out always passes the validator we publish.
 */
export async function socialPostForEventType(db: Db, host: UserRow, eventTypeId: string): Promise<ContentRecordOut> {
  const { eventType } = await getEventType(db, hostOwner(host), eventTypeId);
  if (!eventType.isActive) {
    throw new AppError("conflict", "This event type is inactive: its booking page is not public, so there is nothing to announce", {
      field: "isActive",
    });
  }
  const link = toEventType(eventType, host.username).publicUrl;
  return ContentRecord.parse({
    id: `${eventType.id}.announcement`,
    text: announcementText(host, eventType, link),
    status: "draft",
    link,
    cta: { type: "BOOK_NOW", link },
  });
}

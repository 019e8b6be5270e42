// Meeting links (decisions §17): an event type whose `location` is the word `video` gives each
// booking its own meeting link, from the host's write-target calendar (Google Meet, Teams) or
// from VIDEO_URL_TEMPLATE. Until the link is known the booking's location is still `video`, and
// what people read says so in words. Shared (pure): emails, pages and the API alike.

/** The event-type (and booking) location that asks for a meeting link per booking. */
export const VIDEO_LOCATION = "video";

/** True while a booking's link is still to come (or never comes: no template, no conferencing). */
export function awaitsMeetingLink(location: string): boolean {
  return location.trim().toLowerCase() === VIDEO_LOCATION;
}

/** The placeholders VIDEO_URL_TEMPLATE may hold; at least one of them, so every booking gets its own room. */
export const TEMPLATE_PLACEHOLDERS = ["room", "bookingId"] as const;
export type TemplatePlaceholder = (typeof TEMPLATE_PLACEHOLDERS)[number];

/**
 * What is wrong with a VIDEO_URL_TEMPLATE, or undefined: an http(s) URL with `{room}` or
 * `{bookingId}` and no other placeholder (a typo would otherwise reach every guest as written).
 */
export function templateProblem(template: string): string | undefined {
  const names = [...template.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1]!);
  const unknown = names.filter((n) => !(TEMPLATE_PLACEHOLDERS as readonly string[]).includes(n));
  if (unknown.length > 0) return `unknown placeholder ${unknown.map((n) => `{${n}}`).join(", ")} (use {room} or {bookingId})`;
  if (names.length === 0) return "must contain {room} or {bookingId}, so each booking gets its own meeting";
  let url: URL;
  try {
    url = new URL(template.replaceAll("{room}", "room").replaceAll("{bookingId}", "bkg_id"));
  } catch {
    return "must be a URL, e.g. https://meet.jit.si/{room}";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "must be an http(s) URL";
  return undefined;
}

/**
 * The booking's link from the template. Only the two values below go in, each URL-encoded: no
 * guest data (name, email, answers) ever reaches the meeting provider through the link.
 */
export function fillMeetingTemplate(template: string, values: Record<TemplatePlaceholder, string>): string {
  return template.replace(/\{(room|bookingId)\}/g, (_, name: TemplatePlaceholder) => encodeURIComponent(values[name]));
}

/** What a host reads for a `video` booking that got no link (no template, no conferencing calendar). */
export const HOST_NO_LINK = { videoCall: "Video call", videoLinkByHost: "no meeting link was made: send the guest one" };

/**
 * The location as people read it: the place or the link, or, for a `video` booking whose link
 * did not come, the words (in the reader's language) saying the host sends it.
 */
export function readableLocation(location: string, words: { videoCall: string; videoLinkByHost: string }): string {
  return awaitsMeetingLink(location) ? `${words.videoCall} (${words.videoLinkByHost})` : location;
}

/** Whether a location is a web address (a meeting link), to be shown as a link and given as the invitation's URL. */
export function isWebAddress(location: string): boolean {
  return /^https?:\/\/[^\s]+$/i.test(location.trim());
}

/** An event type's location on its public pages: `video` is named in the guest's words ("Video call"). */
export function eventTypePlace(location: string, words: { videoCall: string }): string {
  return awaitsMeetingLink(location) ? words.videoCall : location;
}

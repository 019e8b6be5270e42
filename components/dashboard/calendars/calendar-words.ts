import type { CalendarConnectionDto, CalendarProvider } from "@/lib/browser/api-client/calendars";
import { momentWhen } from "@/lib/dashboard/when";
import { PROVIDER_BRANDS } from "@/lib/schemas/calendar-providers";

// What the calendars page says about providers and their states. The API keeps its values
// (provider_a …, reauth_required); people read brand names and plain sentences.

/** The providers' brand names, as the emails and the explain answer say them (one list). */
export const BRAND: Record<CalendarProvider, string> = PROVIDER_BRANDS;

/** What a connection is called: a CalDAV server the host named goes by its address, not by the default's brand. */
export const connectionBrand = (connection: Pick<CalendarConnectionDto, "provider" | "serverHost">): string =>
  connection.serverHost ? `CalDAV ${connection.serverHost}` : BRAND[connection.provider];

export const brandOf = (provider: string): string | undefined => (Object.prototype.hasOwnProperty.call(BRAND, provider) ? BRAND[provider as CalendarProvider] : undefined);

/** The callback's `?connected=` / `?error=` flags, in words. */
export function flagMessage(flags: { connected?: string; error?: string }): { tone: "success" | "error"; text: string } | undefined {
  if (flags.connected) {
    const brand = brandOf(flags.connected);
    return { tone: "success", text: brand ? `${brand} connected. Its calendars are listed below.` : "Your calendar is connected. Its calendars are listed below." };
  }
  switch (flags.error) {
    case undefined:
    case "":
      return undefined;
    case "access_denied":
      return { tone: "error", text: "You declined access, so nothing was connected." };
    case "provider_unavailable":
      return { tone: "error", text: "The provider could not be reached, so nothing was connected. Please try again in a moment." };
    case "not_configured":
      return { tone: "error", text: "Connecting this calendar is not set up on this server yet: its administrator has to add the provider's OAuth app first." };
    case "exchange_failed":
      return { tone: "error", text: "The provider did not confirm the sign-in, so nothing was connected. Please try again." };
    default:
      return { tone: "error", text: "The provider refused the connection, so nothing was connected. Please try again." };
  }
}

export const STATUS: Record<CalendarConnectionDto["status"], { label: string; className: string }> = {
  connected: { label: "Connected", className: "bg-green-100 text-green-900" },
  error: { label: "Sync problem", className: "bg-amber-100 text-amber-900" },
  reauth_required: { label: "Reconnect needed", className: "bg-red-100 text-red-900" },
};

/** Why a connection is not working, and what the host can do about it. */
export function statusExplanation(connection: CalendarConnectionDto): string | undefined {
  const brand = connectionBrand(connection);
  if (connection.status === "error") {
    // A failed sync, or a booking that checked the calendar and got no answer (lastError says which).
    return `${brand} could not be read at the last try. The busy times read before still count, and we try again every few minutes; Sync now tries at once.`;
  }
  if (connection.status === "reauth_required") {
    return connection.provider === "provider_c" && connection.serverHost
      ? `${brand} no longer accepts the password (it was revoked or changed), so busy times are not read. Reconnect with the new password; your choices below are kept.`
      : connection.provider === "provider_c"
      ? "Apple iCloud no longer accepts the app-specific password (it was revoked or changed), so busy times are not read. Reconnect with a new app-specific password; your choices below are kept."
      : `${brand} no longer accepts our access (it was removed or has expired), so busy times are not read. Reconnect to sign in again; your choices below are kept.`;
  }
  return undefined;
}

const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });

/**
 * How old the stored busy times are (the connection's busyAsOf): "Checked 20 seconds ago",
 * "Checked 3 minutes ago", "Checked Mon, Nov 30, 2026, 9:00 AM", or "Not yet checked".
 */
export function checkedPhrase(iso: string | null, now: number, zone: string): string {
  if (!iso) return "Not yet checked";
  const at = Date.parse(iso);
  const seconds = Math.max(0, Math.floor((now - at) / 1000));
  if (seconds < 5) return "Checked just now";
  if (seconds < 60) return `Checked ${relative.format(-seconds, "second")}`;
  if (seconds < 3600) return `Checked ${relative.format(-Math.floor(seconds / 60), "minute")}`;
  if (seconds < 6 * 3600) return `Checked ${relative.format(-Math.floor(seconds / 3600), "hour")}`;
  return `Checked ${momentWhen(iso, zone)}`;
}

/** The full date and time in the host's zone, for a tooltip. */
export const fullDate = (iso: string, zone: string) => momentWhen(iso, zone);

/**
 * What people call a connection: its primary calendar's name (else its first calendar's, else
 * the account's address), as its reconnect email does: "Work" in "Your Work calendar (Apple iCloud)".
 */
export function connectionName(connection: Pick<CalendarConnectionDto, "calendars" | "email">): string {
  return (connection.calendars.find((c) => c.primary) ?? connection.calendars[0])?.name ?? connection.email;
}

/** Whether the connection is broken (error or reauth_required): its busy time may be out of date. */
export const isBroken = (connection: Pick<CalendarConnectionDto, "status">): boolean => connection.status !== "connected";

/** "Stopped syncing on Tue, Dec 1, 2026 · 9:00 AM." (nothing while it is connected). */
export function brokenSinceWords(connection: Pick<CalendarConnectionDto, "status" | "brokenSince">, zone: string): string | undefined {
  if (!isBroken(connection) || !connection.brokenSince) return undefined;
  return `Stopped syncing on ${momentWhen(connection.brokenSince, zone)}.`;
}

/** "Busy data as of Tue, Dec 1, 2026 · 8:55 AM." or "No busy data has been read yet." */
export function busyAsOfWords(busyAsOf: string | null, zone: string): string {
  return busyAsOf ? `Busy data as of ${momentWhen(busyAsOf, zone)}.` : "No busy data has been read yet.";
}

/** The dashboard banner's sentence: "Your Work calendar (Apple iCloud) stopped syncing on Tue, Dec 1, 2026 · 9:00 AM." */
export function bannerSentence(connection: CalendarConnectionDto, zone: string): string {
  const since = connection.brokenSince ? ` on ${momentWhen(connection.brokenSince, zone)}` : "";
  return `Your ${connectionName(connection)} calendar (${connectionBrand(connection)}) stopped syncing${since}.`;
}

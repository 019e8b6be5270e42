import "server-only";
import type { OneTimeLinkRow } from "@/db/schema";
import { findLinkBookable, ownerOffersAnything } from "@/lib/services/bookable/one-time-link";
import { findOneTimeLink } from "@/lib/services/event-types/one-time-links";
import type { Bookable } from "@/lib/services/bookable/bookable";
import type { LinkEnd } from "@/lib/services/event-types/one-time-links";
import { getDb } from "@/lib/store/database";

// What /d/{token} shows (decisions §21): the link's booking page while it can book; once used,
// expired or withdrawn, a plain page saying which, naming the host (or team) and linking to their
// public page when it offers anything; an unknown token is the site's 404.

export type LinkPage =
  | { state: "open"; link: OneTimeLinkRow; bookable: Bookable }
  | { state: "ended"; end: LinkEnd; link: OneTimeLinkRow; ownerName: string; homePath: string | null; hostTimezone: string };

export async function linkPageOf(token: string): Promise<LinkPage | undefined> {
  const db = await getDb();
  const found = await findLinkBookable(db, token, Date.now());
  if (!found) return undefined;
  const { link, bookable, end } = found;
  if (!end) return { state: "open", link, bookable };
  const { team, hosts, eventType } = bookable;
  const offered = await ownerOffersAnything(db, eventType);
  const host = hosts[0]?.host;
  const ownerName = team ? team.name : (host?.fullName ?? "");
  const homePath = !offered ? null : team ? `/team/${team.slug}` : host ? `/${host.username}` : null;
  return { state: "ended", end, link, ownerName, homePath, hostTimezone: host?.timezone ?? "UTC" };
}

/** The HTTP status of /d/{token} when it is not the page's own 200: 410 for a link used, expired or withdrawn (undefined otherwise). */
export async function linkPageStatus(token: string): Promise<number | undefined> {
  const found = await findOneTimeLink(await getDb(), token, Date.now());
  return found?.end ? 410 : undefined;
}

/**
 * What server.mjs calls (plain JavaScript, outside the bundles) for GET /d/{token}: the App Router
 * lets a page answer no status but 200 and 404, so the server sets a gone link's 410 around the
 * page it renders (decisions §21: the page and the API answer 410 alike).
 */
export function installLinkPageStatus(): void {
  (globalThis as unknown as { __linkPageStatus?: (token: string) => Promise<number | undefined> }).__linkPageStatus = linkPageStatus;
}

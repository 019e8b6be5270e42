import "server-only";
import { teamOwner } from "@/lib/browser/api-client/public";
import { fill } from "@/lib/i18n/fill";
import { INTL_TAG } from "@/lib/i18n/locales";
import type { GuestLanguage } from "@/lib/i18n/server";
import { personalHost, type Bookable } from "@/lib/services/bookable/bookable";

// Who a guest books with, as the booking page shows it: the one place where the page's two URL
// shapes, a host's and a team's (decisions §15), differ. The Bookable behind them is one.

export type BookableFace = {
  /** The event type's public API path's owner: a username, or `teams/{teamSlug}`. */
  apiOwner: string;
  /** Whose event it is, at the top of the summary and in the page's title. */
  name: string;
  avatarUrl: string | null;
  /** A team's: who the guest may meet ("You meet Ada or Grace, whoever is free"). */
  with?: string;
  /** Whom the confirmation says the guest meets. */
  hostName: string;
  /**
   * The zone the server looks for the first open month in, and that the guest's zone is compared
   * with: the host's. A team's hosts may each be in another zone: none, and no first-paint preview.
   */
  hostTimezone?: string;
};

export function faceOf(bookable: Bookable, { locale, messages }: Pick<GuestLanguage, "locale" | "messages">): BookableFace {
  if (!bookable.team) {
    const host = personalHost(bookable);
    return { apiOwner: host.username, name: host.fullName, avatarUrl: host.avatarUrl, hostName: host.fullName, hostTimezone: host.timezone };
  }
  const hosts = bookable.hosts.map((h) => h.host.fullName);
  const roundRobin = bookable.eventType.schedulingType === "round_robin";
  const names = new Intl.ListFormat(INTL_TAG[locale], { type: roundRobin ? "disjunction" : "conjunction" }).format(hosts);
  return {
    apiOwner: teamOwner(bookable.team.slug),
    name: bookable.team.name,
    avatarUrl: null,
    with: hosts.length > 0 ? fill(roundRobin ? messages.pages.teamOneHost : messages.pages.teamAllHosts, { hosts: names }) : undefined,
    hostName: roundRobin ? bookable.team.name : names,
  };
}

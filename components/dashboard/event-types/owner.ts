import type { TeamDto } from "@/lib/browser/api-client/teams";
import { possibleHosts } from "@/lib/forms/event-type-hosts";

// Whose event types the editor works on: the host's own, or a team's (a personal event type is a
// team of one). The pages name the owner; everything that differs between the two is here, as
// data, or is a section of its own that appears for one owner (the team's hosts; the host's
// schedule, time check and embed snippet).

/** What a page knows of the owner: for a team's, also who is asking (only its owners edit). */
export type OwnerRef = { kind: "me" } | { kind: "team"; teamId: string; myUserId: string };

/** The owner as the editor has it: a team's with the team, whose active members may host. */
export type EditorOwner = { kind: "me" } | { kind: "team"; teamId: string; team: TeamDto };

/** Where the editor goes back to (after saving or cancelling), and its name in "Back to …". */
export function homeOf(owner: EditorOwner): { href: string; name: string } {
  return owner.kind === "me" ? { href: "/dashboard/event-types", name: "your event types" } : { href: `/dashboard/teams/${owner.teamId}`, name: owner.team.name };
}

/** The user ids of who may host (a team's active members; the host's own needs no choice). */
export const hostChoicesOf = (owner: EditorOwner): string[] => (owner.kind === "me" ? [] : possibleHosts(owner.team.members).map((m) => m.userId));

/** The editor's words that depend on the owner. */
export const OWNER_WORDS = {
  me: {
    newHeading: "New event type",
    newIntro: null,
    /** Whose booking link the slug ends. */
    linkOf: "your",
    slugTaken: "You already have an event type at this link. Choose another.",
    /** What an empty notice or window falls back to. */
    ownSetting: "as set on your Availability page",
    ownPlaceholder: "As in availability",
    /** The hints of a day's and a week's limit (a team's counts each host's bookings apart). */
    dayLimitHint: "Empty: no limit.",
    weekLimitHint: "Monday to Sunday. Empty: no limit.",
  },
  team: {
    newHeading: "New team event type",
    newIntro: "Guests book it from the team's page; the hosts you choose below take the bookings.",
    linkOf: "the team's",
    slugTaken: "The team already has an event type at this link. Choose another.",
    ownSetting: "each host's own setting",
    dayLimitHint: "Per host. Empty: no limit.",
    weekLimitHint: "Per host, Monday to Sunday. Empty: no limit.",
    ownPlaceholder: "Each host's own",
  },
} as const;

import type { Locale } from "@/lib/i18n/locales";
import { USERNAME_FORMAT } from "@/lib/schemas/account";
import { CreateTeamBody, InviteMemberBody, UpdateTeamBody } from "@/lib/schemas/team";
import type { FoundIssue } from "./field-errors";
import type { FormRules } from "./resolver";

// The teams pages' forms (decisions §15), checked with the API's own schemas (lib/schemas/team.ts):
// a new team and its rename (slug and name), and an invitation by username or email. A team's
// event type has the event-type form (event-type.ts), with its hosts.

/** `bio` is the settings' only (a new team is made with a name and a link, then described). */
export type TeamValues = { name: string; slug: string; bio: string };
export const TEAM_FIELDS: readonly string[] = ["name", "slug", "bio"];

/** Words for what is wrong with a team link the schema refused (the username rule, and names the site keeps). */
function teamSlugWords(slug: string): string {
  if (slug.trim() === "") return "Enter the last part of the team's link, e.g. sales.";
  if (slug.length < 3) return "Use at least 3 characters.";
  if (slug.length > 40) return "Use at most 40 characters.";
  if (USERNAME_FORMAT.test(slug)) return "This link is kept for the site's own pages. Choose another.";
  if (/[A-Z]/.test(slug) && USERNAME_FORMAT.test(slug.toLowerCase())) return "Use lower-case letters only.";
  if (/^-|-$/.test(slug)) return "Start and end with a letter or digit, not a hyphen.";
  return "Use only lower-case letters, digits and hyphens, e.g. sales-team (no spaces or other signs).";
}

const teamWords = ({ path, code }: FoundIssue, v: TeamValues): string | undefined => {
  if (path === "name" && code === "too_small") return "Enter the team's name.";
  if (path === "name" && code === "too_big") return "Use at most 100 characters.";
  if (path === "slug") return teamSlugWords(v.slug);
  return undefined;
};

export const newTeamRules: FormRules<TeamValues> = { schema: CreateTeamBody, toBody: (v) => ({ slug: v.slug.trim(), name: v.name }), words: teamWords };
/** The settings send every field (unchanged ones are harmless); an empty bio is none. */
export const teamChangeBody = (v: TeamValues) => ({ slug: v.slug.trim(), name: v.name, bio: v.bio.trim() === "" ? null : v.bio });
export const teamChangeRules: FormRules<TeamValues> = { schema: UpdateTeamBody, toBody: teamChangeBody, words: teamWords };

export type InviteValues = { invitee: string; role: "owner" | "member"; language: Locale };

/** True when what was typed is an email address rather than a username ("@ada" is a username). */
export const isEmailInvitee = (invitee: string) => invitee.trim().replace(/^@/, "").includes("@");

/**
 * A username as people write it ("@Ada " → "ada"), or an email address (sent with the language
 * of its email): one field, as the person at the keyboard knows the invitee.
 */
export const inviteBody = (v: InviteValues) =>
  isEmailInvitee(v.invitee)
    ? { email: v.invitee.trim(), role: v.role, language: v.language }
    : { username: v.invitee.trim().replace(/^@/, "").toLowerCase(), role: v.role };

export const inviteRules: FormRules<InviteValues> = {
  schema: InviteMemberBody,
  toBody: inviteBody,
  fieldOf: (path) => (path === "username" || path === "email" ? "invitee" : path === "role" || path === "language" ? path : undefined),
  words: ({ path, code }) => {
    if (path === "username" && code === "too_small") return "Enter a username or an email address.";
    if (path === "email") return "Enter a whole email address, e.g. ana@example.com.";
    return undefined;
  },
};

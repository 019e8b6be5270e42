import type { EventTypeInputOf, SchedulingType, TeamEventTypeDto } from "@/lib/browser/api-client/event-types";
import type { TeamMemberDto } from "@/lib/browser/api-client/teams";
import type { Locale } from "@/lib/i18n/locales";
import { USERNAME_FORMAT } from "@/lib/schemas/account";
import { CreateTeamBody, CreateTeamEventTypeBody, InviteMemberBody, UpdateTeamBody, UpdateTeamEventTypeBody } from "@/lib/schemas/team";
import { eventTypeFieldOf, eventTypeValues, eventTypeWords, toEventTypeBody, type EventTypeValues } from "./event-type";
import type { FoundIssue } from "./field-errors";
import type { FormRules } from "./resolver";

// The teams pages' forms (decisions §15), checked with the API's own schemas (lib/schemas/team.ts):
// a new team and its rename (slug and name), an invitation by username or email, and a team event type
// (the personal event type's form, plus how bookings go to the hosts and which members host).

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

// ---- Team event types ----

export const SCHEDULING_TYPES: { value: SchedulingType; label: string; hint: string }[] = [
  { value: "round_robin", label: "Round robin", hint: "Each booking goes to whichever host is free, spread evenly." },
  { value: "collective", label: "Collective", hint: "Every host must be free, and every host attends." },
];

export const schedulingLabel = (type: SchedulingType) => SCHEDULING_TYPES.find((t) => t.value === type)?.label ?? type;

/** Who may host: the team's active members (an invited one cannot, decisions §15). */
export const possibleHosts = (members: TeamMemberDto[]) => members.filter((m) => m.status === "active");

/** A stored team event type's form, or a new one's: round robin, hosted by every active member, to begin with. */
export function teamEventTypeValues(eventType: TeamEventTypeDto | undefined, members: TeamMemberDto[]): EventTypeValues {
  const hosts = possibleHosts(members).map((m) => m.userId);
  if (!eventType) return { ...eventTypeValues(undefined), schedulingType: "round_robin", hostIds: hosts };
  // A host who has left the team since is not offered again: only active members can host.
  return { ...eventTypeValues(eventType), schedulingType: eventType.schedulingType, hostIds: eventType.hostIds.filter((id) => hosts.includes(id)) };
}

/** The body the team form sends (POST or PATCH: every field). */
export function toTeamEventTypeBody(v: EventTypeValues): EventTypeInputOf<{ kind: "team"; teamId: string }> {
  // "" is sent as it is, for the API's schema to refuse (the check before sending says it first).
  // A team event type has no schedule of its own (each host's default decides, decisions §15).
  return { ...toEventTypeBody(v), scheduleId: null, schedulingType: v.schedulingType as SchedulingType, hostIds: v.hostIds ?? [] };
}

/** The field of an API issue: the personal form's, or the team's two (a problem of one host is shown at the list). */
export function teamEventTypeFieldOf(path: string): string | undefined {
  if (path === "schedulingType") return "schedulingType";
  if (path === "hostIds" || /^hostIds\.\d+$/.test(path)) return "hostIds";
  return eventTypeFieldOf(path);
}

export function teamEventTypeWords(issue: FoundIssue, v: EventTypeValues): string | undefined {
  if (issue.path === "schedulingType") return "Choose how bookings are shared: round robin or collective.";
  if (issue.path.startsWith("hostIds")) return (v.hostIds ?? []).length === 0 ? "Choose at least one host." : "Choose hosts among the team's active members.";
  return eventTypeWords(issue, v);
}

const teamRules = (schema: FormRules<EventTypeValues>["schema"]): FormRules<EventTypeValues> => ({
  schema,
  toBody: toTeamEventTypeBody,
  fieldOf: teamEventTypeFieldOf,
  words: teamEventTypeWords,
});
/** Checked as the API checks a new team event type (POST) and a change (PATCH, every field sent). */
export const newTeamEventTypeRules = teamRules(CreateTeamEventTypeBody);
export const teamEventTypeChangeRules = teamRules(UpdateTeamEventTypeBody);

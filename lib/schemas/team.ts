import { z } from "zod";
import { RESERVED_USERNAMES, USERNAME_FORMAT, USERNAME_FORMAT_MESSAGE } from "./account";
import { LOCALES } from "@/lib/i18n/locales";
import { Bio, PathSegment, QueryInt, Text, Timestamp } from "./common";
import { CreateEventTypeBody, EventType, UpdateEventTypeBody } from "./event-type";

// Teams (decisions §15): a slug for the public pages under /team/{slug}, members who are
// invited and then accept, and event types that the team's active members host.

export const TeamRole = z.enum(["owner", "member"]).meta({ description: "owner: manages the team, its members and its event types; member: reads them and hosts" });
export const MemberStatus = z.enum(["invited", "active"]).meta({ description: "invited until the person accepts; only active members can host" });
export const SchedulingType = z.enum(["round_robin", "collective"]).meta({
  description: "round_robin: a start is offered when at least one host is free, and one host is assigned; collective: every host must be free, and all are booked",
});

/** The username pattern, unique among teams; names the site reserves are refused. */
const TeamSlug = z
  .string()
  .regex(USERNAME_FORMAT, USERNAME_FORMAT_MESSAGE)
  .refine((s) => !RESERVED_USERNAMES.has(s), { message: "This name is reserved" });
const TeamName = Text.trim().min(1, "Must not be empty").max(100);

export const CreateTeamBody = z.strictObject({ slug: TeamSlug, name: TeamName });
export const UpdateTeamBody = z.strictObject({ slug: TeamSlug.optional(), name: TeamName.optional(), bio: Bio.optional() });

const InviteEmail = Text.trim()
  .max(254)
  .pipe(z.email("Must be a valid email address"))
  .transform((e) => e.toLowerCase());

/**
 * Invite by username (a person with an account here) or by email address (anyone: an account
 * with that address answers on its dashboard, anyone else gets a sign-up link), one of the two.
 */
export const InviteMemberBody = z
  .strictObject({
    username: PathSegment.trim().min(1, "Must not be empty").toLowerCase().optional().meta({ description: "The person's username: one of username and email" }),
    email: InviteEmail.optional().meta({
      description:
        "An email address: one of username and email. The answer is the same whether or not an account uses it; that account (or whoever registers through the mailed link) answers the invitation",
    }),
    role: TeamRole.default("member"),
    language: z.enum(LOCALES).optional().meta({ description: "The language of the invitation email (by email only); English when left out" }),
  })
  .superRefine((b, ctx) => {
    if ((b.username === undefined) === (b.email === undefined)) {
      ctx.addIssue({ code: "custom", path: ["username"], message: "Give a username or an email address, one of the two" });
    }
    if (b.language !== undefined && b.email === undefined) ctx.addIssue({ code: "custom", path: ["language"], message: "Only an invitation by email has a language" });
  });
export const UpdateMemberBody = z.strictObject({ role: TeamRole });

export const TeamParams = z.object({ teamId: PathSegment });
export const EmailInvitationParams = z.object({ teamId: PathSegment, invitationId: PathSegment });
export const MemberParams = z.object({ teamId: PathSegment, userId: PathSegment });
export const TeamEventTypeParams = z.object({ teamId: PathSegment, eventTypeId: PathSegment });

export const TeamMember = z
  .object({ userId: z.string(), username: z.string(), fullName: z.string(), role: TeamRole, status: MemberStatus })
  .meta({ id: "TeamMember" });

export const TeamEmailInvitation = z
  .object({
    id: z.string().meta({ description: "prefix tinv_; withdraw with DELETE /me/teams/{teamId}/invitations/{id}" }),
    email: z.string().meta({ description: "The address invited, lower-cased; never whose it is" }),
    role: TeamRole,
    status: z.literal("invited"),
    invitedAt: Timestamp,
    expiresAt: Timestamp.meta({ description: "After it the invitation can no longer be answered and is no longer listed" }),
  })
  .meta({ id: "TeamEmailInvitation" });

export const Team = z
  .object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    bio: z.string().nullable(),
    createdAt: Timestamp,
    members: z.array(TeamMember).meta({ description: "Active members, and invited ones whose invitation has not expired" }),
    emailInvitations: z
      .array(TeamEmailInvitation)
      .optional()
      .meta({ description: "Invitations by email waiting for an answer: only in GET /me/teams/{teamId}, and only for the team's active owners" }),
  })
  .meta({ id: "Team" });

const Pagination = z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int() });

export const TeamListQuery = z.strictObject({
  status: MemberStatus.optional().meta({
    description: "active: only the teams the caller belongs to; invited: only those they are invited to (GET /me/team-invitations says who invited them); both when left out",
  }),
  page: QueryInt(1, 100_000, 1),
  limit: QueryInt(1, 100, 20),
});

export const TeamList = z.object({ data: z.array(Team), pagination: Pagination });

export const TeamInvitationsQuery = z.strictObject({ page: QueryInt(1, 100_000, 1), limit: QueryInt(1, 100, 20) });

const PersonRef = z.object({ userId: z.string(), username: z.string(), fullName: z.string() });

export const TeamInvitation = z
  .object({
    team: z.object({ id: z.string(), slug: z.string(), name: z.string() }).meta({ description: "The team, as its owners named it: show it as text, not as a link" }),
    role: TeamRole.meta({ description: "The role the caller is offered" }),
    invitedAt: Timestamp,
    invitedBy: PersonRef.nullable().meta({ description: "Who sent the invitation; null when their account no longer exists" }),
  })
  .meta({ id: "TeamInvitation" });

export const TeamInvitationList = z.object({ data: z.array(TeamInvitation), pagination: Pagination });

const HostIds = z
  .array(PathSegment)
  .min(1, "Choose at least one host")
  .max(200)
  .superRefine((ids, ctx) => {
    ids.forEach((id, i) => {
      if (ids.indexOf(id) !== i) ctx.addIssue({ code: "custom", path: [i], message: "This host is listed twice" });
    });
  })
  .meta({ description: "userIds of the team's active members" });

/** A personal event type's fields, and how the team hosts it. */
// Each host of a team event type is available by their own default schedule (decisions §15):
// scheduleId is always null there (accepted as null, so one form serves both kinds).
const NoSchedule = z.null().meta({ description: "Team event types: always null, each host's own default schedule decides their times" });

// One owner, one set of calendars (decisions §21): a team's event type takes each host's own choice.
const NoConflictCalendars = z
  .null({ error: "A team event type cannot choose calendars: each host chooses which of their calendars count on their Calendars page" })
  .meta({ description: "Team event types: always null, each host's calendars marked checkConflicts block their times" });

export const CreateTeamEventTypeBody = CreateEventTypeBody.extend({
  scheduleId: NoSchedule.optional(),
  conflictCalendars: NoConflictCalendars.optional(),
  schedulingType: SchedulingType,
  hostIds: HostIds.optional().meta({ description: "userIds of active members; every active member when left out" }),
});

export const UpdateTeamEventTypeBody = UpdateEventTypeBody.extend({
  scheduleId: NoSchedule.optional(),
  conflictCalendars: NoConflictCalendars.optional(),
  schedulingType: SchedulingType.optional(),
  hostIds: HostIds.optional(),
});

export const TeamEventType = EventType.extend({
  teamId: z.string(),
  schedulingType: SchedulingType,
  hostIds: z.array(z.string()),
}).meta({ id: "TeamEventType" });

export const TeamEventTypeList = z.object({ data: z.array(TeamEventType) });

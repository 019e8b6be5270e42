import { z } from "zod";
import { LOCALES } from "@/lib/i18n/locales";
import { Bio, Text, Timestamp, TimeZone } from "./common";

// Top-level paths of the web app that a username must not shadow, since /<username> is a public
// page: today's pages (decisions §13–§14) and the ones already planned (feeds, embed, metrics).
// A host who registered one of these before it was reserved keeps the account and the API; the
// start-up check (lib/startup.ts) warns about them, since their /<username> page is shadowed.
export const RESERVED_USERNAMES = new Set([
  "api", "dashboard", "login", "logout", "register", "signup", "signin", "cancel", "reschedule", "settings",
  "public", "admin", "auth", "oauth", "me", "static", "assets", "help", "support", "about", "pricing", "docs",
  "health", "metrics", "feeds", "feed", "embed", "www", "app", "account", "billing", "blog", "status", "terms",
  "privacy", "next", "favicon", "robots", "sitemap", "manifest",
  // /api/v1/public/bookings/… is the guest's calendar file, not a host's event type.
  "bookings",
  // /booking/{token} is a guest's own booking page.
  "booking",
  // Account pages outside the dashboard.
  "forgot-password", "reset-password", "confirm-email",
  // /team/{teamSlug}[/{eventSlug}] is a team's public page (decisions §15).
  "team", "teams",
  // /api/v1/public/links/{token} is a one-time link (decisions §21), not a host's event type.
  "links",
]);

const Email = Text.trim()
  .max(254)
  .pipe(z.email("Must be a valid email address"))
  .transform((e) => e.toLowerCase());

/** What a username looks like; team slugs follow it too (decisions §15). */
export const USERNAME_FORMAT = /^[a-z0-9](?:[a-z0-9-]{1,38}[a-z0-9])$/;
export const USERNAME_FORMAT_MESSAGE = "Must be 3–40 lower-case letters, digits or hyphens, starting and ending with a letter or digit";

export const Username = z
  .string()
  .regex(USERNAME_FORMAT, USERNAME_FORMAT_MESSAGE)
  .refine((u) => !RESERVED_USERNAMES.has(u), { message: "This username is reserved" });

const FullName = Text.trim().min(1, "Must not be empty").max(100);
const AvatarUrl = z
  .url({ protocol: /^https?$/, message: "Must be an http(s) URL" })
  .max(2048)
  .nullable();

const Password = Text.min(8, "Must be at least 8 characters").max(128, "Must be at most 128 characters");

export const RegisterBody = z.strictObject({
  email: Email,
  password: Password,
  fullName: FullName,
  username: Username,
  timezone: TimeZone,
  invitationToken: Text.max(200)
    .optional()
    .meta({
      description:
        "The secret of a team invitation's sign-up link (/register?invitation=…): single-use. Registering with the invited address joins the team; with another, the account is invited and answers on its dashboard. A link that no longer works is ignored",
    }),
});

export const ChangePasswordBody = z.strictObject({
  currentPassword: Text.max(1024),
  newPassword: Password,
});

export const PasswordResetBody = z.strictObject({ email: Email });

export const ConfirmPasswordResetBody = z.strictObject({
  token: Text.max(200),
  newPassword: Password,
});

export const ChangeEmailBody = z.strictObject({ newEmail: Email, password: Text.max(1024) });

export const ConfirmEmailChangeBody = z.strictObject({ token: Text.max(200) });

export const MessageResult = z.object({ message: z.string() }).meta({ id: "Message" });

export const LoginBody = z.strictObject({
  email: Text.trim().max(254).transform((e) => e.toLowerCase()),
  password: Text.max(1024),
});

export const UpdateProfileBody = z.strictObject({
  fullName: FullName.optional(),
  /** The public pages move to /{username}; the old address answers 404 (and is free to be taken). */
  username: Username.optional(),
  timezone: TimeZone.optional(),
  avatarUrl: AvatarUrl.optional(),
  bio: Bio.optional(),
  /** The language of the host's own emails. */
  language: z.enum(LOCALES).optional(),
});

const UserIdentity = z.object({
  id: z.string(),
  email: z.string(),
  fullName: z.string(),
  username: z.string(),
  timezone: z.string(),
});

export const RegisteredUser = UserIdentity.extend({ emailVerified: z.boolean() }).meta({ id: "RegisteredUser" });

export const Profile = UserIdentity.extend({ avatarUrl: z.string().nullable(), bio: z.string().nullable(), language: z.enum(LOCALES), createdAt: Timestamp }).meta({ id: "User" });

export const LoginResult = z
  .object({
    accessToken: z.string(),
    expiresIn: z.number().int(),
    tokenType: z.literal("Bearer"),
    user: z.object({ id: z.string(), email: z.string(), username: z.string(), timezone: z.string() }),
  })
  .meta({ id: "LoginResult" });

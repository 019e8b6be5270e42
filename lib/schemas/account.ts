import { z } from "zod";
import { Timestamp, TimeZone } from "./common";

// Paths of the web app that a username must not shadow: /<username> is a public page.
export const RESERVED_USERNAMES = new Set([
  "api", "dashboard", "login", "logout", "register", "signup", "signin", "cancel", "settings", "public",
  "admin", "auth", "oauth", "me", "static", "assets", "help", "support", "about", "pricing", "docs",
  "health", "www", "app", "account", "billing", "blog", "status", "terms", "privacy", "next",
]);

const Email = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email("Must be a valid email address"))
  .transform((e) => e.toLowerCase());

export const Username = z
  .string()
  .regex(
    /^[a-z0-9](?:[a-z0-9-]{1,38}[a-z0-9])$/,
    "Must be 3–40 lower-case letters, digits or hyphens, starting and ending with a letter or digit",
  )
  .refine((u) => !RESERVED_USERNAMES.has(u), { message: "This username is reserved" });

const FullName = z.string().trim().min(1, "Must not be empty").max(100);
const AvatarUrl = z
  .url({ protocol: /^https?$/, message: "Must be an http(s) URL" })
  .max(2048)
  .nullable();

export const RegisterBody = z.strictObject({
  email: Email,
  password: z.string().min(8, "Must be at least 8 characters").max(128, "Must be at most 128 characters"),
  fullName: FullName,
  username: Username,
  timezone: TimeZone,
});

export const LoginBody = z.strictObject({
  email: z.string().trim().transform((e) => e.toLowerCase()),
  password: z.string().max(1024),
});

export const UpdateProfileBody = z.strictObject({
  fullName: FullName.optional(),
  timezone: TimeZone.optional(),
  avatarUrl: AvatarUrl.optional(),
});

const UserIdentity = z.object({
  id: z.string(),
  email: z.string(),
  fullName: z.string(),
  username: z.string(),
  timezone: z.string(),
});

export const RegisteredUser = UserIdentity.extend({ emailVerified: z.boolean() }).meta({ id: "RegisteredUser" });

export const Profile = UserIdentity.extend({ avatarUrl: z.string().nullable(), createdAt: Timestamp }).meta({ id: "User" });

export const LoginResult = z
  .object({
    accessToken: z.string(),
    expiresIn: z.number().int(),
    tokenType: z.literal("Bearer"),
    user: z.object({ id: z.string(), email: z.string(), username: z.string(), timezone: z.string() }),
  })
  .meta({ id: "LoginResult" });

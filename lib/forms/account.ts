import type { ProfileDto } from "@/lib/browser/api-client/account";
import type { Locale } from "@/lib/i18n/locales";
import { ChangeEmailBody, ChangePasswordBody, UpdateProfileBody } from "@/lib/schemas/account";
import type { FormRules } from "./resolver";

// The settings page's forms, checked in the browser with the API's own schemas
// (lib/schemas/account.ts) before anything is sent: the profile (PATCH /me), the password
// (POST /me/password) and the email (POST /me/email). Their fields are the bodies' own.

export type ProfileValues = { fullName: string; username: string; avatarUrl: string; bio: string; timezone: string; language: Locale };
/** The username stored now: the body carries a username only to change it. */
export type ProfileContext = { currentUsername: string };

export const PROFILE_FIELDS: readonly string[] = ["fullName", "username", "avatarUrl", "bio", "timezone", "language"];

export const profileValues = (p: ProfileDto): ProfileValues => ({
  fullName: p.fullName,
  username: p.username,
  avatarUrl: p.avatarUrl ?? "",
  bio: p.bio ?? "",
  timezone: p.timezone,
  language: p.language,
});

/**
 * The PATCH body. The username is sent only when it changed: saving the rest must not depend on
 * it (a name reserved after its host took it stays theirs). An empty avatar or bio is none.
 */
export function profileBody(v: ProfileValues, { currentUsername }: ProfileContext) {
  const avatar = v.avatarUrl.trim();
  const username = v.username.trim();
  return {
    fullName: v.fullName,
    timezone: v.timezone,
    language: v.language,
    avatarUrl: avatar === "" ? null : avatar,
    bio: v.bio.trim() === "" ? null : v.bio,
    ...(username !== currentUsername ? { username } : {}),
  };
}

export const profileRules: FormRules<ProfileValues, ProfileContext> = { schema: UpdateProfileBody, toBody: profileBody };

export type PasswordValues = { currentPassword: string; newPassword: string };

export const passwordRules: FormRules<PasswordValues> = {
  // The API takes an empty current password (and says it is incorrect): the page asks for one first.
  schema: ChangePasswordBody.extend({ currentPassword: ChangePasswordBody.shape.currentPassword.min(1) }),
  words: ({ path, code }) => {
    if (path === "currentPassword" && code === "too_small") return "Enter your current password.";
    if (path === "newPassword" && code === "too_small") return "Use at least 8 characters.";
    if (path === "newPassword" && code === "too_big") return "Use at most 128 characters.";
    return undefined;
  },
};

export type EmailValues = { newEmail: string; password: string };

export const emailRules: FormRules<EmailValues> = { schema: ChangeEmailBody };

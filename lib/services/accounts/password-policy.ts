import "server-only";
import { getConfig } from "@/lib/config";
import { AppError, validationError } from "@/lib/errors";

// Passwords beside or instead of company sign-in (decisions §22). With PASSWORD_LOGIN=off every
// way a password is used or set (the API's login, registration, password reset, the password
// change) answers 403 and changes nothing; the dashboard offers only the OIDC button.

/** The sign-in button's name, for messages that send people to it. */
export function oidcName(): string {
  return getConfig().oidc?.name ?? "Company sign-in";
}

export const passwordsOffMessage = () => `Password sign-in is turned off on this server: sign in with ${oidcName()}`;

/** Throws 403 when PASSWORD_LOGIN=off: the first line of every password route. */
export function requirePasswordLogin(): void {
  if (!getConfig().passwordLogin) throw new AppError("forbidden", passwordsOffMessage(), { passwordLogin: false });
}

/**
 * A host who came through OIDC and never set a password, asked to confirm one: 400 on that field,
 * saying how to get one (the emailed reset link, which proves the inbox a stolen session does not).
 */
export function noPasswordYet(path: string, message: string): AppError {
  const words = getConfig().passwordLogin
    ? "Your account has no password yet: set one with “Forgot your password?” on the login page (a link by email), then try again"
    : "Your account has no password, and passwords are turned off on this server";
  return validationError([{ path, message: words }], message);
}

// The account pages' forms (sign up, log in, a forgotten password, a new one, confirming a new
// email): their values and the bodies they become, the fields being the bodies' own. The pages
// check them in the browser with the API's own schemas (auth-rules.ts) before anything is sent,
// in the API's own words; those, and zod with them, load when a form is first touched
// (auth-lazy.ts): this module has neither, for it is on every account page from the start.

export type RegisterValues = { fullName: string; email: string; password: string; username: string; timezone: string };
/** A team invitation's sign-up link: the account is made with its secret (decisions §15). */
export type RegisterContext = { invitationToken?: string };

export const registerBody = (v: RegisterValues, { invitationToken }: RegisterContext = {}) => ({ ...v, ...(invitationToken ? { invitationToken } : {}) });

/** "Zoë Müller-Smith" → "zoe-muller-smith": a username suggestion in the API's alphabet. */
export function usernameFrom(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/, "");
}

export type LoginValues = { email: string; password: string };

export type ForgotPasswordValues = { email: string };

export type NewPasswordValues = { newPassword: string };
/** The reset link's token: no field shows it (a problem with it is the link's, said instead of the form). */
export type NewPasswordContext = { token: string };

/** Confirming a new email is one button: the body is the link's token alone. */
export type ConfirmEmailContext = { token: string };

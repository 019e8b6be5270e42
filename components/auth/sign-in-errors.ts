// The words for a sign-in that did not work. next-auth sends the browser to /login?error=<code>
// (its own codes, and ours from lib/services/accounts/oidc-sign-in.ts); a person reads these,
// never the code. `name` is the company sign-in's label (OIDC_NAME).

export function signInErrorWords(code: string | undefined, name: string, passwordLogin: boolean): string | undefined {
  if (!code) return undefined;
  const orPassword = passwordLogin ? ", or log in with your email and password" : "";
  switch (code) {
    case "OidcEmailUnverified":
      return `${name} has not confirmed your email address, so it cannot sign you in here. Confirm your email with ${name} first${orPassword}.`;
    case "OidcNoEmail":
      return `${name} did not share your email address, so we cannot tell which account is yours. Ask your administrator to let this app read your email.`;
    case "OidcSignupOff":
      return `There is no account here for the email ${name} gave us, and new accounts cannot be made with ${name} on this server. Ask your administrator for an account.`;
    case "OidcIdentityTaken":
      return `This ${name} account is already linked to another account here. Sign in with it to use that account, or unlink it there first.`;
    case "OidcWrongIssuer":
      return `${name} answered for a different identity provider than this server is set up for. Please tell your administrator (npm run doctor checks the setup).`;
    case "AccessDenied":
      return `${name} did not let you in. Please try again.`;
    case "CredentialsSignin":
      return "The email or password is incorrect.";
    case "SessionRequired":
      return "Please log in to continue.";
    default:
      // OAuthSignin, OAuthCallback, Callback, Configuration …: the dance did not finish (a stale or
      // reopened tab, the provider unreachable, a link used twice).
      return `Signing in with ${name} did not finish. It may have taken too long, or the page was opened twice. Please try again.`;
  }
}

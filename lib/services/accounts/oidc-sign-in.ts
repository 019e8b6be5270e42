import "server-only";
import { and, eq, like, or } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { userIdentities, users, type UserRow } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { localeOfTag } from "@/lib/i18n/locales";
import { newId } from "@/lib/ids";
import { RESERVED_USERNAMES, USERNAME_FORMAT } from "@/lib/schemas/account";
import { isValidTimeZone } from "@/lib/time/instants";
import { endSessionsAndLinks } from "./credential-links";
import { createAccount } from "./register";

// Company sign-in (decisions §22): which host an OpenID Connect sign-in is. The provider's
// (issuer, subject) pair is the identity; an email only ever finds an account when the provider
// says it verified it, since anyone can type any address into an account at most providers.

/** What the provider said about the person, from the checked ID token (and its userinfo). */
export type OidcClaims = {
  issuer: string;
  subject: string;
  email: string | undefined;
  emailVerified: boolean;
  name: string | undefined;
  /** The `zoneinfo` claim, used for a new host when it is a zone we know. */
  zoneinfo: string | undefined;
  /** The `locale` claim (BCP 47), a new host's language when we speak it. */
  locale: string | undefined;
};

/** Why a sign-in was refused: the login page words each (components/auth/sign-in-errors.ts). */
export type OidcRefusal = "OidcNoEmail" | "OidcEmailUnverified" | "OidcSignupOff" | "OidcIdentityTaken" | "OidcWrongIssuer";

export type OidcOutcome =
  | { ok: true; user: UserRow; how: "identity" | "email" | "created" | "linked" }
  | { ok: false; refusal: OidcRefusal };

const refuse = (refusal: OidcRefusal): OidcOutcome => ({ ok: false, refusal });

/** The claims next-auth hands over, read defensively: anything unexpected counts as absent. */
export function claimsOf(profile: Record<string, unknown>): OidcClaims | undefined {
  const str = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);
  const issuer = str(profile.iss);
  const subject = str(profile.sub);
  if (!issuer || !subject) return undefined;
  return {
    issuer,
    subject,
    email: str(profile.email)?.toLowerCase(),
    // Only a real `true`: some providers send the string "true", which we do not guess about.
    emailVerified: profile.email_verified === true,
    name: str(profile.name) ?? ([str(profile.given_name), str(profile.family_name)].filter(Boolean).join(" ") || undefined),
    zoneinfo: str(profile.zoneinfo),
    locale: str(profile.locale),
  };
}

/**
 * The host this sign-in is, in this order: the linked identity; the signed-in host (`linkTo`,
 * linking from settings) when the identity is nobody's yet; a host with the same verified email
 * (the identity is linked to it); a new host unless sign-ups are off. An unverified email never
 * signs into an existing account, and never creates one either.
 */
export async function resolveOidcSignIn(
  db: Db,
  claims: OidcClaims,
  options: { signup: boolean; linkTo?: UserRow | undefined },
  now = new Date(),
): Promise<OidcOutcome> {
  try {
    return await resolve(db, claims, options, now);
  } catch (error) {
    // Two callbacks of the same person at once: the other one linked or created first. Its
    // result is now the identity's, which the second attempt finds.
    if (error instanceof AppError && error.code === "conflict") return resolve(db, claims, options, now);
    throw error;
  }
}

async function resolve(db: Db, claims: OidcClaims, options: { signup: boolean; linkTo?: UserRow | undefined }, now: Date): Promise<OidcOutcome> {
  const linked = await hostOfIdentity(db, claims);
  if (linked) {
    if (options.linkTo && options.linkTo.id !== linked.id) return refuse("OidcIdentityTaken");
    await touchIdentity(db, claims, now);
    return { ok: true, user: linked, how: "identity" };
  }
  if (options.linkTo) {
    await linkIdentity(db, options.linkTo.id, claims, now);
    return { ok: true, user: options.linkTo, how: "linked" };
  }
  if (!claims.email) return refuse("OidcNoEmail");
  if (!claims.emailVerified) return refuse("OidcEmailUnverified");
  const [byEmail] = await db.select().from(users).where(eq(users.email, claims.email)).limit(1);
  if (byEmail) return { ok: true, user: await linkByEmail(db, byEmail, claims, now), how: "email" };
  if (!options.signup) return refuse("OidcSignupOff");
  return { ok: true, user: await createOidcHost(db, claims, claims.email, now), how: "created" };
}

/**
 * Links the identity to the host with its verified email. An account whose email was never
 * confirmed here may have been opened by someone else with this address, waiting for its owner to
 * arrive (pre-account takeover): the provider has just proved the inbox, so that account's
 * password, sessions and links end in the same transaction, and the owner sets a password by the
 * emailed reset link if they want one.
 */
async function linkByEmail(db: Db, host: UserRow, claims: OidcClaims, now: Date): Promise<UserRow> {
  if (host.emailVerified) {
    await linkIdentity(db, host.id, claims, now);
    return host;
  }
  return db.transaction(async (tx) => {
    await linkIdentity(tx, host.id, claims, now);
    return (await endSessionsAndLinks(tx, host.id, { passwordHash: null, emailVerified: true }, now)) ?? host;
  });
}

async function hostOfIdentity(db: Db, claims: OidcClaims): Promise<UserRow | undefined> {
  const [row] = await db
    .select({ user: users })
    .from(userIdentities)
    .innerJoin(users, eq(users.id, userIdentities.userId))
    .where(and(eq(userIdentities.issuer, claims.issuer), eq(userIdentities.subject, claims.subject)))
    .limit(1);
  return row?.user;
}

async function touchIdentity(db: Db, claims: OidcClaims, now: Date): Promise<void> {
  await db
    .update(userIdentities)
    .set({ lastUsedAt: now, ...(claims.email ? { email: claims.email } : {}) })
    .where(and(eq(userIdentities.issuer, claims.issuer), eq(userIdentities.subject, claims.subject)));
}

async function linkIdentity(db: Db | Tx, userId: string, claims: OidcClaims, now: Date): Promise<void> {
  const inserted = await db
    .insert(userIdentities)
    .values({ id: newId("idn"), userId, issuer: claims.issuer, subject: claims.subject, email: claims.email ?? null, createdAt: now, lastUsedAt: now })
    .onConflictDoNothing()
    .returning({ id: userIdentities.id });
  // Linked by a concurrent callback meanwhile: settled by resolving again.
  if (inserted.length === 0) throw new AppError("conflict", "This identity was linked meanwhile");
}

/** A new host for a verified email nobody has: no password, the provider's name, zone and language. */
async function createOidcHost(db: Db, claims: OidcClaims, email: string, now: Date): Promise<UserRow> {
  const username = await freeUsername(db, email);
  return createAccount(
    db,
    {
      email,
      passwordHash: null,
      fullName: (claims.name ?? email.slice(0, email.indexOf("@"))).slice(0, 100),
      username,
      timezone: claims.zoneinfo && isValidTimeZone(claims.zoneinfo) ? claims.zoneinfo : "UTC",
      language: localeOfTag(claims.locale) ?? "en",
      emailVerified: true,
    },
    (tx, user) => linkIdentity(tx, user.id, claims, now),
  );
}

/** The email's local part as a username (3–40 of a-z, 0-9, '-'), with -2, -3 … when it is taken or reserved. */
export function usernameBase(email: string): string {
  const slug = email
    .slice(0, Math.max(0, email.indexOf("@")))
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 34)
    .replace(/-+$/, "");
  return slug.length >= 3 ? slug : `host-${slug || "new"}`.replace(/-+$/, "");
}

async function freeUsername(db: Db, email: string): Promise<string> {
  const base = usernameBase(email);
  const rows = await db
    .select({ username: users.username })
    .from(users)
    .where(or(eq(users.username, base), like(users.username, `${base}-%`)));
  const taken = new Set(rows.map((r) => r.username));
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    if (!taken.has(candidate) && !RESERVED_USERNAMES.has(candidate) && USERNAME_FORMAT.test(candidate)) return candidate;
  }
}

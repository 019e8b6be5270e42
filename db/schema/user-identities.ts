import { index, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./users";

// A host's account at the company's OpenID Connect provider (decisions §22): the provider's
// (issuer, subject) pair is the identity, never the email, which the provider may change or
// hand to someone else. One identity belongs to one host; a host may link several.
export const userIdentities = pgTable(
  "user_identities",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The ID token's `iss`, as the discovery document names the issuer. */
    issuer: text("issuer").notNull(),
    /** The ID token's `sub`: stable and unique at the issuer. */
    subject: text("subject").notNull(),
    /** The email the provider gave at the last sign-in (shown in settings; never used to look the identity up). */
    email: text("email"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("user_identities_issuer_subject_key").on(t.issuer, t.subject), index("user_identities_user_id_idx").on(t.userId)],
);

export type UserIdentityRow = typeof userIdentities.$inferSelect;

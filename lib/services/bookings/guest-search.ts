import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { bookings } from "@/db/schema";

/**
 * The LIKE pattern "contains `text`": `%`, `_` and `\` are the person's own characters, not
 * wildcards (a search for "100%" or "a_b" finds exactly that). Backslash is PostgreSQL's default
 * LIKE escape, named in the condition anyway so the pattern means the same on any server.
 */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The booking's guest name or email contains `text`, whatever the case; the text is a parameter. */
export function guestMatches(text: string): SQL {
  const pattern = containsPattern(text);
  return sql`(${bookings.guestName} ilike ${pattern} escape '\\' or ${bookings.guestEmail} ilike ${pattern} escape '\\')`;
}

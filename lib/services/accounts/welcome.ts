import "server-only";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { eventTypes, users } from "@/db/schema";
import { bookingPageUrl, dashboardUrl, hostPageUrl } from "@/lib/links";
import { STARTER_EVENT_TYPE } from "@/lib/onboarding";
import type { WelcomeEmailJob } from "@/lib/outbox/payloads";

// What the welcome email says, read when it is sent: the host as they are then (a username
// changed meanwhile gives the new page), and the starter event type's link while it exists.
export async function welcomeMailOf(db: Db, job: WelcomeEmailJob) {
  const [row] = await db
    .select({ email: users.email, fullName: users.fullName, username: users.username, language: users.language, starterTitle: eventTypes.title, starterSlug: eventTypes.slug })
    .from(users)
    .leftJoin(eventTypes, and(eq(eventTypes.userId, users.id), eq(eventTypes.slug, STARTER_EVENT_TYPE.slug)))
    .where(eq(users.id, job.userId))
    .limit(1);
  // The account is gone (deleted before the job ran): no one to welcome.
  if (!row) return undefined;
  return {
    to: { name: row.fullName, address: row.email },
    language: row.language,
    pageUrl: hostPageUrl(row.username),
    starter: row.starterSlug && row.starterTitle ? { title: row.starterTitle, url: bookingPageUrl(row.username, row.starterSlug) } : undefined,
    dashboardUrl: dashboardUrl(),
  };
}

import "server-only";
import { caldavServerHostOf } from "@/lib/calendars/server-host";
import { getConfig } from "@/lib/config";
import { dashboardCalendarsUrl, siteDomain } from "@/lib/links";
import { composeBrokenCalendarMail } from "@/lib/notifications/broken-calendar-mail";
import { sendMail } from "@/lib/notifications/mail-transport";
import { BROKEN_CALENDAR_EMAIL } from "@/lib/outbox/kinds";
import { BrokenCalendarJob } from "@/lib/outbox/payloads";
import { brokenNoticeToSend } from "@/lib/services/calendars/broken-notices";
import type { JobHandler } from "./types";

// The reconnect email to a host whose calendar connection is broken (claimed by the housekeeping
// sweep, lib/services/calendars/broken-notices.ts). A connection fixed, removed or broken anew
// since is done without a word.

export function brokenCalendarEmail(): JobHandler {
  return {
    kind: BROKEN_CALENDAR_EMAIL,
    async run({ db, job }) {
      const notice = BrokenCalendarJob.parse(job.payload);
      const facts = await brokenNoticeToSend(db, notice);
      if (!facts) return { status: "done" };
      await sendMail(
        await composeBrokenCalendarMail({
          host: facts.host,
          connection: facts.connection,
          calendarName: facts.calendarName,
          serverHost: caldavServerHostOf(facts.connection),
          notice: notice.notice,
          reconnectUrl: dashboardCalendarsUrl(),
          from: getConfig().mailFrom,
          messageId: `<${notice.connectionId}.broken.${Date.parse(notice.brokenSince)}.${notice.notice}@${siteDomain()}>`,
        }),
      );
      return { status: "done" };
    },
  };
}

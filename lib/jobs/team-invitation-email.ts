import "server-only";
import { getConfig } from "@/lib/config";
import { siteDomain } from "@/lib/links";
import { composeTeamInvitationMail } from "@/lib/notifications/account-mail";
import { sendMail } from "@/lib/notifications/mail-transport";
import { TEAM_INVITATION_EMAIL } from "@/lib/outbox/kinds";
import { TeamInvitationEmailJob } from "@/lib/outbox/payloads";
import { INVITATION_TTL_DAYS, teamInvitationMailOf } from "@/lib/services/teams";
import type { JobHandler } from "./types";

// A team invitation to an email address, sent from the outbox. One withdrawn, answered or
// expired before the job ran is not sent: its link would not work.
export function teamInvitationEmail(): JobHandler {
  return {
    kind: TEAM_INVITATION_EMAIL,
    maxAttempts: 8,
    async run({ db, job, now }) {
      const payload = TeamInvitationEmailJob.parse(job.payload);
      const mail = await teamInvitationMailOf(db, payload, now);
      if (!mail) return { status: "done" };
      const { mailFrom } = getConfig();
      await sendMail(await composeTeamInvitationMail({ ...mail, days: INVITATION_TTL_DAYS, from: mailFrom, messageId: `<${payload.invitationId}@${siteDomain()}>` }));
      return { status: "done" };
    },
  };
}

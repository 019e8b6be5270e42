import "server-only";
import { getConfig } from "@/lib/config";
import { composeEmailChangeMail } from "@/lib/notifications/account-mail";
import { sendMail } from "@/lib/notifications/mail-transport";
import { emailChangeMailOf } from "@/lib/services/accounts/email-change";
import { EmailChangeEmailJob } from "@/lib/outbox/payloads";
import { EMAIL_CHANGE_EMAIL } from "@/lib/outbox/kinds";
import type { JobHandler } from "./types";
import { siteDomain } from "@/lib/links";

// The confirmation link to a new email address, sent from the outbox; a link that was replaced,
// used or expired before the job ran is not sent.
export function emailChangeEmail(): JobHandler {
  return {
    kind: EMAIL_CHANGE_EMAIL,
    // The link is worth an hour: retrying for a day would deliver dead links.
    maxAttempts: 5,
    async run({ db, job, now }) {
      const payload = EmailChangeEmailJob.parse(job.payload);
      const mail = await emailChangeMailOf(db, payload, now);
      if (!mail) return { status: "done" };
      const { mailFrom } = getConfig();
      await sendMail(await composeEmailChangeMail({ ...mail, from: mailFrom, messageId: `<${payload.changeId}@${siteDomain()}>` }));
      return { status: "done" };
    },
  };
}

import "server-only";
import { getConfig } from "@/lib/config";
import { composeEmailTakenNotice } from "@/lib/notifications/account-mail";
import { sendMail } from "@/lib/notifications/mail-transport";
import { emailTakenMailOf } from "@/lib/services/accounts/email-change";
import { EmailTakenNoticeJob } from "@/lib/outbox/payloads";
import { EMAIL_TAKEN_NOTICE } from "@/lib/outbox/kinds";
import type { JobHandler } from "./types";
import { siteDomain } from "@/lib/links";

// The notice to an address that already has an account, after another account asked to move
// to it (POST /me/email answers the asker the same either way). An account gone since is not
// written to.
export function emailTakenNotice(): JobHandler {
  return {
    kind: EMAIL_TAKEN_NOTICE,
    async run({ db, job }) {
      const payload = EmailTakenNoticeJob.parse(job.payload);
      const mail = await emailTakenMailOf(db, payload);
      if (!mail) return { status: "done" };
      const { mailFrom } = getConfig();
      await sendMail(await composeEmailTakenNotice({ ...mail, from: mailFrom, messageId: `<${payload.attemptId}.taken@${siteDomain()}>` }));
      return { status: "done" };
    },
  };
}

import "server-only";
import { getConfig } from "@/lib/config";
import { composeEmailChangedNotice } from "@/lib/notifications/account-mail";
import { sendMail } from "@/lib/notifications/mail-transport";
import { EmailChangedNoticeJob } from "@/lib/outbox/payloads";
import { EMAIL_CHANGED_NOTICE } from "@/lib/outbox/kinds";
import type { JobHandler } from "./types";
import { forgotPasswordUrl, siteDomain } from "@/lib/links";

// The notice to the old address after an email change was confirmed.
export function emailChangedNotice(): JobHandler {
  return {
    kind: EMAIL_CHANGED_NOTICE,
    async run({ job }) {
      const notice = EmailChangedNoticeJob.parse(job.payload);
      const { mailFrom } = getConfig();
      await sendMail(
        await composeEmailChangedNotice({
          to: { name: notice.fullName, address: notice.oldEmail },
          language: notice.language,
          newEmail: notice.newEmail,
          forgotPasswordUrl: forgotPasswordUrl(),
          from: mailFrom,
          messageId: `<${notice.changeId}.notice@${siteDomain()}>`,
        }),
      );
      return { status: "done" };
    },
  };
}

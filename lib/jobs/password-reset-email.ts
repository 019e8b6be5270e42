import "server-only";
import { getConfig } from "@/lib/config";
import { composePasswordResetMail } from "@/lib/notifications/account-mail";
import { sendMail } from "@/lib/notifications/mail-transport";
import { passwordResetMailOf } from "@/lib/services/accounts/password-reset";
import { PasswordResetEmailJob } from "@/lib/outbox/payloads";
import { PASSWORD_RESET_EMAIL } from "@/lib/outbox/kinds";
import type { JobHandler } from "./types";
import { siteDomain } from "@/lib/links";

// The password reset email, sent from the outbox. A link that was replaced, spent or expired
// before the job ran is not sent: it would not work.
export function passwordResetEmail(): JobHandler {
  return {
    kind: PASSWORD_RESET_EMAIL,
    // A reset link is worth an hour: retrying for a day would deliver dead links.
    maxAttempts: 5,
    async run({ db, job, now }) {
      const payload = PasswordResetEmailJob.parse(job.payload);
      const mail = await passwordResetMailOf(db, payload, now);
      if (!mail) return { status: "done" };
      const { mailFrom } = getConfig();
      await sendMail(await composePasswordResetMail({ ...mail, from: mailFrom, messageId: `<${payload.resetId}@${siteDomain()}>` }));
      return { status: "done" };
    },
  };
}

import "server-only";
import { getConfig } from "@/lib/config";
import { composeWelcomeMail } from "@/lib/notifications/account-mail";
import { sendMail } from "@/lib/notifications/mail-transport";
import { welcomeMailOf } from "@/lib/services/accounts/welcome";
import { WelcomeEmailJob } from "@/lib/outbox/payloads";
import { WELCOME_EMAIL } from "@/lib/outbox/kinds";
import type { JobHandler } from "./types";
import { siteDomain } from "@/lib/links";

// The welcome at sign-up, sent from the outbox; one per account (its Message-ID is the account's).
export function welcomeEmail(): JobHandler {
  return {
    kind: WELCOME_EMAIL,
    async run({ db, job }) {
      const payload = WelcomeEmailJob.parse(job.payload);
      const mail = await welcomeMailOf(db, payload);
      if (!mail) return { status: "done" };
      const { mailFrom } = getConfig();
      await sendMail(await composeWelcomeMail({ ...mail, from: mailFrom, messageId: `<${payload.userId}.welcome@${siteDomain()}>` }));
      return { status: "done" };
    },
  };
}

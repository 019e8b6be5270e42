"use client";

import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { useState } from "react";
import type { ApiForm } from "@/components/ui/use-api-form";
import { register } from "@/lib/browser/api-client/auth";
import { ApiError } from "@/lib/browser/api-client/fetch-json";
import { registerBody, type RegisterContext, type RegisterValues } from "@/lib/forms/auth";

export const CHECK_FIELDS = "Please check the highlighted fields.";
const FIELDS: readonly string[] = ["email", "password", "fullName", "username", "timezone"];

/**
 * Signing up: POST /auth/register, then a next-auth session with the same credentials, then the
 * dashboard (its Teams page when made through a team invitation's link). A taken username or
 * email is said at its field for as long as the field holds it.
 */
export function useRegister(apiForm: ApiForm<RegisterValues, RegisterContext>, context: RegisterContext) {
  const router = useRouter();
  const [general, setGeneral] = useState<string | null>(null);
  // Signed in and on the way to the dashboard: the button stays busy until the page changes.
  const [leaving, setLeaving] = useState(false);

  function refused(error: unknown) {
    if (!(error instanceof ApiError)) return setGeneral("Something went wrong. Please try again.");
    if (error.code === "conflict") {
      if (error.details.field === "username") apiForm.showServerError("username", "This username is taken. Please choose another.", { whileValue: true });
      else apiForm.showServerError("email", "An account with this email already exists. Log in instead, or use another email.", { whileValue: true });
      return;
    }
    const unplaced = apiForm.showServerIssues(error.issues, (path) => (FIELDS.includes(path) ? path : undefined));
    setGeneral(unplaced.length < error.issues.length ? CHECK_FIELDS : error.message);
  }

  const submit = apiForm.onSubmit(
    async (values) => {
      setGeneral(null);
      try {
        await register(registerBody(values, context));
      } catch (error) {
        return refused(error);
      }
      try {
        const result = await signIn("credentials", { email: values.email, password: values.password, redirect: false });
        if (result?.ok) {
          setLeaving(true);
          router.replace(context.invitationToken ? "/dashboard/teams" : "/dashboard");
          router.refresh();
          return;
        }
      } catch {
        // fall through: the account exists, only the session is missing
      }
      setGeneral("Your account is ready, but we could not sign you in. Please log in.");
    },
    () => setGeneral(CHECK_FIELDS),
  );

  return { submit, pending: apiForm.form.formState.isSubmitting || leaving, general };
}

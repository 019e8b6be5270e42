"use client";

import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { useRef, useState, useSyncExternalStore, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { TimezoneSelect } from "@/components/ui/timezone-select";
import { useFocusAfterRender } from "@/components/ui/use-focus-after-render";
import { ApiError, fetchJson } from "@/lib/browser/api-client/fetch-json";
import { localTimeZone } from "@/lib/time/zones";

type FieldName = "email" | "password" | "fullName" | "username" | "timezone";
const FIELDS: FieldName[] = ["email", "password", "fullName", "username", "timezone"];

const subscribeNever = () => () => {};
const CHECK_FIELDS = "Please check the highlighted fields.";

/** "Zoë Müller-Smith" → "zoe-muller-smith": a username suggestion in the API's alphabet. */
export function usernameFrom(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/, "");
}

/**
 * POST /auth/register, then a next-auth session with the same credentials, then the dashboard
 * (its Teams page when made through a team invitation's link, whose address it starts with).
 */
export function RegisterForm({ appUrl, invitation }: { appUrl: string; invitation?: { token: string; email: string } }) {
  const router = useRouter();
  const formRef = useRef<HTMLFormElement>(null);
  const [email, setEmail] = useState(invitation?.email ?? "");
  const [password, setPassword] = useState("");
  const [showPassword, setShowPassword] = useState(false);
  const [fullName, setFullName] = useState("");
  const [typedUsername, setTypedUsername] = useState<string | null>(null);
  // The browser's zone is known only in the browser: the server renders none, then it appears.
  const detectedZone = useSyncExternalStore(subscribeNever, localTimeZone, () => "");
  const [chosenZone, setChosenZone] = useState<string | null>(null);
  // Each problem with the value it was about: it shows while the field still holds that value,
  // however the value changed since (typed, auto-filled, or a username derived from the name).
  const [problems, setProblems] = useState<Partial<Record<FieldName, { message: string; value: string }>>>({});
  const [general, setGeneral] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const focusSoon = useFocusAfterRender();

  const username = typedUsername ?? usernameFrom(fullName);
  const timezone = chosenZone ?? detectedZone;
  const values: Record<FieldName, string> = { email, password, fullName, username, timezone };
  const errors = Object.fromEntries(
    FIELDS.flatMap((f) => (problems[f] && problems[f].value === values[f] ? [[f, problems[f].message]] : [])),
  ) as Partial<Record<FieldName, string>>;

  function showErrors(found: Partial<Record<FieldName, string>>, message: string | null) {
    setProblems(Object.fromEntries(Object.entries(found).map(([f, m]) => [f, { message: m, value: values[f as FieldName] }])));
    setGeneral(message);
    setPending(false);
    focusSoon(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]'));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    setGeneral(null);
    setProblems({});
    try {
      await fetchJson("/auth/register", {
        method: "POST",
        body: { email, password, fullName, username, timezone, ...(invitation ? { invitationToken: invitation.token } : {}) },
      });
    } catch (error) {
      if (!(error instanceof ApiError)) return showErrors({}, "Something went wrong. Please try again.");
      if (error.code === "conflict") {
        const field = error.details.field === "username" ? "username" : "email";
        return showErrors(
          field === "username"
            ? { username: "This username is taken. Please choose another." }
            : { email: "An account with this email already exists. Log in instead, or use another email." },
          null,
        );
      }
      const found: Partial<Record<FieldName, string>> = {};
      for (const f of FIELDS) {
        const message = error.issueAt(f);
        if (message) found[f] = message;
      }
      return showErrors(found, Object.keys(found).length > 0 ? CHECK_FIELDS : error.message);
    }
    try {
      const result = await signIn("credentials", { email, password, redirect: false });
      if (result?.ok) {
        router.replace(invitation ? "/dashboard/teams" : "/dashboard");
        router.refresh();
        return;
      }
    } catch {
      // fall through: the account exists, only the session is missing
    }
    setPending(false);
    setGeneral("Your account is ready, but we could not sign you in. Please log in.");
  }

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-6">
      {/* "Check the highlighted fields" goes with the last of them. */}
      {general && !(general === CHECK_FIELDS && Object.keys(errors).length === 0) && <Alert tone="error">{general}</Alert>}
      <Field label="Full name" required error={errors.fullName}>
        {(p) => (
          <input
            {...p}
            type="text"
            autoComplete="name"
            required
            maxLength={100}
            value={fullName}
            onChange={(e) => setFullName(e.target.value)}
            className={inputClass}
          />
        )}
      </Field>
      <Field label="Email" required error={errors.email}>
        {(p) => (
          <input
            {...p}
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            className={inputClass}
          />
        )}
      </Field>
      <Field label="Password" required error={errors.password} hint="8 to 128 characters.">
        {(p) => (
          <div className="relative">
            <input
              {...p}
              type={showPassword ? "text" : "password"}
              autoComplete="new-password"
              required
              minLength={8}
              maxLength={128}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              className={`${inputClass} pr-20`}
            />
            <button
              type="button"
              aria-pressed={showPassword}
              onClick={() => setShowPassword((s) => !s)}
              className="absolute inset-y-1 right-1 rounded px-3 text-sm font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-600"
            >
              {showPassword ? "Hide" : "Show"}
              <span className="sr-only"> password</span>
            </button>
          </div>
        )}
      </Field>
      <Field
        label="Username"
        required
        error={errors.username}
        hint={
          <>
            3–40 lower-case letters, digits or hyphens, starting and ending with a letter or digit. Your page:{" "}
            <span className="break-all text-slate-700">
              {appUrl}/{username || "your-name"}
            </span>
          </>
        }
      >
        {(p) => (
          <input
            {...p}
            type="text"
            autoComplete="username"
            autoCapitalize="off"
            spellCheck={false}
            required
            maxLength={40}
            value={username}
            onChange={(e) => setTypedUsername(e.target.value.toLowerCase())}
            className={inputClass}
          />
        )}
      </Field>
      <Field label="Timezone" required error={errors.timezone} hint="Your working hours are in this timezone. We guessed it from your browser.">
        {(p) => (
          <TimezoneSelect
            {...p}
            value={timezone}
            onChange={setChosenZone}
          />
        )}
      </Field>
      <Button type="submit" disabled={pending}>
        {pending ? "Creating your account…" : "Create account"}
      </Button>
    </form>
  );
}

"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { useWatch } from "react-hook-form";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import { FormField, TextAreaField, TextField } from "@/components/ui/form-field";
import { TimezoneSelect } from "@/components/ui/timezone-select";
import { useApiForm } from "@/components/ui/use-api-form";
import { ApiError } from "@/lib/browser/api-client/fetch-json";
import { LANGUAGE_NAMES, LOCALES } from "@/lib/i18n/locales";
import { availabilityKeys } from "@/lib/browser/api-client/availability";
import { accountKeys, updateProfile, type ProfileDto } from "@/lib/browser/api-client/account";
import { BIO_MAX } from "@/lib/schemas/common";
import { PROFILE_FIELDS, profileBody, profileRules, profileValues, type ProfileContext, type ProfileValues } from "@/lib/forms/account";
import { notSavedSentence } from "@/lib/forms/field-errors";
import { EmailForm } from "./email-form";
import { PasswordForm } from "./password-form";

/** An http(s) address worth trying as an image; the API has the last word. */
function previewable(url: string): boolean {
  if (!/^https?:\/\/\S+$/i.test(url)) return false;
  try {
    return Boolean(new URL(url).hostname);
  } catch {
    return false;
  }
}

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return ((parts[0]?.[0] ?? "") + (parts.length > 1 ? (parts.at(-1)?.[0] ?? "") : "")).toUpperCase() || "?";
}

/** Name, username, avatar, bio, timezone and the language of the host's emails (PATCH /me); the email and the public page shown as they are. */
/** How the account signs in: whether it has a password, and whether this server takes passwords (PASSWORD_LOGIN). */
export type PasswordState = { hasPassword: boolean; passwordLogin: boolean };

export function ProfileForm({ profile, appUrl, passwords }: { profile: ProfileDto; appUrl: string; passwords: PasswordState }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [currentUsername, setCurrentUsername] = useState(profile.username);
  const { form, formRef, problems, onSubmit, showServerIssues, showServerError } = useApiForm<ProfileValues, ProfileContext>({
    rules: profileRules,
    defaultValues: profileValues(profile),
    context: { currentUsername },
  });
  const { control } = form;
  const [fullName, username, avatarUrl, bio] = useWatch({ control, name: ["fullName", "username", "avatarUrl", "bio"] });
  const [brokenImage, setBrokenImage] = useState<string | null>(null);
  // Above the form after a failed save: how many fields need a change, or what went wrong otherwise.
  const [failed, setFailed] = useState<{ message?: string } | null>(null);
  const [saved, setSaved] = useState(false);
  const save = useMutation({ mutationFn: updateProfile });
  const publicUrl = `${appUrl}/${currentUsername}`;
  const renaming = username.trim() !== currentUsername;
  const avatar = avatarUrl.trim();
  const showPreview = previewable(avatar) && brokenImage !== avatar;
  useEffect(() => form.subscribe({ formState: { values: true }, callback: () => setSaved(false) }), [form]);

  const submit = onSubmit(
    async (values) => {
      setFailed(null);
      try {
        const stored = await save.mutateAsync(profileBody(values, { currentUsername }));
        queryClient.setQueryData(accountKeys.me, stored);
        // The availability page shows the same timezone; the shell shows the name.
        void queryClient.invalidateQueries({ queryKey: availabilityKeys.default, exact: true });
        router.refresh();
        setCurrentUsername(stored.username);
        form.reset(profileValues(stored));
        setSaved(true);
      } catch (error) {
        if (!(error instanceof ApiError)) return setFailed({ message: "Something went wrong. Please try again." });
        if (error.status === 401) return; // the dashboard is taking the person to /login
        if (error.code === "conflict") {
          showServerError("username", "This username is taken. Please choose another.");
          return setFailed({});
        }
        const unplaced = showServerIssues(error.issues, (path) => (PROFILE_FIELDS.includes(path) ? path : undefined));
        setFailed(unplaced.length === error.issues.length ? { message: error.message } : {});
      }
    },
    () => {
      setSaved(false);
      setFailed({});
    },
  );

  const stillWrong = Object.keys(problems).length;
  const general = failed && (failed.message ?? (stillWrong > 0 ? notSavedSentence("Your profile was not saved", stillWrong) : null));

  return (
    <div className="flex max-w-2xl flex-col gap-6">
      <form ref={formRef} onSubmit={submit} noValidate className="flex flex-col gap-5 rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
        <h2 className="text-lg font-semibold">Profile</h2>
        {general && <Alert tone="error">{general}</Alert>}
        <TextField
          control={control}
          name="fullName"
          label="Full name"
          required
          hint="Guests see it on your booking pages and in their emails."
          type="text"
          autoComplete="name"
          maxLength={100}
        />
        <TextField
          control={control}
          name="username"
          label="Username"
          required
          hint={`Your public page is ${appUrl}/${username.trim() || "…"}. 3–40 lower-case letters, digits or hyphens.`}
          type="text"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={40}
        />
        {renaming && (
          <Alert tone="warning">
            Changing your username moves your public pages. Links with {currentUsername} (shared, bookmarked, embedded) will stop working.
          </Alert>
        )}
        <div className="flex items-start gap-4">
          <div className="flex-1">
            <TextField
              control={control}
              name="avatarUrl"
              label="Avatar URL"
              hint="An https:// address of a square image. Leave it empty for your initials."
              type="url"
              inputMode="url"
              placeholder="https://…"
            />
            {brokenImage !== null && brokenImage === avatar && (
              <p className="mt-1 text-sm text-amber-800">This address does not load as an image, so guests would see your initials.</p>
            )}
          </div>
          <div className="mt-6 flex size-16 shrink-0 items-center justify-center overflow-hidden rounded-full bg-slate-200 text-lg font-semibold text-slate-600">
            {showPreview ? (
              // Any host's image address: next/image would need every host listed in the config.
              // eslint-disable-next-line @next/next/no-img-element
              <img src={avatar} alt="Avatar preview" className="size-full object-cover" onError={() => setBrokenImage(avatar)} />
            ) : (
              <span aria-hidden="true">{initials(fullName)}</span>
            )}
          </div>
        </div>
        <TextAreaField
          control={control}
          name="bio"
          label="Bio"
          hint={`A few words guests read on your public page, under your name. ${bio.trim().length} of ${BIO_MAX} characters.`}
          rows={3}
        />
        <FormField control={control} name="timezone" label="Timezone" hint="Your weekly hours are in this timezone, and so are the times in your emails.">
          {(p, field) => <TimezoneSelect {...p} name={field.name} value={field.value} onChange={field.onChange} />}
        </FormField>
        <FormField control={control} name="language" label="Language of your emails" hint="Booking notices, reminders and account emails to you are written in it. Guests get theirs in their own language.">
          {(p, field) => (
            <select
              {...p}
              name={field.name}
              value={field.value}
              onChange={(e) => field.onChange(e.target.value)}
              className={inputClass}
            >
              {LOCALES.map((locale) => (
                <option key={locale} value={locale} lang={locale}>
                  {LANGUAGE_NAMES[locale]}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? "Saving…" : "Save profile"}
          </Button>
          <p role="status" className="text-sm font-medium text-green-800">
            {saved ? "Saved" : ""}
          </p>
        </div>
      </form>

      <section aria-labelledby="account-heading" className="rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
        <h2 id="account-heading" className="text-lg font-semibold">
          Account
        </h2>
        <dl className="mt-3 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[10rem_1fr]">
          <dt className="font-medium text-slate-800">Email</dt>
          <dd className="break-all text-slate-700">{profile.email}</dd>
          <dt className="font-medium text-slate-800">Your public page</dt>
          <dd className="break-all">
            <a href={publicUrl} target="_blank" rel="noreferrer" className="text-blue-700 underline underline-offset-2 hover:no-underline">
              {publicUrl}
              <span className="sr-only"> (opens in a new tab)</span>
            </a>
          </dd>
        </dl>
      </section>

      {/* A change of address is confirmed with the password: without one there is nothing to ask. */}
      {passwords.hasPassword && <EmailForm email={profile.email} />}
      {passwords.passwordLogin && (passwords.hasPassword ? <PasswordForm email={profile.email} /> : <NoPasswordYet />)}
    </div>
  );
}

/** A host who came through company sign-in: a first password comes by the emailed reset link, which proves the inbox. */
function NoPasswordYet() {
  return (
    <section aria-labelledby="password-heading" className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
      <h2 id="password-heading" className="text-lg font-semibold">
        Password
      </h2>
      <p className="text-sm text-slate-700">
        Your account has no password: you sign in with your company account. To add one, log out and choose “Forgot your password?” on the login page; we
        email you a link to set it. With a password you can also change your email here.
      </p>
    </section>
  );
}

"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useRef, useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { TimezoneSelect } from "@/components/ui/timezone-select";
import { useFieldErrors } from "@/components/ui/use-field-errors";
import { ApiError } from "@/lib/browser/api-client/fetch-json";
import { hostKeys, updateProfile, type ProfileDto } from "@/lib/browser/api-client/host";
import { EmailForm } from "./email-form";
import { PasswordForm } from "./password-form";

type FieldName = "fullName" | "username" | "avatarUrl" | "timezone";

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

/** Name, username, avatar and timezone (PATCH /me); the email and the public page shown as they are. */
export function ProfileForm({ profile, appUrl }: { profile: ProfileDto; appUrl: string }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [fullName, setFullName] = useState(profile.fullName);
  const [username, setUsername] = useState(profile.username);
  const [currentUsername, setCurrentUsername] = useState(profile.username);
  const [avatarUrl, setAvatarUrl] = useState(profile.avatarUrl ?? "");
  const [timezone, setTimezone] = useState(profile.timezone);
  const [brokenImage, setBrokenImage] = useState<string | null>(null);
  const [general, setGeneral] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const save = useMutation({ mutationFn: updateProfile });
  const formRef = useRef<HTMLFormElement>(null);
  // Only the API checks these fields: a problem goes when its field is edited.
  const problems = useFieldErrors<FieldName>(formRef);
  const errors = problems.errors;
  const publicUrl = `${appUrl}/${currentUsername}`;
  const renaming = username.trim() !== currentUsername;
  const avatar = avatarUrl.trim();
  const showPreview = previewable(avatar) && brokenImage !== avatar;

  function edited(field: FieldName) {
    setSaved(false);
    problems.edited({}, [field]);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    setGeneral(null);
    problems.clear();
    try {
      // The username is sent only when it changed: saving the rest must not depend on it.
      const stored = await save.mutateAsync({
        fullName,
        timezone,
        avatarUrl: avatar === "" ? null : avatar,
        ...(renaming ? { username: username.trim() } : {}),
      });
      queryClient.setQueryData(hostKeys.me, stored);
      // The availability page shows the same timezone; the shell shows the name.
      void queryClient.invalidateQueries({ queryKey: hostKeys.availability, exact: true });
      router.refresh();
      setFullName(stored.fullName);
      setUsername(stored.username);
      setCurrentUsername(stored.username);
      setAvatarUrl(stored.avatarUrl ?? "");
      setTimezone(stored.timezone);
      setSaved(true);
    } catch (error) {
      if (!(error instanceof ApiError)) return setGeneral("Something went wrong. Please try again.");
      if (error.status === 401) return; // the dashboard is taking the person to /login
      if (error.code === "conflict") {
        problems.show({}, { username: "This username is taken. Please choose another." });
        return setGeneral("Your profile was not saved: one field needs a change.");
      }
      const atFields: Partial<Record<FieldName, string>> = {};
      for (const f of ["fullName", "username", "avatarUrl", "timezone"] as const) {
        const message = error.issueAt(f);
        if (message) atFields[f] = message;
      }
      problems.show({}, atFields);
      const placed = Object.keys(atFields).length;
      setGeneral(placed > 0 ? `Your profile was not saved: ${placed === 1 ? "one field needs" : `${placed} fields need`} a change.` : error.message);
    }
  }

  return (
    <div className="flex max-w-2xl flex-col gap-6">
      <form ref={formRef} onSubmit={submit} noValidate className="flex flex-col gap-5 rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
        <h2 className="text-lg font-semibold">Profile</h2>
        {general && <Alert tone="error">{general}</Alert>}
        <Field label="Full name" required error={errors.fullName} hint="Guests see it on your booking pages and in their emails.">
          {(p) => (
            <input
              {...p}
              type="text"
              autoComplete="name"
              required
              maxLength={100}
              value={fullName}
              onChange={(e) => {
                setFullName(e.target.value);
                edited("fullName");
              }}
              className={inputClass}
            />
          )}
        </Field>
        <Field
          label="Username"
          required
          error={errors.username}
          hint={`Your public page is ${appUrl}/${username.trim() || "…"}. 3–40 lower-case letters, digits or hyphens.`}
        >
          {(p) => (
            <input
              {...p}
              type="text"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              required
              maxLength={40}
              value={username}
              onChange={(e) => {
                setUsername(e.target.value);
                edited("username");
              }}
              className={inputClass}
            />
          )}
        </Field>
        {renaming && (
          <Alert tone="warning">
            Changing your username moves your public pages. Links with {currentUsername} (shared, bookmarked, embedded) will stop working.
          </Alert>
        )}
        <div className="flex items-start gap-4">
          <div className="flex-1">
            <Field label="Avatar URL" error={errors.avatarUrl} hint="An https:// address of a square image. Leave it empty for your initials.">
              {(p) => (
                <input
                  {...p}
                  type="url"
                  inputMode="url"
                  placeholder="https://…"
                  value={avatarUrl}
                  onChange={(e) => {
                    setAvatarUrl(e.target.value);
                    edited("avatarUrl");
                  }}
                  className={inputClass}
                />
              )}
            </Field>
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
        <Field label="Timezone" error={errors.timezone} hint="Your weekly hours are in this timezone, and so are the times in your emails.">
          {(p) => (
            <TimezoneSelect
              {...p}
              value={timezone}
              onChange={(z) => {
                setTimezone(z);
                edited("timezone");
              }}
            />
          )}
        </Field>
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

      <EmailForm email={profile.email} />
      <PasswordForm email={profile.email} />
    </div>
  );
}

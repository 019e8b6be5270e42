"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useWatch } from "react-hook-form";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClass } from "@/components/ui/button";
import { TextField } from "@/components/ui/form-field";
import { CalendarIcon, ChevronRightIcon } from "@/components/ui/icons";
import { useApiForm } from "@/components/ui/use-api-form";
import { useFocusAfterRender } from "@/components/ui/use-focus-after-render";
import { ApiError } from "@/lib/browser/api-client/fetch-json";
import { calendarKeys, connectCalDav, oauthAuthorizeUrl, type CalendarConnectionDto, type ConnectCalDavInput } from "@/lib/browser/api-client/calendars";
import type { FormRules } from "@/lib/forms/resolver";
import { ConnectCalDavBody } from "@/lib/schemas/calendar";

export const APPLE_FORM_ID = "connect-apple-icloud";

/** Apple iCloud (the service's own CalDAV server, no address to type) or any other CalDAV server by its URL. */
type Server = "icloud" | "other";
type AppleValues = { server: Server; serverUrl: string; providerAccountId: string; appSpecificPassword: string };
const FIELDS: readonly string[] = ["serverUrl", "providerAccountId", "appSpecificPassword"];
/** Checked as the API checks it (POST /me/calendar-connections/provider_c); the server says whether the password works. */
const toBody = (v: AppleValues): ConnectCalDavInput => ({
  providerAccountId: v.providerAccountId.trim(),
  appSpecificPassword: v.appSpecificPassword,
  ...(v.server === "other" ? { serverUrl: v.serverUrl.trim() } : {}),
});
const appleRules: FormRules<AppleValues> = { schema: ConnectCalDavBody, toBody };

/** The 503 of provider_c names the API's value: the host reads the server instead. */
function generalMessage(error: ApiError, server: Server): string {
  if (error.code === "provider_unavailable") {
    return `${server === "icloud" ? "Apple iCloud" : "The CalDAV server"} could not be reached just now, so nothing was connected. Please try again in a moment.`;
  }
  return error.message;
}

/**
 * Apple iCloud: an Apple ID and an app-specific password, checked with iCloud before anything is
 * stored. The Apple ID lives with the page (`appleId`): it outlasts the form's closing, and
 * "Reconnect" on a card fills it in.
 */
function AppleForm({ appleId, onAppleIdChange }: { appleId: string; onAppleIdChange: (value: string) => void }) {
  const queryClient = useQueryClient();
  const { form, formRef, onSubmit, showServerIssues } = useApiForm<AppleValues>({
    rules: appleRules,
    defaultValues: { server: "icloud", serverUrl: "", providerAccountId: appleId, appSpecificPassword: "" },
  });
  const { control, getValues, setValue, register } = form;
  const [server, serverUrl, providerAccountId, password] = useWatch({ control, name: ["server", "serverUrl", "providerAccountId", "appSpecificPassword"] });
  const icloud = server === "icloud";
  const [general, setGeneral] = useState<string | null>(null);
  const [connected, setConnected] = useState<CalendarConnectionDto | null>(null);
  const connect = useMutation<CalendarConnectionDto, ApiError, ConnectCalDavInput>({
    mutationFn: connectCalDav,
    // The list shows the new card before the form says it is done.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: calendarKeys.all }),
  });
  useEffect(() => form.subscribe({ formState: { values: true }, callback: () => setConnected(null) }), [form]);
  // "Reconnect" on a card while the form is open: the Apple ID it names.
  useEffect(() => {
    if (getValues("providerAccountId") !== appleId) setValue("providerAccountId", appleId);
  }, [appleId, getValues, setValue]);

  const submit = onSubmit(
    async (values) => {
      setGeneral(null);
      setConnected(null);
      try {
        const saved = await connect.mutateAsync(toBody(values));
        form.resetField("appSpecificPassword", { defaultValue: "" });
        setConnected(saved);
      } catch (error) {
        if (!(error instanceof ApiError)) return setGeneral("Something went wrong on this page. Please try again.");
        if (error.status === 401) return; // the dashboard is taking the person to /login
        const unplaced = showServerIssues(error.issues, (path) => (FIELDS.includes(path) ? path : undefined));
        if (unplaced.length === error.issues.length) setGeneral(generalMessage(error, values.server));
      }
    },
    () => {
      setGeneral(null);
      setConnected(null);
    },
  );

  return (
    <form
      ref={formRef}
      id={APPLE_FORM_ID}
      onSubmit={submit}
      noValidate
      aria-labelledby={`${APPLE_FORM_ID}-heading`}
      className="flex flex-col gap-4 border-t border-slate-200 pt-4"
    >
      <h3 id={`${APPLE_FORM_ID}-heading`} className="font-semibold">
        Apple iCloud or another CalDAV server
      </h3>
      <div className="flex max-w-lg flex-col gap-4">
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-medium">Server</legend>
          <div className="flex flex-col gap-2 text-sm sm:flex-row sm:gap-6">
            <label className="flex cursor-pointer items-center gap-2">
              <input type="radio" value="icloud" className="size-4 accent-blue-600" {...register("server")} />
              Apple iCloud
            </label>
            <label className="flex cursor-pointer items-center gap-2">
              <input type="radio" value="other" className="size-4 accent-blue-600" {...register("server")} />
              Other CalDAV server (Nextcloud, Fastmail…)
            </label>
          </div>
        </fieldset>
        {!icloud && (
          <TextField
            control={control}
            name="serverUrl"
            label="Server URL"
            required
            hint="The CalDAV address your provider gives, starting with https://, e.g. https://cloud.example.com/remote.php/dav for Nextcloud."
            type="url"
            inputMode="url"
            autoComplete="url"
            maxLength={2048}
          />
        )}
        <TextField
          control={control}
          name="providerAccountId"
          label={icloud ? "Apple ID" : "User name"}
          required
          hint={icloud ? "The email address you sign in to iCloud with." : "The name or email address you sign in to that server with."}
          type={icloud ? "email" : "text"}
          inputMode={icloud ? "email" : "text"}
          autoComplete="username"
          maxLength={320}
          onText={onAppleIdChange}
        />
        <TextField
          control={control}
          name="appSpecificPassword"
          label={icloud ? "App-specific password" : "Password"}
          required
          hint={
            icloud ? (
              <>
                Not your Apple ID password: make one at{" "}
                <a href="https://appleid.apple.com" target="_blank" rel="noreferrer" className="text-blue-700 underline">
                  appleid.apple.com<span className="sr-only"> (opens in a new tab)</span>
                </a>{" "}
                under Sign-In and Security → App-Specific Passwords.
              </>
            ) : (
              "Where the server offers app passwords (Nextcloud, Fastmail), use one made for this service."
            )
          }
          type="password"
          autoComplete="off"
          maxLength={256}
        />
        {/* Stays in the page while empty (a hidden live region may not announce); takes no room then. */}
        <div aria-live="polite" className="empty:-mt-4">
          {general && <Alert tone="error">{general}</Alert>}
          {connected && (
            <Alert tone="success">
              {connected.serverHost ? <span className="break-all">{connected.serverHost}</span> : "Apple iCloud"} connected for{" "}
              <span className="break-all">{connected.email}</span>. Its calendars are listed below.
            </Alert>
          )}
        </div>
      </div>
      <Button type="submit" disabled={connect.isPending || !providerAccountId.trim() || !password || (!icloud && !serverUrl.trim())} className="self-start">
        {connect.isPending ? "Connecting…" : "Connect"}
      </Button>
    </form>
  );
}

/**
 * The three ways in: Google and Microsoft by their consent screen (a plain navigation to the
 * authorize path, which answers with a redirect), Apple iCloud or any CalDAV server with a password.
 */
export function ConnectCalendar({
  appleOpen,
  onAppleOpenChange,
  appleId,
  onAppleIdChange,
}: {
  appleOpen: boolean;
  onAppleOpenChange: (open: boolean) => void;
  appleId: string;
  onAppleIdChange: (value: string) => void;
}) {
  const focusSoon = useFocusAfterRender();
  return (
    <section aria-labelledby="connect-heading" className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4 sm:p-5">
      <div className="flex flex-col gap-1">
        <h2 id="connect-heading" className="text-lg font-semibold">
          Connect a calendar
        </h2>
        <p className="text-sm text-slate-600">Google and Microsoft ask you to sign in and allow access, then bring you back here.</p>
      </div>
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        <a href={oauthAuthorizeUrl("provider_a")} className={buttonClass("secondary")}>
          <CalendarIcon className="size-5 text-blue-600" />
          Connect Google Calendar
        </a>
        <a href={oauthAuthorizeUrl("provider_b")} className={buttonClass("secondary")}>
          <CalendarIcon className="size-5 text-sky-700" />
          Connect Microsoft Outlook
        </a>
        <Button
          variant="secondary"
          aria-expanded={appleOpen}
          aria-controls={appleOpen ? APPLE_FORM_ID : undefined}
          onClick={() => {
            onAppleOpenChange(!appleOpen);
            if (!appleOpen) focusSoon(() => document.querySelector<HTMLElement>(`#${APPLE_FORM_ID} input[name="providerAccountId"]`));
          }}
        >
          <CalendarIcon className="size-5 text-slate-700" />
          Connect Apple iCloud or CalDAV
          <ChevronRightIcon className={`size-4 text-slate-500 transition-transform ${appleOpen ? "rotate-90" : ""}`} />
        </Button>
      </div>
      {appleOpen && <AppleForm appleId={appleId} onAppleIdChange={onAppleIdChange} />}
    </section>
  );
}

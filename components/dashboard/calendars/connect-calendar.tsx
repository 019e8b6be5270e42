"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClass } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { CalendarIcon, ChevronRightIcon } from "@/components/ui/icons";
import { useFocusAfterRender } from "@/components/ui/use-focus-after-render";
import { ApiError } from "@/lib/browser/api-client/fetch-json";
import { calendarKeys, connectCalDav, oauthAuthorizeUrl, type CalendarConnectionDto, type ConnectCalDavInput } from "@/lib/browser/api-client/host";

export const APPLE_FORM_ID = "connect-apple-icloud";

type Fields = "providerAccountId" | "appSpecificPassword";

/** The 503 of provider_c names the API's value: the host reads the brand instead. */
function generalMessage(error: ApiError): string {
  if (error.code === "provider_unavailable") return "Apple iCloud could not be reached just now, so nothing was connected. Please try again in a moment.";
  return error.message;
}

/** Apple iCloud: an Apple ID and an app-specific password, checked with iCloud before anything is stored. */
function AppleForm({ appleId, onAppleIdChange }: { appleId: string; onAppleIdChange: (value: string) => void }) {
  const queryClient = useQueryClient();
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<Partial<Record<Fields, string>>>({});
  const [general, setGeneral] = useState<string | null>(null);
  const [connected, setConnected] = useState<CalendarConnectionDto | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const focusSoon = useFocusAfterRender();
  const connect = useMutation<CalendarConnectionDto, ApiError, ConnectCalDavInput>({
    mutationFn: connectCalDav,
    // The list shows the new card before the form says it is done.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: calendarKeys.all }),
  });

  function edited(field: Fields) {
    setConnected(null);
    setErrors((e) => {
      const next = { ...e };
      delete next[field];
      return next;
    });
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setErrors({});
    setGeneral(null);
    setConnected(null);
    try {
      const saved = await connect.mutateAsync({ providerAccountId: appleId.trim(), appSpecificPassword: password });
      setPassword("");
      setConnected(saved);
    } catch (error) {
      if (!(error instanceof ApiError)) return setGeneral("Something went wrong on this page. Please try again.");
      if (error.status === 401) return; // the dashboard is taking the person to /login
      const atFields: Partial<Record<Fields, string>> = {};
      for (const f of ["providerAccountId", "appSpecificPassword"] as const) {
        const message = error.issueAt(f);
        if (message) atFields[f] = message;
      }
      setErrors(atFields);
      if (Object.keys(atFields).length > 0) focusSoon(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]'));
      else setGeneral(generalMessage(error));
    }
  }

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
        Apple iCloud
      </h3>
      <div className="flex max-w-lg flex-col gap-4">
        <Field label="Apple ID" required error={errors.providerAccountId} hint="The email address you sign in to iCloud with.">
          {(p) => (
            <input
              {...p}
              type="email"
              inputMode="email"
              autoComplete="username"
              required
              maxLength={320}
              value={appleId}
              onChange={(e) => {
                onAppleIdChange(e.target.value);
                edited("providerAccountId");
              }}
              className={inputClass}
            />
          )}
        </Field>
        <Field
          label="App-specific password"
          required
          error={errors.appSpecificPassword}
          hint={
            <>
              Not your Apple ID password: make one at{" "}
              <a href="https://appleid.apple.com" target="_blank" rel="noreferrer" className="text-blue-700 underline">
                appleid.apple.com<span className="sr-only"> (opens in a new tab)</span>
              </a>{" "}
              under Sign-In and Security → App-Specific Passwords.
            </>
          }
        >
          {(p) => (
            <input
              {...p}
              type="password"
              autoComplete="off"
              required
              maxLength={256}
              value={password}
              onChange={(e) => {
                setPassword(e.target.value);
                edited("appSpecificPassword");
              }}
              className={inputClass}
            />
          )}
        </Field>
        {/* Stays in the page while empty (a hidden live region may not announce); takes no room then. */}
        <div aria-live="polite" className="empty:-mt-4">
          {general && <Alert tone="error">{general}</Alert>}
          {connected && (
            <Alert tone="success">
              Apple iCloud connected for <span className="break-all">{connected.email}</span>. Its calendars are listed below.
            </Alert>
          )}
        </div>
      </div>
      <Button type="submit" disabled={connect.isPending || !appleId.trim() || !password} className="self-start">
        {connect.isPending ? "Connecting…" : "Connect"}
      </Button>
    </form>
  );
}

/**
 * The three ways in: Google and Microsoft by their consent screen (a plain navigation to the
 * authorize path, which answers with a redirect), Apple iCloud with an app-specific password.
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
            if (!appleOpen) focusSoon(() => document.querySelector<HTMLElement>(`#${APPLE_FORM_ID} input`));
          }}
        >
          <CalendarIcon className="size-5 text-slate-700" />
          Connect Apple iCloud
          <ChevronRightIcon className={`size-4 text-slate-500 transition-transform ${appleOpen ? "rotate-90" : ""}`} />
        </Button>
      </div>
      {appleOpen && <AppleForm appleId={appleId} onAppleIdChange={onAppleIdChange} />}
    </section>
  );
}

"use client";

import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useId, useRef, useState } from "react";
import { buttonClass } from "@/components/ui/button";
import { toApiError, type ApiError } from "@/lib/browser/api-client/fetch-json";
import { cancelBookingWithToken, type GuestCancelledDto } from "@/lib/browser/api-client/public";
import { fill } from "@/lib/i18n/fill";
import { useGuestText } from "./guest-i18n";
import { manageFailureMessage } from "./guest-messages";

const MAX_REASON = 500;

type Props = {
  token: string;
  /** Where "book another time" leads (the host's page, or the team's) and whose page it is. */
  homePath: string;
  homeName: string;
  hostName: string;
  /** A series' occurrence: how many later ones are still to come (the guest may cancel them with it). */
  laterSessions?: number;
  /**
   * A paid booking's money, in the guest's words, for this session and with every later one:
   * what the cancel gives back, said before the click (`before`) and once it is done (`after`).
   */
  payment?: Record<"this" | "following", { before: string; after: string | null }>;
};

/**
 * Cancelling takes two deliberate clicks, never just opening the link: "Cancel booking…" (with an
 * optional reason for the host), then "Yes, cancel". Afterwards, the host's page to book again.
 */
export function CancelBookingForm({ token, homePath, homeName, hostName, laterSessions = 0, payment }: Props) {
  const text = useGuestText();
  const { m } = text;
  const [reason, setReason] = useState("");
  const [confirming, setConfirming] = useState(false);
  const [scope, setScope] = useState<"this" | "following">("this");
  const reasonId = useId();
  const money = payment?.[scope];
  const question = useRef<HTMLHeadingElement>(null);
  const done = useRef<HTMLParagraphElement>(null);
  const cancel = useMutation<GuestCancelledDto, ApiError>({
    mutationFn: async () => {
      try {
        return await cancelBookingWithToken(token, reason.trim() || undefined, scope);
      } catch (error) {
        throw toApiError(error);
      }
    },
  });
  // The button that had the focus is gone each time: the focus goes to what replaced it.
  useEffect(() => {
    if (confirming) question.current?.focus();
  }, [confirming]);
  useEffect(() => {
    if (cancel.isSuccess) done.current?.focus();
  }, [cancel.isSuccess]);

  const focusable = "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600";
  return (
    <div className="flex flex-col gap-4">
      {/* Both regions are in the page before anything is put into them, so both are announced. */}
      {/* While empty they take no room (their gap is taken back). */}
      <div role="status" aria-live="polite" className="empty:-mb-4">
        {cancel.isSuccess && (
          <div className="flex flex-col items-start gap-3 rounded-lg border border-green-200 bg-green-50 p-4 text-green-900">
            <p ref={done} tabIndex={-1} className={focusable}>
              {fill(m.cancelledDone, { host: hostName })}
              {money?.after && (
                <span data-testid="refund-after" className="mt-1 block font-medium">
                  {money.after}
                </span>
              )}
            </p>
            <Link href={homePath} className={buttonClass("primary")}>
              {fill(m.bookAnother, { host: homeName })}
            </Link>
          </div>
        )}
      </div>
      <div role="alert" className="empty:-mb-4">
        {cancel.isError && <p className="rounded-lg border border-red-200 bg-red-50 p-4 text-red-900">{manageFailureMessage(cancel.error, text)}</p>}
      </div>
      {!cancel.isSuccess && !confirming && (
        <form
          className="flex flex-col gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            setConfirming(true);
          }}
        >
          {/* A series: this session only, or with every later one (decisions §19). */}
          {laterSessions > 0 && (
            <fieldset className="flex flex-col gap-2">
              <legend className="mb-1 font-medium">{m.sessions}</legend>
              {(["this", "following"] as const).map((value) => (
                <label key={value} className="flex items-center gap-2">
                  <input type="radio" name="scope" value={value} checked={scope === value} onChange={() => setScope(value)} className="size-4 accent-blue-600" />
                  {value === "this" ? m.cancelOnlyThis : m.cancelFollowing}
                </label>
              ))}
            </fieldset>
          )}
          {money && (
            <p data-testid="refund-before" className="rounded-lg border border-slate-200 bg-white p-3 font-medium text-slate-800">
              {money.before}
            </p>
          )}
          <label htmlFor={reasonId} className="font-medium">
            {m.reason} <span className="font-normal text-slate-500">{fill(m.reasonNote, { host: hostName })}</span>
          </label>
          <textarea
            id={reasonId}
            name="reason"
            rows={3}
            maxLength={MAX_REASON}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            className="w-full rounded-md border border-slate-300 px-3 py-2 focus-visible:border-blue-600 focus-visible:outline-2 focus-visible:outline-blue-600"
          />
          <p className="text-sm text-slate-500">
            {reason.length}/{MAX_REASON}
          </p>
          <button type="submit" className={`${buttonClass("danger")} self-start`}>
            {m.cancelSubmit}
          </button>
        </form>
      )}
      {!cancel.isSuccess && confirming && (
        <section aria-labelledby={`${reasonId}-q`} className="flex flex-col gap-3 rounded-lg border border-red-200 bg-red-50 p-4">
          <h2 id={`${reasonId}-q`} ref={question} tabIndex={-1} className={`text-lg font-semibold text-red-950 ${focusable}`}>
            {m.cancelQuestion}
          </h2>
          <p className="text-red-950">{fill(reason.trim() ? m.cancelConsequenceReason : m.cancelConsequence, { host: hostName })}</p>
          {money && <p className="font-medium text-red-950">{money.before}</p>}
          <div className="flex flex-wrap gap-3">
            <button type="button" onClick={() => cancel.mutate()} disabled={cancel.isPending} className={buttonClass("danger")}>
              {cancel.isPending ? m.cancelling : m.yesCancel}
            </button>
            <button type="button" onClick={() => setConfirming(false)} disabled={cancel.isPending} className={buttonClass("secondary")}>
              {m.keepIt}
            </button>
          </div>
        </section>
      )}
    </div>
  );
}

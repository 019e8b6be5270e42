"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { parsePhoneNumberFromString } from "libphonenumber-js/min";
import { useEffect, useRef, useState } from "react";
import { AnswerValue } from "@/components/booking/answer-value";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field, inputClass } from "@/components/ui/field";
import { meQuery } from "@/lib/browser/api-client/account";
import type { ApiError } from "@/lib/browser/api-client/fetch-json";
import { bookingKeys, cancelBooking, type BookingDto, type CancelScope } from "@/lib/browser/api-client/bookings";
import { eventTypesQuery, type EventTypeDto } from "@/lib/browser/api-client/event-types";
import { seriesWords } from "@/lib/dashboard/booking-groups";
import { bookingPaymentWords, moneyLocaleOf } from "@/lib/dashboard/payment-words";
import type { BookingView as View } from "@/lib/dashboard/booking-views";
import { bookingWhen, momentWhen, zoneWords } from "@/lib/dashboard/when";
import { readableAnswer } from "@/lib/question-answers";
import { BookingHistory } from "./booking-history";
import { NoShowToggle } from "./no-show-toggle";
import { RequestActions } from "./request-actions";
import { RescheduleBooking } from "./reschedule-booking";

// Formatting needs only the small metadata (the server checked the number with the full one).
const formatPhone = (e164: string) => parsePhoneNumberFromString(e164)?.formatInternational() ?? e164;

/** A question no longer on the event type is named from its id ("what-to-prepare": "What to prepare"). */
const labelOfId = (id: string) => {
  const words = id.replace(/[-_]+/g, " ").trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : "Answer";
};

/** How much of a series a cancel takes, in the host's words. */
const SCOPES: { value: CancelScope; label: string }[] = [
  { value: "this", label: "Only this session" },
  { value: "following", label: "This and following sessions" },
];

/** Cancel one booking (a seat: one guest's); a series occurrence asks how much of the series. */
export function CancelBooking({ booking, label = "Cancel booking" }: { booking: BookingDto; label?: string }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [scope, setScope] = useState<CancelScope>("this");
  const inSeries = Boolean(booking.series && booking.series.occurrences.length > 1);
  const cancel = useMutation<BookingDto, ApiError>({
    mutationFn: () => cancelBooking(booking.id, reason.trim(), inSeries ? scope : "this"),
    onSuccess: () => {
      setOpen(false);
      void queryClient.invalidateQueries({ queryKey: bookingKeys.all });
    },
  });
  return (
    <>
      <Button variant="secondary" size="sm" onClick={() => setOpen(true)} aria-label={label === "Cancel booking" ? undefined : `${label} ${booking.guestName}`}>
        {label}
      </Button>
      <ConfirmDialog
        open={open}
        title={`Cancel the booking with ${booking.guestName}?`}
        confirmLabel="Cancel booking"
        cancelLabel="Keep booking"
        pending={cancel.isPending}
        onConfirm={() => cancel.mutate()}
        onClose={() => setOpen(false)}
      >
        <div className="flex flex-col gap-3">
          <p>
            {inSeries && scope === "following" ? "The times of this session and the later ones become" : "The time becomes"} free again, and {booking.guestName} is told.
          </p>
          {inSeries && (
            <fieldset className="flex flex-col gap-2">
              <legend className="mb-1 text-sm font-medium text-slate-800">This session is part of a series ({seriesWords(booking.id, booking.series)})</legend>
              {SCOPES.map((s) => (
                <label key={s.value} className="flex items-center gap-2 text-sm">
                  <input type="radio" name={`scope-${booking.id}`} value={s.value} checked={scope === s.value} onChange={() => setScope(s.value)} className="h-4 w-4" />
                  {s.label}
                </label>
              ))}
            </fieldset>
          )}
          <Field label="Reason (optional)" hint="Shared with the guest." error={cancel.error?.issueAt("reason")}>
            {(p) => <textarea {...p} rows={2} maxLength={1000} value={reason} onChange={(e) => setReason(e.target.value)} className={inputClass} />}
          </Field>
          {cancel.isError && !cancel.error.issueAt("reason") && <Alert tone="error">{cancel.error.message}</Alert>}
        </div>
      </ConfirmDialog>
    </>
  );
}

/**
 * A team booking's team, and the other hosts of a booking several host (collective): "Team:
 * Sales · with Ada Lovelace, Grace Hopper". Nothing for a personal booking, or one from before teams.
 */
function TeamLine({ booking, myUserId }: { booking: BookingDto; myUserId: string }) {
  const hosts = booking.hosts ?? [];
  const others = hosts.length > 1 ? hosts.filter((h) => h.userId !== myUserId).map((h) => h.fullName) : [];
  if (!booking.team && others.length === 0) return null;
  return (
    <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-600">
      {booking.team && <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700">Team: {booking.team.name}</span>}
      {others.length > 0 && <span>with {others.join(", ")}</span>}
    </p>
  );
}

export const badge = "rounded-full px-2 py-0.5 text-xs font-semibold";

/** Who cancelled it, in the host's words. */
function cancelledByWords(booking: BookingDto): string {
  // A team booking may have been cancelled by any of its hosts (its history says who).
  if (booking.cancelledBy === "host") return booking.team ? "a host" : "you";
  if (booking.cancelledBy === "system") return "no one confirmed the request before its start";
  return "the guest";
}

/**
 * The guest's answers to the event type's questions, folded under "Answers (n)": a list of many
 * bookings stays a list to scan, and each booking's answers are one tap away.
 */
function Answers({ booking, eventType }: { booking: BookingDto; eventType?: EventTypeDto }) {
  const questions = new Map(eventType?.customQuestions.map((q) => [q.id, q]));
  // In the order the event type asks them (the stored object has its own); questions since removed last.
  const order = (id: string) => eventType?.customQuestions.findIndex((q) => q.id === id) ?? -1;
  const rank = (id: string) => (order(id) === -1 ? Number.MAX_SAFE_INTEGER : order(id));
  const answers = Object.entries(booking.customAnswers).sort(([a], [b]) => rank(a) - rank(b));
  if (answers.length === 0) return null;
  return (
    <details className="text-sm">
      <summary className="w-fit cursor-pointer rounded font-medium text-blue-700 focus-visible:outline-2 focus-visible:outline-blue-600">
        Answers ({answers.length})
      </summary>
      <dl className="mt-2 flex flex-col gap-2 border-l-2 border-slate-200 pl-3">
        {answers.map(([id, answer]) => (
          <div key={id} className="flex flex-col">
            <dt className="text-slate-500">{questions.get(id)?.label ?? labelOfId(id)}</dt>
            <dd className="break-words text-slate-900">
              <AnswerValue lines={readableAnswer(questions.get(id), answer, formatPhone)} list={questions.get(id)?.type === "checkboxes"} />
            </dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

export function BookingCard({
  booking,
  view,
  zone,
  eventType,
  username,
  myUserId,
  focused,
}: {
  booking: BookingDto;
  view: View;
  zone: string;
  eventType?: EventTypeDto;
  username: string;
  myUserId: string;
  /** The booking an email linked to (?booking=…): brought into view and marked. */
  focused: boolean;
}) {
  const [rescheduling, setRescheduling] = useState(false);
  const [showHistory, setShowHistory] = useState(false);
  const card = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (focused) card.current?.scrollIntoView({ block: "center" });
  }, [focused]);
  const upcoming = view === "upcoming" || view === "requests";
  const pending = booking.status === "pending";
  const past = view === "past" || view === "noShows";
  // A team booking's event type is the team's (its questions, its open times), not among the host's own.
  const teamEventTypes = useQuery({ ...eventTypesQuery({ kind: "team", teamId: booking.team?.id ?? "" }), enabled: Boolean(booking.team) });
  const ownEventType = booking.team ? teamEventTypes.data?.find((e) => e.id === booking.eventType.id) : eventType;
  const guestZone = zoneWords(booking.guestTimezone, booking.startTime);
  const moneyLocale = moneyLocaleOf(useQuery(meQuery()).data?.language);
  const paymentTone =
    booking.payment?.status === "paid"
      ? "bg-green-100 text-green-900"
      : booking.payment?.status === "refunded" || booking.status === "cancelled"
        ? "bg-slate-100 text-slate-800"
        : "bg-amber-100 text-amber-900";
  // A hold waiting for its payment cannot move (decisions §20): it is paid, or cancelled, first.
  const movable = upcoming && booking.status !== "awaiting_payment";
  return (
    <li ref={card} data-testid={`booking-${booking.id}`} className={`flex flex-col gap-3 rounded-lg border bg-white p-4 ${focused ? "border-blue-500 ring-2 ring-blue-200" : "border-slate-200"}`}>
      <div className="flex flex-col gap-1 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
        <div className="flex min-w-0 flex-col gap-1">
          <p className="flex flex-wrap items-center gap-2 font-medium">
            {bookingWhen(booking.startTime, booking.endTime, zone)}
            {pending && <span className={`${badge} bg-amber-100 text-amber-900`}>Requested</span>}
            {booking.noShow && <span className={`${badge} bg-red-100 text-red-800`}>No-show</span>}
            {booking.series && <span className={`${badge} bg-violet-100 text-violet-900`}>{seriesWords(booking.id, booking.series)}</span>}
            {booking.payment && <span className={`${badge} ${paymentTone}`}>{bookingPaymentWords(booking.payment, moneyLocale, booking.status)}</span>}
          </p>
          <p className="text-slate-700">
            {booking.eventType.title} with <span className="font-medium">{booking.guestName}</span>
          </p>
          <TeamLine booking={booking} myUserId={myUserId} />
          <p className="text-sm text-slate-600">
            <a href={`mailto:${booking.guestEmail}`} className="break-all text-blue-700 underline">
              {booking.guestEmail}
            </a>
            {/* Two ids of one zone (Asia/Calcutta, Asia/Kolkata) are one name: said only when the guest's clock differs. */}
            {guestZone !== zoneWords(zone, booking.startTime) ? ` · in ${guestZone}` : ""}
          </p>
        </div>
        <div className="flex shrink-0 flex-wrap gap-2 sm:justify-end">
          {upcoming && pending && <RequestActions booking={booking} />}
          {movable && (
            <Button variant="secondary" size="sm" onClick={() => setRescheduling((r) => !r)} aria-expanded={rescheduling}>
              Reschedule
            </Button>
          )}
          {upcoming && !pending && <CancelBooking booking={booking} />}
          {past && <NoShowToggle booking={booking} />}
          <Button variant="ghost" size="sm" onClick={() => setShowHistory((h) => !h)} aria-expanded={showHistory}>
            {showHistory ? "Hide history" : "History"}
          </Button>
        </div>
      </div>
      {(booking.location || booking.previousStartTime || booking.cancelledBy) && (
        <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
          {booking.location && (
            <>
              <dt className="text-slate-500">Where</dt>
              <dd className="break-words">{booking.location}</dd>
            </>
          )}
          {booking.previousStartTime && (
            <>
              <dt className="text-slate-500">Moved from</dt>
              <dd>{momentWhen(booking.previousStartTime, zone)}</dd>
            </>
          )}
          {booking.cancelledBy && (
            <>
              <dt className="text-slate-500">Cancelled by</dt>
              <dd>
                {cancelledByWords(booking)}
                {booking.cancellationReason ? `: “${booking.cancellationReason}”` : ""}
              </dd>
            </>
          )}
        </dl>
      )}
      <Answers booking={booking} eventType={ownEventType} />
      {pending && upcoming && (
        <p className="text-sm text-amber-900">Waiting for your answer: the time is held until you confirm or decline. Unconfirmed at its start, it is cancelled.</p>
      )}
      {showHistory && <BookingHistory booking={booking} zone={zone} myUserId={myUserId} />}
      {rescheduling &&
        (booking.team && teamEventTypes.isPending ? (
          <p className="text-sm text-slate-500">Loading open times…</p>
        ) : (
          <RescheduleBooking booking={booking} zone={zone} eventType={ownEventType} username={username} teamSlug={booking.team?.slug} onDone={() => setRescheduling(false)} />
        ))}
    </li>
  );
}

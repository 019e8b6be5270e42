"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { parsePhoneNumberFromString } from "libphonenumber-js/min";
import { useEffect, useRef, useState } from "react";
import { AnswerValue } from "@/components/booking/answer-value";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field, inputClass } from "@/components/ui/field";
import type { ApiError } from "@/lib/browser/api-client/fetch-json";
import { bookingsQuery, cancelBooking, eventTypesQuery, hostKeys, meQuery, type BookingDto, type EventTypeDto } from "@/lib/browser/api-client/host";
import { BOOKING_VIEWS as VIEWS, BOOKINGS_PAGE_SIZE as PAGE_SIZE, bookingsPage, type BookingView as View } from "@/lib/dashboard/booking-views";
import { formatDay, formatRange, formatTime } from "@/lib/time/format";
import { readableAnswer } from "@/lib/question-answers";
import { teamEventTypesQuery } from "@/lib/browser/api-client/teams";
import { BookingHistory } from "./booking-history";
import { NoShowToggle } from "./no-show-toggle";
import { RequestsCount } from "../requests-waiting";
import { RequestActions } from "./request-actions";
import { RescheduleBooking } from "./reschedule-booking";

// Formatting needs only the small metadata (the server checked the number with the full one).
const formatPhone = (e164: string) => parsePhoneNumberFromString(e164)?.formatInternational() ?? e164;

function CancelBooking({ booking }: { booking: BookingDto }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const cancel = useMutation<BookingDto, ApiError>({
    mutationFn: () => cancelBooking(booking.id, reason.trim()),
    onSuccess: () => {
      setOpen(false);
      void queryClient.invalidateQueries({ queryKey: hostKeys.bookings });
    },
  });
  return (
    <>
      <Button variant="secondary" size="sm" onClick={() => setOpen(true)}>
        Cancel booking
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
          <p>The time becomes free again, and {booking.guestName} is told.</p>
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

const badge = "rounded-full px-2 py-0.5 text-xs font-semibold";

/** Who cancelled it, in the host's words. */
function cancelledByWords(booking: BookingDto): string {
  // A team booking may have been cancelled by any of its hosts (its history says who).
  if (booking.cancelledBy === "host") return booking.team ? "a host" : "you";
  if (booking.cancelledBy === "system") return "no one confirmed the request before its start";
  return "the guest";
}

function BookingCard({
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
  const teamEventTypes = useQuery({ ...teamEventTypesQuery(booking.team?.id ?? ""), enabled: Boolean(booking.team) });
  const ownEventType = booking.team ? teamEventTypes.data?.find((e) => e.id === booking.eventType.id) : eventType;
  const questions = new Map(ownEventType?.customQuestions.map((q) => [q.id, q]));
  const answers = Object.entries(booking.customAnswers);
  return (
    <li ref={card} data-testid={`booking-${booking.id}`} className={`flex flex-col gap-3 rounded-lg border bg-white p-4 ${focused ? "border-blue-500 ring-2 ring-blue-200" : "border-slate-200"}`}>
      <div className="flex flex-col gap-1 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
        <div className="flex min-w-0 flex-col gap-1">
          <p className="flex flex-wrap items-center gap-2 font-medium">
            {formatRange(booking.startTime, booking.endTime, zone)}
            {pending && <span className={`${badge} bg-amber-100 text-amber-900`}>Requested</span>}
            {booking.noShow && <span className={`${badge} bg-red-100 text-red-800`}>No-show</span>}
          </p>
          <p className="text-slate-700">
            {booking.eventType.title} with <span className="font-medium">{booking.guestName}</span>
          </p>
          <TeamLine booking={booking} myUserId={myUserId} />
          <p className="text-sm text-slate-600">
            <a href={`mailto:${booking.guestEmail}`} className="break-all text-blue-700 underline">
              {booking.guestEmail}
            </a>
            {booking.guestTimezone !== zone ? ` · in ${booking.guestTimezone}` : ""}
          </p>
        </div>
        <div className="flex shrink-0 flex-wrap gap-2 sm:justify-end">
          {upcoming && pending && <RequestActions booking={booking} />}
          {upcoming && (
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
      {(answers.length > 0 || booking.location || booking.previousStartTime || booking.cancelledBy) && (
        <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
          {booking.location && (
            <>
              <dt className="text-slate-500">Where</dt>
              <dd className="break-words">{booking.location}</dd>
            </>
          )}
          {answers.map(([id, answer]) => (
            <div key={id} className="contents">
              <dt className="text-slate-500">{questions.get(id)?.label ?? id}</dt>
              <dd className="break-words">
                <AnswerValue lines={readableAnswer(questions.get(id), answer, formatPhone)} list={questions.get(id)?.type === "checkboxes"} />
              </dd>
            </div>
          ))}
          {booking.previousStartTime && (
            <>
              <dt className="text-slate-500">Moved from</dt>
              <dd>
                {formatDay(booking.previousStartTime, zone)} · {formatTime(booking.previousStartTime, zone)}
              </dd>
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

const EMPTY: Record<View, string> = {
  upcoming: "No upcoming bookings. Share your booking link to get some.",
  requests: "No requests waiting for your answer.",
  past: "No past bookings yet.",
  noShows: "No guest marked as a no-show.",
  cancelled: "No cancelled bookings.",
};

/**
 * The host's bookings: upcoming (requests among them), requests, past, no-shows and cancelled,
 * paged, times in the host's zone. `focusId` (a booking an email links to) is marked on the view
 * and page it opens on; `focusMissing` says the linked booking is not among the host's.
 */
export function BookingList({
  focusId,
  focusMissing = false,
  initialView = "upcoming",
  initialPage = 1,
}: {
  focusId?: string;
  focusMissing?: boolean;
  initialView?: View;
  initialPage?: number;
}) {
  const [view, setView] = useState<View>(initialView);
  const [page, setPage] = useState(initialPage);
  const me = useQuery(meQuery());
  const eventTypes = useQuery(eventTypesQuery());
  const bookings = useQuery({ ...bookingsQuery(bookingsPage(view, page)), placeholderData: keepPreviousData });

  const total = bookings.data?.pagination.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const zone = me.data?.timezone;

  return (
    <div className="flex flex-col gap-4">
      <div role="tablist" aria-label="Which bookings" className="flex flex-wrap gap-1">
        {(Object.keys(VIEWS) as View[]).map((v) => (
          <button
            key={v}
            type="button"
            role="tab"
            aria-selected={v === view}
            onClick={() => {
              setView(v);
              setPage(1);
            }}
            className={`rounded-md px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-blue-600 ${
              v === view ? "bg-blue-600 text-white" : "border border-slate-300 bg-white text-slate-700 hover:bg-slate-50"
            }`}
          >
            {VIEWS[v].label}
            {v === "requests" && <RequestsCount />}
          </button>
        ))}
      </div>
      {focusMissing && (
        <Alert tone="info">The booking your link points to is not among yours: another host may have taken it over, or the link is from another account.</Alert>
      )}
      <div role="tabpanel" aria-label={`${VIEWS[view].label} bookings`} className="flex flex-col gap-3">
        {zone && <p className="text-sm text-slate-600">Times in your timezone, {zone}.</p>}
        {bookings.isPending || me.isPending ? (
          <p className="text-slate-500">Loading bookings…</p>
        ) : bookings.isError ? (
          <Alert tone="error">{bookings.error.message}</Alert>
        ) : me.isError ? (
          <Alert tone="error">{me.error.message}</Alert>
        ) : bookings.data.data.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-slate-600">
            {EMPTY[view]}
          </p>
        ) : (
          <ul className="flex flex-col gap-3">
            {bookings.data.data.map((b) => (
              <BookingCard
                key={b.id}
                booking={b}
                view={view}
                zone={zone!}
                username={me.data!.username}
                myUserId={me.data!.id}
                eventType={eventTypes.data?.find((e) => e.id === b.eventType.id)}
                focused={b.id === focusId}
              />
            ))}
          </ul>
        )}
        {pages > 1 && (
          <nav aria-label="Pages" className="flex items-center justify-between gap-2">
            <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
              Previous
            </Button>
            <span className="text-sm text-slate-600">
              Page {page} of {pages}
            </span>
            <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
              Next
            </Button>
          </nav>
        )}
      </div>
    </div>
  );
}

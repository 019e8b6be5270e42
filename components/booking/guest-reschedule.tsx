"use client";

import { useRef, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClass } from "@/components/ui/button";
import { CalendarIcon, ClockIcon, MapPinIcon } from "@/components/ui/icons";
import { toApiError, type ApiError } from "@/lib/browser/api-client/fetch-json";
import { guestReads, slotsPrefix } from "@/lib/browser/api-client/guest-reads";
import { rescheduleWithToken, type GuestRescheduledDto, type SlotDto } from "@/lib/browser/api-client/public";
import { formatClockRange, formatLongDay } from "@/lib/time/format";
import { zoneName } from "@/lib/time/zones";
import { fill, fillParts } from "@/lib/i18n/fill";
import { HostAvatar, SummaryLine } from "./event-summary";
import { LanguageFooter, useGuestText } from "./guest-i18n";
import { manageFailureMessage } from "./guest-messages";
import { useGuestPreferences, ZoneLine } from "./guest-preferences";
import { SlotPicker, SlotPickerPlaceholder } from "./slot-picker";

export type RescheduleBooking = {
  title: string;
  hostName: string;
  hostAvatarUrl: string | null;
  username: string;
  slug: string;
  startTime: string;
  endTime: string;
  guestTimezone: string;
  location: string;
  /** How many days ahead the host takes bookings. */
  windowDays: number;
};

export type RescheduleState = "open" | "started" | "cancelled" | "closed";

/**
 * The guest's own reschedule: the booking as it stands, the event type's open times (the booking
 * page's calendar, in the zone the guest booked in), and a confirm button; nothing moves before that click.
 */
export function GuestReschedule({ token, booking, state }: { token: string; booking: RescheduleBooking; state: RescheduleState }) {
  const preferences = useGuestPreferences(booking.guestTimezone);
  const text = useGuestText();
  const { intl, m } = text;
  const [chosen, setChosen] = useState<SlotDto | null>(null);
  const [move, setMove] = useState<{ pending: boolean; done?: GuestRescheduledDto; error?: ApiError }>({ pending: false });
  const confirmRef = useRef<HTMLButtonElement>(null);

  async function confirm(slot: SlotDto) {
    if (move.pending) return;
    setMove({ pending: true });
    try {
      setMove({ pending: false, done: await rescheduleWithToken(token, slot.startTime) });
    } catch (caught) {
      const error = toApiError(caught);
      setMove({ pending: false, error });
      if (error.code === "slot_unavailable") {
        setChosen(null);
        const prefix = slotsPrefix(booking.username, booking.slug);
        guestReads.update(prefix, (old) => (Array.isArray(old) ? (old as SlotDto[]).filter((s) => s.startTime !== slot.startTime) : old));
        guestReads.invalidate(prefix);
      }
    }
  }

  // Before the browser has said anything: the zone booked in, on a 24-hour clock.
  const zone = preferences?.zone ?? booking.guestTimezone;
  const hour12 = preferences?.hour12 ?? false;
  const when = (start: string, end: string) => (
    <>
      {formatLongDay(start, zone, { year: true, locale: intl })}, <span className="whitespace-nowrap">{formatClockRange(start, end, zone, hour12, intl)}</span>
    </>
  );
  const current = move.done ?? booking;

  return (
    <main lang={text.locale} className="mx-auto w-full max-w-5xl px-3 py-6 sm:px-6 sm:py-12">
      <div className="grid overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm lg:grid-cols-[18rem_minmax(0,1fr)]">
        <header className="flex flex-col gap-3 border-b border-slate-200 p-4 sm:p-6 lg:border-r lg:border-b-0">
          <div className="flex items-center gap-3">
            <HostAvatar name={booking.hostName} avatarUrl={booking.hostAvatarUrl} />
            <p className="min-w-0 flex-1 font-medium text-slate-600">{booking.hostName}</p>
          </div>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{move.done ? m.movedTitle : m.rescheduleTitle}</h1>
          <dl className="flex flex-col gap-2">
            <div>
              <dt className="sr-only">{m.what}</dt>
              <dd className="font-medium break-words text-slate-900">{fill(m.eventWith, { title: booking.title, host: booking.hostName })}</dd>
            </div>
            <div>
              <dt className="text-sm text-slate-500">{move.done ? m.now : state === "open" ? m.bookedFor : m.when}</dt>
              <dd>
                <SummaryLine icon={<ClockIcon />}>
                  {when(current.startTime, current.endTime)} <span className="text-slate-500">({zoneName(zone, new Date(current.startTime), intl)})</span>
                </SummaryLine>
              </dd>
            </div>
            {booking.location && (
              <div>
                <dt className="sr-only">{m.where}</dt>
                <dd>
                  <SummaryLine icon={<MapPinIcon />}>{booking.location}</SummaryLine>
                </dd>
              </div>
            )}
          </dl>
        </header>
        <div className="flex min-w-0 flex-col gap-5 p-4 sm:p-6">
          {/* Always in the page, so that the success put into it is announced; while empty, it takes no room. */}
          <div role="status" aria-live="polite" className="empty:-mb-5">
            {move.done && (
              <div className="flex flex-col items-start gap-3 rounded-md border border-green-200 bg-green-50 p-3 text-green-950">
                <p>{fillParts(m.movedNotice, { when: <span key="when">{when(move.done.startTime, move.done.endTime)}</span> })}</p>
                <a href={`/api/v1/public/bookings/${encodeURIComponent(token)}.ics`} download="booking.ics" className={buttonClass("secondary", "sm")}>
                  <CalendarIcon className="size-4" />
                  {m.addNewTime}
                </a>
              </div>
            )}
          </div>
          {move.done ? null : state === "cancelled" ? (
            <p className="text-slate-600">{m.cannotMoveCancelled}</p>
          ) : state === "started" ? (
            <p className="text-slate-600">{m.cannotMoveStarted}</p>
          ) : state === "closed" ? (
            <p className="text-slate-600">{fill(m.cannotMoveClosed, { host: booking.hostName })}</p>
          ) : (
            <>
              <h2 className="text-xl font-semibold text-slate-900">{m.selectNew}</h2>
              <p className="text-sm text-slate-600">{m.currentMarked}</p>
              {preferences ? (
                <SlotPicker
                  username={booking.username}
                  slug={booking.slug}
                  preferences={preferences}
                  windowDays={booking.windowDays}
                  chosen={chosen?.startTime ?? null}
                  current={{ startTime: booking.startTime, endTime: booking.endTime }}
                  below={<ZoneLine preferences={preferences} />}
                  onPick={(slot) => {
                    setChosen(slot);
                    setMove({ pending: false });
                    requestAnimationFrame(() => confirmRef.current?.focus());
                  }}
                />
              ) : (
                <SlotPickerPlaceholder below={<ZoneLine preferences={null} />} />
              )}
              {move.error && <Alert tone="error">{move.error.code === "slot_unavailable" ? m.movedTaken : manageFailureMessage(move.error, text)}</Alert>}
              <div className="flex flex-wrap items-center gap-3">
                <Button ref={confirmRef} disabled={!chosen || move.pending} onClick={() => chosen && void confirm(chosen)}>
                  {move.pending ? m.moving : chosen ? <span>{fillParts(m.moveTo, { when: <span key="when">{when(chosen.startTime, chosen.endTime)}</span> })}</span> : m.chooseAbove}
                </Button>
              </div>
            </>
          )}
        </div>
      </div>
      <LanguageFooter />
    </main>
  );
}

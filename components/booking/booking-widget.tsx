"use client";

import { lazy, Suspense, useCallback, useEffect, useRef, useState, type ComponentType } from "react";
import { guestReads, slotsPrefix } from "@/lib/browser/api-client/guest-reads";
import type { CreatedBookingDto, SlotDto } from "@/lib/browser/api-client/public";
import { randomUuid } from "@/lib/browser/api-client/uuid";
import type { GuestDetails, Question } from "./booking-form";
import type { BookedEvent, ConfirmationProps } from "./confirmation";
import { LanguageFooter, useGuestText } from "./guest-i18n";
import { useGuestPreferences, ZoneLine } from "./guest-preferences";
import { fill } from "@/lib/i18n/fill";
import { SlotPicker, type SlotsPreview } from "./slot-picker";

type Props = {
  /** Whose event type: a host's username, or `teams/{teamSlug}` for a team's (its public API path). */
  username: string;
  slug: string;
  /** The zone the server's preview is in (a host's page); a team's page has no preview. */
  hostTimezone?: string;
  /** What the confirmation names: the event, the host, the place. */
  event: Omit<BookedEvent, "startTime" | "endTime" | "zone" | "hour12">;
  questions: Question[];
  /** How many days ahead the host takes bookings. */
  windowDays: number;
  /** Inside another site's iframe (?embed=1): a made booking is posted to the parent page. */
  embed?: boolean;
  /** The server's first open month (its calendar, no times), shown until the guest's own is in. */
  preview?: SlotsPreview;
  /** The host approves each booking (decisions §16): the page says so, and the guest requests one. */
  requiresConfirmation?: boolean;
  /** A recurring event type: the form offers a series (decisions §19). */
  recurrence?: { everyWeeks: number; maxOccurrences: number };
  /** A group session's seats per start. */
  seatsMax?: number;
  /** A paid event type (decisions §20): the guest books, then pays at Stripe's Checkout. */
  paid?: boolean;
};

// The form and the confirmation are needed only once a time is chosen: their code is not part of
// the page's first load (the page has a budget of 150 KB of gzipped JavaScript), and is fetched as
// soon as the guest starts using the picker, so it is there by the time they click a time. The
// confirmation is never behind Suspense: the booking's answer waits for its code (already loaded
// in practice), so the whole confirmation appears in one frame, never a bare "You are booked."
const loadForm = () => import("./booking-form");
const loadConfirmation = () => import("./confirmation");
const BookingForm = lazy(() => loadForm().then((m) => ({ default: m.BookingForm })));
function preload() {
  void loadForm();
  void loadConfirmation();
}

const emptyDetails: GuestDetails = { guestName: "", guestEmail: "", answers: {}, phoneCountries: {} };

/** Pick a day and a time in your own zone and clock, give your details, get a confirmation with its links. */
export function BookingWidget({ username, slug, hostTimezone, event, questions, windowDays, embed = false, preview, requiresConfirmation = false, recurrence, seatsMax, paid = false }: Props) {
  // Null in the server's render: the page then shows no time at all (see SlotsPreview).
  const preferences = useGuestPreferences();
  const { m } = useGuestText();
  // The zone picker under the calendar: kept here, as the calendar is drawn twice (preview, then live).
  const [zoneOpen, setZoneOpen] = useState(false);
  const [previewDone, setPreviewDone] = useState(false);
  const onPreviewDone = useCallback(() => setPreviewDone(true), []);
  const [slot, setSlot] = useState<SlotDto | null>(null);
  const [details, setDetails] = useState<GuestDetails>(emptyDetails);
  // One key for this guest's booking, whatever slot or details it ends up with: the API frees a
  // key whenever it refuses a request, and keeps it only once the booking is made, so a retry
  // after a lost answer (offline, a proxy's 502) can never book twice.
  const [idempotencyKey] = useState(() => randomUuid());
  // What the notice says, not its words: a language switch rewrites it.
  const [notice, setNotice] = useState<"taken" | null>(null);
  const [confirmation, setConfirmation] = useState<{ booked: CreatedBookingDto; zone: string; View: ComponentType<ConfirmationProps> } | null>(null);
  const noticeRef = useRef<HTMLParagraphElement>(null);
  const picker = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (notice) noticeRef.current?.focus();
  }, [notice]);

  function slotTaken(taken: SlotDto) {
    const prefix = slotsPrefix(username, slug);
    // Gone from what is shown at once, and every list of this event fetched again. (The same
    // prefix also holds the picker's first open month, not a list: left as it is.)
    guestReads.update(prefix, (old) => (Array.isArray(old) ? (old as SlotDto[]).filter((s) => s.startTime !== taken.startTime) : old));
    guestReads.invalidate(prefix);
    setSlot(null);
    setNotice("taken");
  }

  function back(from: SlotDto) {
    setSlot(null);
    // The picker stayed mounted (hidden) with its month and day: the time the guest came from takes the focus.
    requestAnimationFrame(() => picker.current?.querySelector<HTMLButtonElement>(`button[data-start="${CSS.escape(from.startTime)}"]`)?.focus());
  }

  return (
    <>
      {!confirmation && (
        <div className="flex min-w-0 flex-col gap-5">
          <div className="flex flex-col gap-1">
            <h2 className="text-xl font-semibold text-slate-900">{slot ? m.detailsHeading : m.selectHeading}</h2>
            {requiresConfirmation && <p className="text-sm text-slate-600">{fill(m.approvalNote, { host: event.hostName })}</p>}
            {/* Always in the page (its margin only when it speaks), so a message put into it is announced. */}
            <div role="alert" className="not-empty:mt-3">
              {notice && (
                <p ref={noticeRef} tabIndex={-1} className="rounded-md border border-amber-200 bg-amber-50 p-3 text-amber-900 focus-visible:outline-2 focus-visible:outline-amber-600">
                  {m.slotTaken}
                </p>
              )}
            </div>
          </div>
          {/* The zone can still change with the form open: the chosen time is rewritten in it. */}
          {slot && <ZoneLine preferences={preferences} hostTimezone={hostTimezone} open={zoneOpen} onOpenChange={setZoneOpen} />}
          {slot && preferences && (
            <Suspense fallback={<p className="text-slate-500">{m.openingForm}</p>}>
              <BookingForm
                username={username}
                slug={slug}
                timezone={preferences.zone}
                hour12={preferences.hour12}
                slot={slot}
                questions={questions}
                requiresConfirmation={requiresConfirmation}
                recurrence={recurrence}
                seatsMax={seatsMax}
                paid={paid}
                embed={embed}
                details={details}
                onDetailsChange={setDetails}
                idempotencyKey={idempotencyKey}
                onBooked={(booked) => {
                  void loadConfirmation().then(({ Confirmation }) => setConfirmation({ booked, zone: preferences.zone, View: Confirmation }));
                  // Embedded in another site (?embed=1): tell the page around us.
                  if (embed && window.parent !== window) {
                    window.parent.postMessage({ type: "booking.created", bookingId: booked.id, startTime: booked.startTime }, "*");
                  }
                }}
                onSlotTaken={slotTaken}
                onBack={() => back(slot)}
              />
            </Suspense>
          )}
          {/* Hidden, not unmounted, while the form is open: Back returns to the same month and day. */}
          <div ref={picker} hidden={slot !== null} onPointerEnter={preload} onTouchStart={preload} onFocus={preload}>
            <SlotPicker
              username={username}
              slug={slug}
              preferences={preferences}
              windowDays={windowDays}
              // Once gone, the preview never comes back (a retry shows the picker's own loading).
              preview={previewDone ? undefined : preview}
              below={<ZoneLine preferences={preferences} hostTimezone={hostTimezone} open={zoneOpen} onOpenChange={setZoneOpen} />}
              onReady={onPreviewDone}
              onPick={(picked) => {
                preload(); // a keyboard or script pick skips the pointer and focus events above
                setNotice(null);
                setSlot(picked);
              }}
            />
          </div>
        </div>
      )}
      {/* In the page from the first render, so that the confirmation put into it is announced. */}
      <div role="status" aria-live="polite">
        {confirmation && (
          <confirmation.View
            booked={confirmation.booked}
            event={{ ...event, startTime: confirmation.booked.startTime, endTime: confirmation.booked.endTime, zone: confirmation.zone, hour12: preferences?.hour12 ?? false }}
            newTab={embed}
          />
        )}
      </div>
      <LanguageFooter />
    </>
  );
}

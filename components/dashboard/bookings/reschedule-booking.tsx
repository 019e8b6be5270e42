"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import type { ApiError } from "@/lib/browser/api-client/fetch-json";
import { bookingKeys, rescheduleBooking, type BookingDto } from "@/lib/browser/api-client/bookings";
import type { EventTypeDto } from "@/lib/browser/api-client/event-types";
import { slotsQuery, teamOwner, type SlotDto } from "@/lib/browser/api-client/public";
import { addDays, dateInZone, formatDay, formatTime } from "@/lib/time/format";

const DAYS_SHOWN = 14;

/**
 * Pick a new time from the event type's open times (the same list guests see, in the host's
 * zone), two weeks at a time; the server re-checks the choice, ignoring the booking itself.
 */
export function RescheduleBooking({
  booking,
  zone,
  eventType,
  username,
  teamSlug,
  onDone,
}: {
  booking: BookingDto;
  zone: string;
  eventType: EventTypeDto | undefined;
  username: string;
  /** A team booking's team: its event type's open times are the team's (any or every host free). */
  teamSlug?: string;
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const [today] = useState(() => dateInZone(Date.now(), zone));
  const [from, setFrom] = useState(today);
  const [chosen, setChosen] = useState<SlotDto | null>(null);
  const to = addDays(from, DAYS_SHOWN - 1);
  const range = { from, to, timezone: zone };
  const bookable = Boolean(eventType?.isActive);
  // The open times at the event type's public path: the host's, or the team's.
  const slots = useQuery({ ...slotsQuery(teamSlug ? teamOwner(teamSlug) : username, eventType?.slug ?? "", range), enabled: bookable });
  const move = useMutation<BookingDto, ApiError, SlotDto>({
    mutationFn: (slot) => rescheduleBooking(booking.id, slot.startTime),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: bookingKeys.all });
      void queryClient.invalidateQueries({ queryKey: ["slots"] });
      onDone();
    },
    onError: () => void queryClient.invalidateQueries({ queryKey: ["slots"] }),
  });

  if (!eventType || !eventType.isActive) {
    return (
      <Alert tone="info">
        {teamSlug
          ? "The team's event type is hidden from guests, so it has no open times to move to. An owner of the team can turn it on."
          : "This event type is hidden from guests, so it has no open times to move to. Turn it on to reschedule."}
      </Alert>
    );
  }

  const byDay = new Map<string, SlotDto[]>();
  for (const slot of slots.data ?? []) {
    const day = dateInZone(slot.startTime, zone);
    byDay.set(day, [...(byDay.get(day) ?? []), slot]);
  }

  return (
    <section aria-label={`New time for the booking with ${booking.guestName}`} className="flex flex-col gap-3 rounded-md border border-slate-200 bg-slate-50 p-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Button variant="secondary" size="sm" disabled={from <= today} onClick={() => setFrom(addDays(from, -DAYS_SHOWN))}>
          Earlier
        </Button>
        <span className="text-sm text-slate-600">
          {formatDay(`${from}T12:00:00Z`, "UTC")} – {formatDay(`${to}T12:00:00Z`, "UTC")}
        </span>
        <Button variant="secondary" size="sm" onClick={() => setFrom(addDays(from, DAYS_SHOWN))}>
          Later
        </Button>
      </div>
      {slots.isPending ? (
        <p className="text-sm text-slate-500">Loading open times…</p>
      ) : slots.isError ? (
        <Alert tone="error">{slots.error.message}</Alert>
      ) : byDay.size === 0 ? (
        <p className="text-sm text-slate-600">No open times in these two weeks. Try later dates.</p>
      ) : (
        <div className="flex max-h-72 flex-col gap-3 overflow-y-auto">
          {[...byDay].map(([day, daySlots]) => (
            <div key={day} role="group" aria-label={formatDay(daySlots[0]!.startTime, zone)} className="flex flex-col gap-1">
              <h4 className="text-sm font-medium text-slate-700">{formatDay(daySlots[0]!.startTime, zone)}</h4>
              <div className="flex flex-wrap gap-2">
                {daySlots.map((slot) => (
                  <button
                    key={slot.startTime}
                    type="button"
                    aria-pressed={chosen?.startTime === slot.startTime}
                    onClick={() => setChosen(slot)}
                    className={`rounded-md border px-3 py-1.5 text-sm focus-visible:outline-2 focus-visible:outline-blue-600 ${
                      chosen?.startTime === slot.startTime ? "border-blue-600 bg-blue-600 text-white" : "border-blue-300 bg-white text-blue-800 hover:bg-blue-50"
                    }`}
                  >
                    {formatTime(slot.startTime, zone)}
                  </button>
                ))}
              </div>
            </div>
          ))}
        </div>
      )}
      {move.isError && <Alert tone="error">{move.error.code === "slot_unavailable" ? "That time was just taken; the list is fresh again, pick another." : move.error.message}</Alert>}
      <div className="flex flex-wrap gap-2">
        <Button size="sm" disabled={!chosen || move.isPending} onClick={() => chosen && move.mutate(chosen)}>
          {move.isPending ? "Moving…" : chosen ? `Move to ${formatDay(chosen.startTime, zone)}, ${formatTime(chosen.startTime, zone)}` : "Pick a new time"}
        </Button>
        <Button variant="ghost" size="sm" onClick={onDone}>
          Close
        </Button>
      </div>
    </section>
  );
}

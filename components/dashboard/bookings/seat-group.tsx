"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { ApiError } from "@/lib/browser/api-client/fetch-json";
import {
  bookingKeys,
  cancelBooking,
  type BookingDto,
} from "@/lib/browser/api-client/bookings";
import { seatWords } from "@/lib/dashboard/booking-groups";
import type { BookingView as View } from "@/lib/dashboard/booking-views";
import { bookingWhen } from "@/lib/dashboard/when";
import { badge, CancelBooking } from "./booking-card";

// A group session's start on the bookings page (decisions §19): one row, "Yoga class · 3 of 10
// seats" and its time, unfolding to each guest's seat (name, email, status) with a Cancel each,
// and "Cancel all" for the seats this page lists.

const STATUS: Record<
  BookingDto["status"],
  { label: string; className: string }
> = {
  confirmed: {
    label: "Confirmed",
    className: "bg-emerald-100 text-emerald-900",
  },
  pending: { label: "Requested", className: "bg-amber-100 text-amber-900" },
  cancelled: { label: "Cancelled", className: "bg-slate-200 text-slate-800" },
  awaiting_payment: { label: "Awaiting payment", className: "bg-sky-100 text-sky-900" },
};

function CancelAll({ seats, taken }: { seats: BookingDto[]; taken: number }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const cancel = useMutation<void, ApiError>({
    // One after another: each seat is a booking of its own, and each guest is told.
    mutationFn: async () => {
      for (const seat of seats) await cancelBooking(seat.id, "");
    },
    onSuccess: () => setOpen(false),
    onSettled: () =>
      void queryClient.invalidateQueries({ queryKey: bookingKeys.all }),
  });
  const others = taken - seats.length;
  return (
    <>
      <Button variant="secondary" size="sm" onClick={() => setOpen(true)}>
        Cancel all
      </Button>
      <ConfirmDialog
        open={open}
        title={`Cancel all ${seats.length} seats of this session?`}
        confirmLabel="Cancel all"
        cancelLabel="Keep them"
        pending={cancel.isPending}
        onConfirm={() => cancel.mutate()}
        onClose={() => setOpen(false)}
      >
        <div className="flex flex-col gap-3">
          <p>
            Each guest listed here is told their seat is cancelled, and the time
            becomes free again.
          </p>
          {others > 0 && (
            <p>
              {others === 1 ? "1 more seat is" : `${others} more seats are`} on
              another page of the list and stays booked.
            </p>
          )}
          {cancel.isError && <Alert tone="error">{cancel.error.message}</Alert>}
        </div>
      </ConfirmDialog>
    </>
  );
}

export function SeatGroup({
  seats,
  seat,
  view,
  zone,
  focusId,
}: {
  seats: BookingDto[];
  seat: { taken: number; max: number };
  view: View;
  zone: string;
  /** A seat an email linked to: the row opens on its guests. */
  focusId?: string;
}) {
  const [open, setOpen] = useState(() => seats.some((s) => s.id === focusId));
  const first = seats[0]!;
  const upcoming = view === "upcoming" || view === "requests";
  const active = seats.filter((s) => s.status !== "cancelled");
  const listId = `seats-${first.id}`;
  return (
    <li
      data-testid={`seat-group-${first.id}`}
      className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4"
    >
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
        <div className="flex min-w-0 flex-col gap-1">
          <p className="font-medium">
            {bookingWhen(first.startTime, first.endTime, zone)}
          </p>
          <p className="text-slate-700">
            {first.eventType.title} ·{" "}
            <span className="font-medium">{seatWords(seat)}</span>
          </p>
        </div>
        <div className="flex shrink-0 flex-wrap gap-2 sm:justify-end">
          <Button
            variant="secondary"
            size="sm"
            onClick={() => setOpen((o) => !o)}
            aria-expanded={open}
            aria-controls={listId}
          >
            {open ? "Hide guests" : `Guests (${seats.length})`}
          </Button>
          {upcoming && active.length > 0 && (
            <CancelAll seats={active} taken={seat.taken} />
          )}
        </div>
      </div>
      {open && (
        <ul
          id={listId}
          aria-label={`Guests of ${first.eventType.title}`}
          className="flex flex-col divide-y divide-slate-100 border-t border-slate-100"
        >
          {/* The seats of one start have no order of their own: by name, the same on every load. */}
          {[...seats]
            .sort((a, b) => a.guestName.localeCompare(b.guestName, "en"))
            .map((s) => (
              <li
                key={s.id}
                data-testid={`booking-${s.id}`}
                className="flex flex-col gap-2 py-2 sm:flex-row sm:items-center sm:justify-between"
              >
                <div className="flex min-w-0 flex-col">
                  <p className="flex flex-wrap items-center gap-2">
                    <span className="font-medium">{s.guestName}</span>
                    <span className={`${badge} ${STATUS[s.status].className}`}>
                      {STATUS[s.status].label}
                    </span>
                  </p>
                  <a
                    href={`mailto:${s.guestEmail}`}
                    className="break-all text-sm text-blue-700 underline"
                  >
                    {s.guestEmail}
                  </a>
                </div>
                {upcoming && s.status !== "cancelled" && (
                  <div className="shrink-0">
                    <CancelBooking booking={s} label="Cancel" />
                  </div>
                )}
              </li>
            ))}
        </ul>
      )}
    </li>
  );
}

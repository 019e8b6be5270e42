"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field, inputClass } from "@/components/ui/field";
import type { ApiError } from "@/lib/browser/api-client/fetch-json";
import { confirmBooking, declineBooking, type BookingDto } from "@/lib/browser/api-client/bookings";
import { bookingKeys } from "@/lib/browser/api-client/bookings";

/** A pending request's answers (decisions §16): confirm it at once, or decline it with an optional reason. */
export function RequestActions({ booking }: { booking: BookingDto }) {
  const queryClient = useQueryClient();
  const [declining, setDeclining] = useState(false);
  const [reason, setReason] = useState("");
  const refresh = () => void queryClient.invalidateQueries({ queryKey: bookingKeys.all });
  const confirm = useMutation<BookingDto, ApiError>({ mutationFn: () => confirmBooking(booking.id), onSuccess: refresh });
  const decline = useMutation<BookingDto, ApiError>({
    mutationFn: () => declineBooking(booking.id, reason.trim()),
    onSuccess: () => {
      setDeclining(false);
      refresh();
    },
  });
  return (
    <>
      <Button size="sm" onClick={() => confirm.mutate()} disabled={confirm.isPending}>
        {confirm.isPending ? "Confirming…" : "Confirm"}
      </Button>
      <Button variant="secondary" size="sm" onClick={() => setDeclining(true)}>
        Decline
      </Button>
      {confirm.isError && (
        <p role="alert" className="basis-full text-sm text-red-700">
          {confirm.error.message}
        </p>
      )}
      <ConfirmDialog
        open={declining}
        title={`Decline the request of ${booking.guestName}?`}
        confirmLabel="Decline request"
        cancelLabel="Keep it"
        pending={decline.isPending}
        onConfirm={() => decline.mutate()}
        onClose={() => setDeclining(false)}
      >
        <div className="flex flex-col gap-3">
          <p>The time becomes free again, and {booking.guestName} is told.</p>
          <Field label="Reason (optional)" hint="Shared with the guest." error={decline.error?.issueAt("reason")}>
            {(p) => <textarea {...p} rows={2} maxLength={1000} value={reason} onChange={(e) => setReason(e.target.value)} className={inputClass} />}
          </Field>
          {decline.isError && !decline.error.issueAt("reason") && <Alert tone="error">{decline.error.message}</Alert>}
        </div>
      </ConfirmDialog>
    </>
  );
}

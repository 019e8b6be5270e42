"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import type { ApiError } from "@/lib/browser/api-client/fetch-json";
import { bookingKeys } from "@/lib/browser/api-client/bookings";
import { markNoShow, type BookingDto } from "@/lib/browser/api-client/bookings";

/** A past booking's no-show mark (decisions §16): set it, or take it back. */
export function NoShowToggle({ booking }: { booking: BookingDto }) {
  const queryClient = useQueryClient();
  const toggle = useMutation<BookingDto, ApiError>({
    mutationFn: () => markNoShow(booking.id, !booking.noShow),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: bookingKeys.all }),
  });
  return (
    <>
      <Button variant="secondary" size="sm" onClick={() => toggle.mutate()} disabled={toggle.isPending}>
        {booking.noShow ? "Undo no-show" : "Mark no-show"}
      </Button>
      {toggle.isError && (
        <p role="alert" className="basis-full text-sm text-red-700">
          {toggle.error.message}
        </p>
      )}
    </>
  );
}

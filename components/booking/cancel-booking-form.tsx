"use client";

import { useMutation } from "@tanstack/react-query";
import { buttonClass } from "@/components/ui/button";
import { toApiError, type ApiError } from "@/lib/api-client/fetch-json";
import { cancelBookingWithToken, type GuestCancelledDto } from "@/lib/api-client/public";

/** One button: cancelling needs a deliberate click, never just opening the link. */
export function CancelBookingForm({ token }: { token: string }) {
  const cancel = useMutation<GuestCancelledDto, ApiError>({
    mutationFn: async () => {
      try {
        return await cancelBookingWithToken(token);
      } catch (error) {
        throw toApiError(error);
      }
    },
  });
  return (
    <div className="flex flex-col gap-3">
      {/* Both regions are in the page before anything is put into them, so both are announced. */}
      <div role="status" aria-live="polite">
        {cancel.isSuccess && <p className="rounded-lg border border-green-200 bg-green-50 p-4 text-green-900">{cancel.data.message}</p>}
      </div>
      <div role="alert">
        {cancel.isError && <p className="rounded-lg border border-red-200 bg-red-50 p-4 text-red-900">{cancel.error.message}</p>}
      </div>
      {!cancel.isSuccess && (
        <button type="button" onClick={() => cancel.mutate()} disabled={cancel.isPending} className={`${buttonClass("danger")} self-start`}>
          {cancel.isPending ? "Cancelling…" : "Cancel booking"}
        </button>
      )}
    </div>
  );
}

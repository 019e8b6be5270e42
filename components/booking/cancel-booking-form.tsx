"use client";

import { useActionState } from "react";
import type { CancelState } from "@/app/cancel/[token]/actions";

/** One button: cancelling needs a deliberate click, never just opening the link. */
export function CancelBookingForm({ action }: { action: (previous: CancelState) => Promise<CancelState> }) {
  const [state, submit, pending] = useActionState(action, { status: "idle" } as CancelState);
  if (state.status === "cancelled") {
    return (
      <p role="status" className="rounded-lg border border-green-200 bg-green-50 p-4 text-green-900">
        {state.message}
      </p>
    );
  }
  return (
    <form action={submit} className="flex flex-col gap-3">
      {state.status === "error" && (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-red-900">
          {state.message}
        </p>
      )}
      <button
        type="submit"
        disabled={pending}
        className="self-start rounded-lg bg-red-600 px-5 py-2.5 font-medium text-white hover:bg-red-700 disabled:opacity-60"
      >
        {pending ? "Cancelling…" : "Cancel booking"}
      </button>
    </form>
  );
}

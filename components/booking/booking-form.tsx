"use client";

import { useMutation } from "@tanstack/react-query";
import { DateTime } from "luxon";
import { useState } from "react";
import type { Slot } from "./slot-picker";

export type Question = { id: string; label: string; required: boolean };
export type Confirmation = { id: string; cancelUrl: string; confirmationMessage: string };
type ApiError = { status: number; error: string; message: string; issues: { path: string; message: string }[] };

type Props = {
  username: string;
  slug: string;
  timezone: string;
  slot: Slot;
  questions: Question[];
  onBooked: (confirmation: Confirmation) => void;
  onSlotGone: (message: string) => void;
  onBack: () => void;
};

const input = "rounded-md border border-slate-300 px-3 py-2";

/** The guest's details for one chosen slot, booked with an Idempotency-Key kept for this form. */
export function BookingForm({ username, slug, timezone, slot, questions, onBooked, onSlotGone, onBack }: Props) {
  // One key per form: a retried submit (a lost response) cannot book twice.
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const book = useMutation<Confirmation, ApiError, FormData>({
    mutationFn: async (form) => {
      const customAnswers = Object.fromEntries(questions.map((q) => [q.id, String(form.get(`q-${q.id}`) ?? "")]).filter(([, v]) => v !== ""));
      const res = await fetch(`/api/v1/public/${encodeURIComponent(username)}/${encodeURIComponent(slug)}/bookings`, {
        method: "POST",
        headers: { "content-type": "application/json", "idempotency-key": idempotencyKey },
        body: JSON.stringify({
          startTime: slot.startTime,
          guestName: form.get("name"),
          guestEmail: form.get("email"),
          guestTimezone: timezone,
          customAnswers,
        }),
      });
      const body = await res.json();
      if (!res.ok) throw { status: res.status, error: body.error, message: body.message, issues: body.details?.issues ?? [] } satisfies ApiError;
      return body;
    },
    onSuccess: onBooked,
    onError: (error) => {
      if (error.error === "slot_unavailable") onSlotGone(error.message);
    },
  });

  const start = DateTime.fromISO(slot.displayStart, { setZone: true });
  const end = DateTime.fromISO(slot.displayEnd, { setZone: true });
  return (
    <form action={(form) => book.mutate(form)} className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-5">
      <p className="font-medium">
        {start.toFormat("cccc, LLLL d, yyyy")} · {start.toFormat("HH:mm")}–{end.toFormat("HH:mm")} ({timezone})
      </p>
      <label className="flex flex-col gap-1">
        <span>Your name</span>
        <input name="name" required maxLength={100} autoComplete="name" className={input} />
      </label>
      <label className="flex flex-col gap-1">
        <span>Email</span>
        <input name="email" type="email" required maxLength={254} autoComplete="email" className={input} />
      </label>
      {questions.map((q) => (
        <label key={q.id} className="flex flex-col gap-1">
          <span>
            {q.label}
            {q.required ? "" : " (optional)"}
          </span>
          <textarea name={`q-${q.id}`} required={q.required} maxLength={2000} rows={2} className={input} />
        </label>
      ))}
      {book.isError && book.error.error !== "slot_unavailable" && (
        <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-red-900">
          <p>{book.error.message ?? "Something went wrong; please try again."}</p>
          {book.error.issues.length > 0 && (
            <ul className="list-disc pl-5">
              {book.error.issues.map((i) => (
                <li key={i.path}>
                  {i.path}: {i.message}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      <div className="flex gap-3">
        <button type="submit" disabled={book.isPending} className="rounded-lg bg-blue-600 px-5 py-2.5 font-medium text-white hover:bg-blue-700 disabled:opacity-60">
          {book.isPending ? "Booking…" : "Confirm booking"}
        </button>
        <button type="button" onClick={onBack} className="rounded-lg px-4 py-2.5 text-slate-700 hover:bg-slate-100">
          Back
        </button>
      </div>
    </form>
  );
}

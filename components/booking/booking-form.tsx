"use client";

import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { buttonClass } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { toApiError } from "@/lib/api-client/fetch-json";
import { createBooking, type CreatedBookingDto, type SlotDto } from "@/lib/api-client/public";
import { formatClockRange, formatLongDay } from "@/lib/format";
import { bookingFailureMessage } from "./guest-messages";

export type Question = { id: string; label: string; required: boolean; type: "text" | "phone" };

/** What the guest typed. It lives above the form, so a failed submit, Back or a taken slot keep it. */
export type GuestDetails = { guestName: string; guestEmail: string; answers: Record<string, string> };

type Props = {
  username: string;
  slug: string;
  timezone: string;
  /** The guest's clock: the chosen time is written as the times were. */
  hour12: boolean;
  slot: SlotDto;
  questions: Question[];
  details: GuestDetails;
  onDetailsChange: (details: GuestDetails) => void;
  /** Kept by the widget for as long as this booking is being attempted (see createBooking). */
  idempotencyKey: string;
  onBooked: (confirmation: CreatedBookingDto) => void;
  onSlotTaken: (slot: SlotDto) => void;
  onBack: () => void;
};

// The API's paths of the fields this form shows (issues come back at these paths).
const NAME = "guestName";
const EMAIL = "guestEmail";
const answerPath = (id: string) => `customAnswers.${id}`;

/** The guest's details for one chosen slot, booked with the widget's Idempotency-Key. */
export function BookingForm(props: Props) {
  const { username, slug, timezone, hour12, slot, questions, details, onDetailsChange, idempotencyKey, onBooked, onSlotTaken, onBack } = props;
  const timeId = useId();
  const form = useRef<HTMLFormElement>(null);
  // Server issues by field path; editing a field clears its own.
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const fieldPaths = [NAME, EMAIL, ...questions.map((q) => answerPath(q.id))];

  // Choosing a slot brings the guest straight to the first field.
  useEffect(() => {
    form.current?.querySelector<HTMLElement>(`[name="${NAME}"]`)?.focus();
  }, []);

  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    // Not a form action: React resets an action form's fields, and a failed submit must keep them.
    event.preventDefault();
    if (pending) return;
    setFailure(null);
    setFieldErrors({});
    setPending(true);
    let booked: CreatedBookingDto;
    try {
      booked = await createBooking({
        username,
        slug,
        idempotencyKey,
        body: {
          startTime: slot.startTime,
          guestName: details.guestName,
          guestEmail: details.guestEmail,
          // The zone the time above is written in: what the guest saw is what is booked.
          guestTimezone: timezone,
          customAnswers: Object.fromEntries(Object.entries(details.answers).filter(([id, v]) => v !== "" && questions.some((q) => q.id === id))),
        },
      });
    } catch (caught) {
      setPending(false);
      const error = toApiError(caught);
      if (error.code === "slot_unavailable") return onSlotTaken(slot);
      const atFields = Object.fromEntries(error.issues.filter((i) => fieldPaths.includes(i.path)).map((i) => [i.path, i.message]));
      setFieldErrors(atFields);
      setFailure(bookingFailureMessage(error, { fieldIssues: Object.keys(atFields).length, timezone }));
      // The first field to correct takes the focus; its error is its description.
      const first = fieldPaths.find((p) => atFields[p]);
      if (first) requestAnimationFrame(() => form.current?.querySelector<HTMLElement>(`[name="${CSS.escape(first)}"]`)?.focus());
      return;
    }
    onBooked(booked);
  }

  function edit(path: string, change: Partial<GuestDetails>) {
    onDetailsChange({ ...details, ...change });
    if (fieldErrors[path] === undefined) return;
    setFieldErrors((errors) => {
      const rest = { ...errors };
      delete rest[path];
      return rest;
    });
  }

  return (
    <form ref={form} onSubmit={submit} aria-labelledby={timeId} className="flex flex-col gap-4">
      <p id={timeId} className="font-medium">
        {formatLongDay(slot.startTime, timezone, { year: true })} ·{" "}
        <span className="whitespace-nowrap">{formatClockRange(slot.startTime, slot.endTime, timezone, hour12)}</span>{" "}
        <span className="font-normal text-slate-600">({timezone})</span>
      </p>
      <Field label="Your name" required error={fieldErrors[NAME]}>
        {(p) => (
          <input
            {...p}
            name={NAME}
            required
            maxLength={100}
            autoComplete="name"
            value={details.guestName}
            onChange={(e) => edit(NAME, { guestName: e.target.value })}
            className={inputClass}
          />
        )}
      </Field>
      <Field label="Email" required error={fieldErrors[EMAIL]}>
        {(p) => (
          <input
            {...p}
            name={EMAIL}
            type="email"
            required
            maxLength={254}
            autoComplete="email"
            value={details.guestEmail}
            onChange={(e) => edit(EMAIL, { guestEmail: e.target.value })}
            className={inputClass}
          />
        )}
      </Field>
      {questions.map((q) => (
        <Field
          key={q.id}
          label={q.required ? q.label : `${q.label} (optional)`}
          required={q.required}
          hint={q.type === "phone" ? "With + and your country code, e.g. +1 415 555 0100." : undefined}
          error={fieldErrors[answerPath(q.id)]}
        >
          {(p) =>
            q.type === "phone" ? (
              <input
                {...p}
                name={answerPath(q.id)}
                type="tel"
                required={q.required}
                maxLength={40}
                autoComplete="tel"
                value={details.answers[q.id] ?? ""}
                onChange={(e) => edit(answerPath(q.id), { answers: { ...details.answers, [q.id]: e.target.value } })}
                className={inputClass}
              />
            ) : (
              <textarea
                {...p}
                name={answerPath(q.id)}
                required={q.required}
                maxLength={2000}
                rows={2}
                value={details.answers[q.id] ?? ""}
                onChange={(e) => edit(answerPath(q.id), { answers: { ...details.answers, [q.id]: e.target.value } })}
                className={inputClass}
              />
            )
          }
        </Field>
      ))}
      {/* Always in the page, so a message put into it is announced. */}
      <div role="alert">
        {failure && <p className="rounded-md border border-red-200 bg-red-50 p-3 text-red-900">{failure}</p>}
      </div>
      <div className="flex flex-wrap gap-3">
        <button type="submit" disabled={pending} className={buttonClass("primary")}>
          {pending ? "Booking…" : "Confirm booking"}
        </button>
        <button type="button" onClick={onBack} className={buttonClass("ghost")}>
          Back
        </button>
      </div>
    </form>
  );
}

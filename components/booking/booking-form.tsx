"use client";

import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { buttonClass } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { toApiError } from "@/lib/browser/api-client/fetch-json";
import { createBooking, type CreatedBookingDto, type SlotDto } from "@/lib/browser/api-client/public";
import { formatClockRange, formatLongDay } from "@/lib/time/format";
import { zoneName } from "@/lib/time/zones";
import type { PageMessages } from "@/lib/i18n/en";
import { fill, plural } from "@/lib/i18n/fill";
import { checkAnswer, EMAIL_PATTERN, type AnswerCheck } from "@/lib/question-answers";
import { useGuestText } from "./guest-i18n";
import { bookingFailureMessage, fieldsToCorrect } from "./guest-messages";
import { guessCountry, knownCountry, loadPhoneLib, readPhone, type PhoneLib } from "./phone-lib";
import { QuestionField, type Question } from "./question-field";
import { SeriesChoice, type Recurrence, type SeriesState } from "./series-choice";

export type { Question };

/**
 * What the guest typed. It lives above the form, so a failed submit, Back or a taken slot keep
 * it. A phone answer is the number as shown; its country is kept beside it.
 */
export type GuestDetails = { guestName: string; guestEmail: string; answers: Record<string, string>; phoneCountries: Record<string, string> };

type Props = {
  username: string;
  slug: string;
  timezone: string;
  /** The guest's clock: the chosen time is written as the times were. */
  hour12: boolean;
  slot: SlotDto;
  questions: Question[];
  /** The host approves each booking: the button requests one. */
  requiresConfirmation?: boolean;
  /** A recurring event type: the guest may book a series (decisions §19). */
  recurrence?: Recurrence;
  /** A group session's seats per start: the chosen time says how many are left. */
  seatsMax?: number;
  /** A paid event type (decisions §20): booking holds the time, and the guest goes on to pay. */
  paid?: boolean;
  /** Inside another site's frame: Stripe's Checkout refuses to be framed, so it opens in the whole window. */
  embed?: boolean;
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

type Errors = Record<string, string>;

/**
 * One answer as the browser can check it: the API's own rules (lib/question-answers.ts), a phone
 * number read against the country chosen beside it. Without the phone library (not loaded yet)
 * a number goes to the server as typed, which says what is wrong with it.
 */
function checkOne(q: Question, details: GuestDetails, lib: PhoneLib | null): AnswerCheck {
  const country = details.phoneCountries[q.id] ?? guessCountry();
  return checkAnswer(q, details.answers[q.id], {
    phone: (text) => (lib ? readPhone(lib, text, knownCountry(lib, country)) : text),
    phoneMessage: "This is not a phone number of the country chosen. Check the number, or start it with + and the country code.",
  });
}

/** A refused answer in the guest's words (the rules' own messages are the API's English). */
function problemWords(check: Extract<AnswerCheck, { ok: false }>, m: PageMessages): string {
  switch (check.problem) {
    case "required":
      return m.answerRequired;
    case "too_long":
      return fill(m.tooLong, { count: String(check.max) });
    case "email":
      return m.emailInvalid;
    case "number":
      return m.numberInvalid;
    case "number_thousands":
      return m.numberThousands;
    case "phone":
      return m.phoneInvalid;
    case "choice":
      return m.choiceInvalid;
  }
}

/** Every field checked at once: the message at each path that needs another look. */
function checkAll(questions: Question[], details: GuestDetails, lib: PhoneLib | null, m: PageMessages): Errors {
  const errors: Errors = {};
  if (!details.guestName.trim()) errors[NAME] = m.nameRequired;
  const email = details.guestEmail.trim();
  if (!email) errors[EMAIL] = m.emailRequired;
  else if (!EMAIL_PATTERN.test(email)) errors[EMAIL] = m.emailInvalid;
  for (const q of questions) {
    const check = checkOne(q, details, lib);
    if (!check.ok) errors[answerPath(q.id)] = problemWords(check, m);
  }
  return errors;
}

/** The guest's details for one chosen slot, booked with the widget's Idempotency-Key. */
export function BookingForm(props: Props) {
  const { username, slug, timezone, hour12, slot, questions, requiresConfirmation = false, recurrence, seatsMax, paid = false, embed = false, details, onDetailsChange, idempotencyKey, onBooked, onSlotTaken, onBack } = props;
  const text = useGuestText();
  const { m, intl, locale } = text;
  const timeId = useId();
  const form = useRef<HTMLFormElement>(null);
  // Server issues by field path; editing a field clears its own.
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  // The message under the form. One that points at marked fields goes with the last of them
  // (its wording stays as it was said: a live region re-reading it at every fix would be noise).
  const [failure, setFailure] = useState<{ text: string; atFields: boolean } | null>(null);
  const shownFailure = failure && !(failure.atFields && Object.keys(fieldErrors).length === 0) ? failure.text : null;
  const fieldPaths = [NAME, EMAIL, ...questions.map((q) => answerPath(q.id))];
  const hasPhone = questions.some((q) => q.type === "phone");
  const [phoneLib, setPhoneLib] = useState<PhoneLib | null>(null);
  // One session, or a series the guest has seen whole and free (series-choice.tsx).
  const [series, setSeries] = useState<SeriesState>({ occurrences: 1, ready: true });
  const [recheck, setRecheck] = useState(0);

  // Choosing a slot brings the guest straight to the first field.
  useEffect(() => {
    form.current?.querySelector<HTMLElement>(`[name="${NAME}"]`)?.focus();
  }, []);

  // The phone library is fetched once a form with a phone question is open (not with the page).
  useEffect(() => {
    if (!hasPhone) return;
    let live = true;
    loadPhoneLib().then(
      (lib) => live && setPhoneLib(lib),
      () => undefined, // offline: numbers go as typed, and the server checks them
    );
    return () => {
      live = false;
    };
  }, [hasPhone]);

  /** The errors shown, the first of them focused. */
  function showErrors(errors: Errors) {
    setFieldErrors(errors);
    const first = fieldPaths.find((p) => errors[p]);
    // Its error is its description, read out as it takes the focus.
    if (first) requestAnimationFrame(() => form.current?.querySelector<HTMLElement>(`[name="${CSS.escape(first)}"]`)?.focus());
  }

  const [pending, setPending] = useState(false);
  // A paid booking's Checkout, once the time is held: the browser is on its way there.
  const [checkoutUrl, setCheckoutUrl] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    // Not a form action: React resets an action form's fields, and a failed submit must keep them.
    event.preventDefault();
    if (pending || !series.ready) return;
    setFailure(null);
    const lib = hasPhone ? await loadPhoneLib().catch(() => null) : null;
    const local = checkAll(questions, details, lib, m);
    if (Object.keys(local).length > 0) {
      setFailure({ text: fieldsToCorrect(Object.keys(local).length, text), atFields: true });
      showErrors(local);
      return;
    }
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
          // The language this page is in: the booking's emails are written in it.
          guestLanguage: locale,
          ...(series.occurrences > 1 ? { occurrences: series.occurrences } : {}),
          // The answers as checked: phone numbers in E.164, checkboxes one option a line.
          customAnswers: Object.fromEntries(
            questions.flatMap((q) => {
              const check = checkOne(q, details, lib);
              return check.ok && check.value !== undefined ? [[q.id, check.value]] : [];
            }),
          ),
        },
      });
    } catch (caught) {
      setPending(false);
      const error = toApiError(caught);
      // A series refused for some of its dates: they are checked again and marked in the list.
      if (error.code === "slot_unavailable" && series.occurrences > 1 && Array.isArray(error.details.unavailable)) {
        setSeries((s) => ({ ...s, ready: false }));
        return setRecheck((n) => n + 1);
      }
      if (error.code === "slot_unavailable") return onSlotTaken(slot);
      // Every issue at its field at once (the first one said wins where a field has two).
      const atFields: Errors = {};
      for (const issue of error.issues) if (fieldPaths.includes(issue.path)) atFields[issue.path] ??= issue.message;
      const fieldIssues = Object.keys(atFields).length;
      setFailure({ text: bookingFailureMessage(error, { fieldIssues, timezone, text }), atFields: fieldIssues > 0 });
      showErrors(atFields);
      return;
    }
    // A paid event type: the time is held, and the booking is made once it is paid at Stripe,
    // which sends the guest back to the booking's own page.
    if (booked.payment?.checkoutUrl) {
      setCheckoutUrl(booked.payment.checkoutUrl);
      if (embed) window.open(booked.payment.checkoutUrl, "_top");
      else window.location.assign(booked.payment.checkoutUrl);
      return;
    }
    onBooked(booked);
  }

  /** A change to one field; an error shown there goes as soon as the field is right (or says what is still wrong). */
  function edit(path: string, change: Partial<GuestDetails>) {
    const next = { ...details, ...change };
    onDetailsChange(next);
    if (fieldErrors[path] === undefined) return;
    const now = checkAll(questions, next, phoneLib, m)[path];
    setFieldErrors((errors) => {
      const rest = { ...errors };
      if (now === undefined) delete rest[path];
      else rest[path] = now;
      return rest;
    });
  }

  return (
    // noValidate: the browser's own bubbles name one field at a time; this form names them all.
    <form ref={form} onSubmit={submit} noValidate aria-labelledby={timeId} className="flex flex-col gap-4">
      <p id={timeId} className="font-medium">
        {formatLongDay(slot.startTime, timezone, { year: true, locale: intl })} ·{" "}
        <span className="whitespace-nowrap">{formatClockRange(slot.startTime, slot.endTime, timezone, hour12, intl)}</span>{" "}
        <span className="font-normal text-slate-600">({zoneName(timezone, new Date(slot.startTime), intl)})</span>
        {slot.seatsRemaining !== undefined && seatsMax !== undefined && (
          <span className="block text-sm font-normal text-slate-600">{plural(locale, m.seatsLeftOf, slot.seatsRemaining, { max: seatsMax })}</span>
        )}
      </p>
      {recurrence && (
        <SeriesChoice
          owner={username}
          slug={slug}
          startTime={slot.startTime}
          timezone={timezone}
          hour12={hour12}
          recurrence={recurrence}
          occurrences={series.occurrences}
          onChange={setSeries}
          recheck={recheck}
        />
      )}
      <Field label={m.yourName} required error={fieldErrors[NAME]}>
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
      <Field label={m.email} required error={fieldErrors[EMAIL]}>
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
      {questions.map((q) => {
        const path = answerPath(q.id);
        return (
          <QuestionField
            key={q.id}
            question={q}
            name={path}
            value={details.answers[q.id] ?? ""}
            onChange={(value) => edit(path, { answers: { ...details.answers, [q.id]: value } })}
            error={fieldErrors[path]}
            phone={{
              lib: phoneLib,
              country: phoneLib ? knownCountry(phoneLib, details.phoneCountries[q.id] ?? guessCountry()) : (details.phoneCountries[q.id] ?? guessCountry()),
              onChange: (text, country) => edit(path, { answers: { ...details.answers, [q.id]: text }, phoneCountries: { ...details.phoneCountries, [q.id]: country } }),
            }}
          />
        );
      })}
      {/* Always in the page, so a message put into it is announced. */}
      <div role="alert">
        {shownFailure && <p className="rounded-md border border-red-200 bg-red-50 p-3 text-red-900">{shownFailure}</p>}
      </div>
      {checkoutUrl ? (
        // Words while Stripe's page loads, and its link should the browser not go (a frame kept from the top window).
        <p role="status" className="text-slate-700">
          <a href={checkoutUrl} target={embed ? "_top" : undefined} className="underline underline-offset-2">
            {m.openingPayment}
          </a>
        </p>
      ) : (
        <div className="flex flex-wrap gap-3">
          <button type="submit" disabled={pending || !series.ready} className={buttonClass("primary")}>
            {pending ? m.booking : paid ? m.continueToPayment : requiresConfirmation ? m.requestBooking : m.confirmBooking}
          </button>
          <button type="button" onClick={onBack} className={buttonClass("ghost")}>
            {m.back}
          </button>
        </div>
      )}
    </form>
  );
}

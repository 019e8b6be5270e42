"use client";

import { useQueryClient } from "@tanstack/react-query";
import { DateTime } from "luxon";
import { useState, useSyncExternalStore } from "react";
import { BookingForm, type Confirmation, type Question } from "./booking-form";
import { SlotPicker, type Slot } from "./slot-picker";

type Props = { username: string; slug: string; hostTimezone: string; questions: Question[] };

const subscribeNever = () => () => {};
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

function zoneChoices(current: string): string[] {
  const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return zones.includes(current) ? zones : [current, ...zones];
}

/** Pick a slot in your own timezone, give your details, get a confirmation with a cancel link. */
export function BookingWidget({ username, slug, hostTimezone, questions }: Props) {
  // The guest's zone is the browser's: known only in the browser, so the server renders none.
  const detected = useSyncExternalStore(subscribeNever, browserZone, () => null);
  const [chosenZone, setChosenZone] = useState<string | null>(null);
  const timezone = chosenZone ?? detected;
  const [week, setWeek] = useState(0);
  const [slot, setSlot] = useState<Slot | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);
  const queryClient = useQueryClient();

  if (!timezone) return <p className="text-slate-500">Loading available times…</p>;

  if (confirmation) {
    return (
      <section role="status" className="flex flex-col gap-3 rounded-lg border border-green-200 bg-green-50 p-5 text-green-950">
        <h2 className="text-xl font-semibold">You are booked</h2>
        <p>{confirmation.confirmationMessage}</p>
        <p className="text-sm">
          Plans change? <a href={confirmation.cancelUrl} className="underline">Cancel this booking</a> with this link (keep it: it is the only way).
        </p>
      </section>
    );
  }

  const from = DateTime.now().setZone(timezone).plus({ weeks: week }).toISODate()!;
  return (
    <div className="flex flex-col gap-5">
      <label className="flex flex-wrap items-center gap-2 text-sm">
        <span>Times are shown in</span>
        <select value={timezone} onChange={(e) => setChosenZone(e.target.value)} className="rounded-md border border-slate-300 px-2 py-1" aria-label="Timezone">
          {zoneChoices(timezone).map((z) => (
            <option key={z} value={z}>
              {z}
            </option>
          ))}
        </select>
        {timezone !== hostTimezone && <span className="text-slate-500">(the host is in {hostTimezone})</span>}
      </label>
      {notice && (
        <p role="alert" className="rounded-md border border-amber-200 bg-amber-50 p-3 text-amber-900">
          {notice}
        </p>
      )}
      {slot ? (
        <BookingForm
          username={username}
          slug={slug}
          timezone={timezone}
          slot={slot}
          questions={questions}
          onBooked={setConfirmation}
          onBack={() => setSlot(null)}
          onSlotGone={(message) => {
            setSlot(null);
            setNotice(message);
            void queryClient.invalidateQueries({ queryKey: ["slots", username, slug] });
          }}
        />
      ) : (
        <SlotPicker
          username={username}
          slug={slug}
          timezone={timezone}
          from={from}
          canGoBack={week > 0}
          onWeek={(delta) => setWeek((w) => Math.max(0, w + delta))}
          onPick={(picked) => {
            setNotice(null);
            setSlot(picked);
          }}
        />
      )}
    </div>
  );
}

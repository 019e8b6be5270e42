"use client";

import type { UseFormReturn } from "react-hook-form";
import { TextField } from "@/components/ui/form-field";
import type { EventTypeValues } from "@/lib/forms/event-type";
import { DurationFollowUp } from "./duration-follow-up";

const numberInput = { type: "number", inputMode: "numeric", step: 5 } as const;

/** How long it lasts, how often it may start, and the free time kept around it. */
export function TimeSection({
  form,
  savedMinutes,
  className,
}: {
  form: UseFormReturn<EventTypeValues, undefined, EventTypeValues>;
  /** A stored event type's duration: a change offers to update what still says the old one. */
  savedMinutes?: number;
  className: string;
}) {
  const { control } = form;
  return (
    <section className={className}>
      <h2 className="text-lg font-semibold">Time</h2>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <div>
          <TextField control={control} name="durationMinutes" label="Duration (minutes)" required hint="5 to 720." {...numberInput} min={5} max={720} />
          {savedMinutes !== undefined && <DurationFollowUp form={form} savedMinutes={savedMinutes} />}
        </div>
        <TextField
          control={control}
          name="slotIntervalMinutes"
          label="Start times every (minutes)"
          hint="Leave empty to use the duration."
          {...numberInput}
          min={5}
          max={720}
          placeholder="Same as the duration"
        />
        <TextField control={control} name="bufferBeforeMinutes" label="Free time before (minutes)" hint="Kept clear before each booking." {...numberInput} min={0} max={240} />
        <TextField control={control} name="bufferAfterMinutes" label="Free time after (minutes)" hint="Kept clear after each booking." {...numberInput} min={0} max={240} />
      </div>
    </section>
  );
}

"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { useApiForm } from "@/components/ui/use-api-form";
import { useHydrated } from "@/components/ui/use-hydrated";
import { meQuery } from "@/lib/browser/api-client/account";
import type { EventTypeDto } from "@/lib/browser/api-client/event-types";
import { paymentsQuery } from "@/lib/browser/api-client/payments";
import { moneyLocaleOf } from "@/lib/dashboard/payment-words";
import { DEFAULT_MONEY, eventTypeValues, type EventTypeValues } from "@/lib/forms/event-type";
import { eventTypeRules } from "@/lib/forms/event-type-rules";
import { BookingRulesSection } from "./booking-rules";
import { ConflictCalendarsSection } from "./conflict-calendars";
import { homeOf, hostChoicesOf, type EditorOwner } from "./owner";
import { PriceSection } from "./price-section";
import { QuestionEditor } from "./question-editor";
import { ReminderEditor } from "./reminder-editor";
import { SaveFailureSummary } from "./save-failure";
import { GroupSessionSection, RecurringSection } from "./seats-and-recurrence";
import { TeamHostsSection } from "./team-hosts";
import { TimeSection } from "./time-section";
import { useEventTypeSave } from "./use-event-type-save";
import { WhatGuestsBook } from "./what-guests-book";

const sectionClass = "flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-5";

/**
 * Create (no `eventType`) or edit every field the API has, custom questions included, of the
 * host's own event type or a team's: one form, whose team section (how bookings are shared, who
 * hosts, decisions §15) appears for a team.
 */
export function EventTypeForm({ owner, eventType }: { owner: EditorOwner; eventType?: EventTypeDto }) {
  const router = useRouter();
  // Amounts as the host writes money (their language), a new price in the currency they last used;
  // both are in the first HTML (the page prefetches them), so the form starts the same on both sides.
  const language = useQuery(meQuery()).data?.language;
  const lastCurrency = useQuery(paymentsQuery()).data?.currencyDefault;
  const money = { locale: moneyLocaleOf(language), currency: lastCurrency ?? DEFAULT_MONEY.currency };
  // Checked here first with the API's own schema, then by the API; problems by the API path of their field.
  const apiForm = useApiForm<EventTypeValues>({
    rules: eventTypeRules(owner.kind, eventType ? "change" : "create"),
    defaultValues: eventTypeValues(eventType, hostChoicesOf(owner), money),
  });
  const { form, formRef, problems } = apiForm;
  const { submit, pending, failed } = useEventTypeSave(owner, eventType, apiForm);
  // Typing into the server's HTML before hydration would be lost: the fields wait for it.
  const hydrated = useHydrated();
  const { control } = form;

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="flex flex-col gap-6">
      <fieldset disabled={!hydrated} className="contents">
        <SaveFailureSummary failed={failed} stillWrong={Object.keys(problems).length} isNew={!eventType} />
        <WhatGuestsBook form={form} owner={owner.kind} isNew={!eventType} className={sectionClass} />
        {owner.kind === "team" && <TeamHostsSection control={control} members={owner.team.members} className={sectionClass} />}
        <TimeSection form={form} savedMinutes={eventType?.durationMinutes} className={sectionClass} />
        <BookingRulesSection control={control} owner={owner.kind} className={sectionClass} />
        <ConflictCalendarsSection control={control} owner={owner.kind} className={sectionClass} />
        <GroupSessionSection control={control} owner={owner.kind} className={sectionClass} />
        <RecurringSection control={control} owner={owner.kind} className={sectionClass} />
        <PriceSection control={control} className={sectionClass} />
        <ReminderEditor control={control} className={sectionClass} />
        <section className={sectionClass} aria-labelledby="questions-heading">
          <QuestionEditor control={control} />
        </section>
        <div className="flex flex-wrap gap-3">
          <Button type="submit" disabled={pending}>
            {pending ? "Saving…" : eventType ? "Save changes" : "Create event type"}
          </Button>
          <Button variant="ghost" onClick={() => router.push(homeOf(owner).href)}>
            Cancel
          </Button>
        </div>
      </fieldset>
    </form>
  );
}

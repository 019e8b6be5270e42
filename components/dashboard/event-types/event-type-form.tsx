"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextAreaField, TextField } from "@/components/ui/form-field";
import { useApiForm } from "@/components/ui/use-api-form";
import { useHydrated } from "@/components/ui/use-hydrated";
import type { ApiError } from "@/lib/browser/api-client/fetch-json";
import {
  createEventType,
  eventTypeKeys,
  updateEventType,
  type EventTypeDto,
  type EventTypeInputOf,
  type EventTypeOwner,
  type TeamEventTypeDto,
} from "@/lib/browser/api-client/event-types";
import type { TeamMemberDto } from "@/lib/browser/api-client/teams";
import {
  eventTypeChangeRules,
  eventTypeFieldOf,
  eventTypeServerWords,
  eventTypeValues,
  newEventTypeRules,
  toEventTypeBody,
  unplacedWords,
  type EventTypeValues,
} from "@/lib/forms/event-type";
import { notSavedSentence } from "@/lib/forms/field-errors";
import { newTeamEventTypeRules, teamEventTypeChangeRules, teamEventTypeFieldOf, teamEventTypeValues, toTeamEventTypeBody } from "@/lib/forms/team";
import { slugify } from "@/lib/slugify";
import { BookingRulesSection } from "./booking-rules";
import { DurationFollowUp } from "./duration-follow-up";
import { LocationField } from "./location-field";
import { QuestionEditor } from "./question-editor";
import { ReminderEditor } from "./reminder-editor";
import { TeamHostsSection } from "./team-hosts";

const sectionClass = "flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-5";
const numberInput = { type: "number", inputMode: "numeric", step: 5 } as const;

/** A team's event type: its team's id and members (the hosts are chosen among the active ones). */
type TeamOf = { id: string; members: TeamMemberDto[] };

/**
 * Create (no `eventType`) or edit every field the API has, custom questions included; with a
 * `team`, the team's event type, with how bookings are shared and who hosts (decisions §15).
 */
export function EventTypeForm({ eventType, team }: { eventType?: EventTypeDto; team?: TeamOf }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const rules = team ? (eventType ? teamEventTypeChangeRules : newTeamEventTypeRules) : eventType ? eventTypeChangeRules : newEventTypeRules;
  const fieldOf = team ? teamEventTypeFieldOf : eventTypeFieldOf;
  const back = team ? `/dashboard/teams/${team.id}` : "/dashboard/event-types";
  // Checked here first with the API's own schema, then by the API; problems by the API path of their field.
  const { form, formRef, problems, onSubmit, showServerIssues, showServerError } = useApiForm<EventTypeValues>({
    rules,
    defaultValues: team ? teamEventTypeValues(eventType as TeamEventTypeDto | undefined, team.members) : eventTypeValues(eventType),
  });
  // Typing into the server's HTML before hydration would be lost: the fields wait for it.
  const hydrated = useHydrated();
  const { control } = form;
  const [slugEdited, setSlugEdited] = useState(Boolean(eventType));
  // Above the form after a failed save: how many fields still need a change, problems no field
  // shows (`more`), or what went wrong otherwise (`message`).
  const [failed, setFailed] = useState<{ message?: string; more: string[] } | null>(null);

  const owner: EventTypeOwner = team ? { kind: "team", teamId: team.id } : { kind: "me" };
  const save = useMutation<EventTypeDto, ApiError, EventTypeInputOf<EventTypeOwner>>({
    mutationFn: (input) => (eventType ? updateEventType(owner, eventType.id, input) : createEventType(owner, input)),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: eventTypeKeys.list(owner) });
      router.push(back);
    },
    onError: (error) => {
      if (error.status === 401) return; // the dashboard is taking the person to /login
      // A team's event type conflicts only by its link, whether or not the API names the field.
      if (error.code === "conflict" && (error.details.field ?? (team ? "slug" : undefined)) === "slug") {
        showServerError("slug", team ? "The team already has an event type at this link. Choose another." : "You already have an event type at this link. Choose another.");
        return setFailed({ more: [] });
      }
      if (error.issues.length === 0) return setFailed({ message: error.message, more: [] });
      const unplaced = showServerIssues(error.issues, fieldOf, eventTypeServerWords);
      setFailed({ more: unplaced.map((i) => unplacedWords(i.message, i.path)) });
    },
  });

  // Everything the page can see is said at once, before anything is sent.
  const submit = onSubmit(
    (values) => {
      setFailed(null);
      save.mutate(team ? toTeamEventTypeBody(values) : toEventTypeBody(values));
    },
    () => setFailed({ more: [] }),
  );

  const notSaved = eventType ? "Your changes were not saved" : "Your event type was not created";
  const stillWrong = Object.keys(problems).length;
  // The count follows the fixes; with every field right and nothing else to say, the box goes.
  const summary =
    failed && (failed.message ?? (stillWrong > 0 ? notSavedSentence(notSaved, stillWrong) : failed.more.length > 0 ? `${notSaved}.` : null));

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="flex flex-col gap-6">
        <fieldset disabled={!hydrated} className="contents">
      {failed && summary && (
        <Alert tone="error">
          <p>{summary}</p>
          {failed.more.length > 0 && (
            <ul className="mt-1 list-disc pl-5">
              {failed.more.map((text) => (
                <li key={text}>{text}</li>
              ))}
            </ul>
          )}
        </Alert>
      )}

      <section className={sectionClass}>
        <h2 className="text-lg font-semibold">What guests book</h2>
        <TextField
          control={control}
          name="title"
          label="Title"
          required
          maxLength={200}
          // Until the host types a link of their own, the link follows the title.
          onText={(title) => !slugEdited && form.setValue("slug", slugify(title), { shouldValidate: true })}
        />
        <TextField
          control={control}
          name="slug"
          label="Link"
          required
          maxLength={64}
          hint={`Lower-case letters and digits, separated by single hyphens: the last part of ${team ? "the team's" : "your"} booking link.`}
          onText={() => setSlugEdited(true)}
        />
        <TextAreaField control={control} name="description" label="Description" hint="Shown on the booking page." rows={3} maxLength={5000} />
        <LocationField control={control} />
        <TextField control={control} name="color" label="Colour" type="color" className="h-10 w-16 rounded border border-slate-300" />
      </section>

      {team && <TeamHostsSection control={control} members={team.members} className={sectionClass} />}

      <section className={sectionClass}>
        <h2 className="text-lg font-semibold">Time</h2>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <div>
            <TextField control={control} name="durationMinutes" label="Duration (minutes)" required hint="5 to 720." {...numberInput} min={5} max={720} />
            {eventType && <DurationFollowUp form={form} savedMinutes={eventType.durationMinutes} />}
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

      <BookingRulesSection control={control} team={Boolean(team)} className={sectionClass} />

      <ReminderEditor control={control} className={sectionClass} />

      <section className={sectionClass} aria-labelledby="questions-heading">
        <QuestionEditor control={control} />
      </section>

      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving…" : eventType ? "Save changes" : "Create event type"}
        </Button>
        <Button variant="ghost" onClick={() => router.push(back)}>
          Cancel
        </Button>
      </div>
      </fieldset>
      </form>
  );
}

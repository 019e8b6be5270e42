"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useRef, useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { useFieldErrors } from "@/components/ui/use-field-errors";
import { ApiError } from "@/lib/browser/api-client/fetch-json";
import { createEventType, hostKeys, updateEventType, type EventTypeDto, type EventTypeInput } from "@/lib/browser/api-client/host";
import { checkEventType, eventTypeFieldOf, unplacedWords } from "@/lib/forms/event-type-checks";
import { hasErrors, notSavedSentence, placeIssues, type FieldErrors } from "@/lib/forms/field-errors";
import { slugify } from "@/lib/slugify";
import { QuestionEditor, toQuestionDrafts, toQuestionInputs, type QuestionDraft } from "./question-editor";

type State = {
  title: string;
  slug: string;
  description: string;
  durationMinutes: string;
  location: string;
  bufferBeforeMinutes: string;
  bufferAfterMinutes: string;
  /** "" = the same as the duration */
  slotIntervalMinutes: string;
  color: string;
  questions: QuestionDraft[];
};

function initialState(eventType: EventTypeDto | undefined): State {
  if (!eventType) {
    return {
      title: "",
      slug: "",
      description: "",
      durationMinutes: "30",
      location: "",
      bufferBeforeMinutes: "0",
      bufferAfterMinutes: "0",
      slotIntervalMinutes: "",
      color: "#2563eb",
      questions: [],
    };
  }
  return {
    title: eventType.title,
    slug: eventType.slug,
    description: eventType.description,
    durationMinutes: String(eventType.durationMinutes),
    location: eventType.location,
    bufferBeforeMinutes: String(eventType.bufferBeforeMinutes),
    bufferAfterMinutes: String(eventType.bufferAfterMinutes),
    slotIntervalMinutes: eventType.slotIntervalMinutes === eventType.durationMinutes ? "" : String(eventType.slotIntervalMinutes),
    color: eventType.color,
    questions: toQuestionDrafts(eventType.customQuestions),
  };
}

const toInt = (value: string) => (value.trim() === "" ? Number.NaN : Number(value));

/** The API paths a change of `key` touches: its own field, or every question's for the list. */
const pathsOf = (key: keyof State) => (path: string) => (key === "questions" ? path.startsWith("customQuestions") : path === key);

/** Create (no `eventType`) or edit every field the API has, custom questions included. */
export function EventTypeForm({ eventType }: { eventType?: EventTypeDto }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [state, setState] = useState<State>(() => initialState(eventType));
  const [slugEdited, setSlugEdited] = useState(Boolean(eventType));
  // Problems by the API path of their field; the form is checked first here, then by the API.
  const formRef = useRef<HTMLFormElement>(null);
  const problems = useFieldErrors(formRef);
  // Above the form after a failed save: how many fields still need a change, problems no field
  // shows (`more`), or what went wrong otherwise (`message`).
  const [failed, setFailed] = useState<{ message?: string; more: string[] } | null>(null);
  /** Applies a change; the problems it fixed go away at once. */
  const update = (next: State, touched: (path: string) => boolean) => {
    setState(next);
    problems.edited(checkEventType(next), touched);
  };
  const set = <K extends keyof State>(key: K, value: State[K]) => update({ ...state, [key]: value }, pathsOf(key));

  const save = useMutation<EventTypeDto, ApiError, EventTypeInput>({
    mutationFn: (input) => (eventType ? updateEventType(eventType.id, input) : createEventType(input)),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: hostKeys.eventTypes });
      router.push("/dashboard/event-types");
    },
    onError: (error) => {
      if (error.status === 401) return; // the dashboard is taking the person to /login
      if (error.code === "conflict" && error.details.field === "slug") {
        return showProblems({}, { slug: "You already have an event type at this link. Choose another." });
      }
      const placed = placeIssues(error.issues, eventTypeFieldOf);
      const more = placed.unplaced.map((i) => unplacedWords(i.message, i.path));
      if (hasErrors(placed.errors) || more.length > 0) return showProblems({}, placed.errors, more);
      setFailed({ message: error.message, more: [] });
    },
  });

  function showProblems(local: FieldErrors, server: FieldErrors = {}, more: string[] = []) {
    problems.show(local, server);
    setFailed({ more });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    // Everything the page can see is said at once, before anything is sent.
    const local = checkEventType(state);
    if (hasErrors(local)) return showProblems(local);
    setFailed(null);
    problems.clear();
    save.mutate({
      title: state.title,
      slug: state.slug,
      description: state.description,
      durationMinutes: toInt(state.durationMinutes),
      location: state.location,
      bufferBeforeMinutes: toInt(state.bufferBeforeMinutes),
      bufferAfterMinutes: toInt(state.bufferAfterMinutes),
      slotIntervalMinutes: state.slotIntervalMinutes === "" ? null : toInt(state.slotIntervalMinutes),
      color: state.color,
      customQuestions: toQuestionInputs(state.questions),
    });
  }

  const at = (path: string) => problems.errors[path];
  const notSaved = eventType ? "Your changes were not saved" : "Your event type was not created";
  const stillWrong = Object.keys(problems.errors).length;
  // The count follows the fixes; with every field right and nothing else to say, the box goes.
  const summary =
    failed && (failed.message ?? (stillWrong > 0 ? notSavedSentence(notSaved, stillWrong) : failed.more.length > 0 ? `${notSaved}.` : null));
  const number = (key: "durationMinutes" | "bufferBeforeMinutes" | "bufferAfterMinutes" | "slotIntervalMinutes") => ({
    value: state[key],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => set(key, e.target.value),
    inputMode: "numeric" as const,
    type: "number",
    className: inputClass,
  });

  function changeTitle(title: string) {
    // Until the host types a link of their own, the link follows the title.
    update({ ...state, title, slug: slugEdited ? state.slug : slugify(title) }, (path) => path === "title" || (!slugEdited && path === "slug"));
  }

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="flex flex-col gap-6">
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

      <section className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-5">
        <h2 className="text-lg font-semibold">What guests book</h2>
        <Field label="Title" required error={at("title")}>
          {(p) => (
            <input
              {...p}
              value={state.title}
              maxLength={200}
              required
              onChange={(e) => changeTitle(e.target.value)}
              className={inputClass}
            />
          )}
        </Field>
        <Field label="Link" required hint="Lower-case letters and digits, separated by single hyphens: the last part of your booking link." error={at("slug")}>
          {(p) => (
            <input
              {...p}
              value={state.slug}
              maxLength={64}
              required
              onChange={(e) => {
                setSlugEdited(true);
                set("slug", e.target.value);
              }}
              className={inputClass}
            />
          )}
        </Field>
        <Field label="Description" hint="Shown on the booking page." error={at("description")}>
          {(p) => <textarea {...p} rows={3} maxLength={5000} value={state.description} onChange={(e) => set("description", e.target.value)} className={inputClass} />}
        </Field>
        <Field label="Location" hint="An address, a phone number or a video link; sent with the confirmation." error={at("location")}>
          {(p) => <input {...p} maxLength={500} value={state.location} onChange={(e) => set("location", e.target.value)} className={inputClass} />}
        </Field>
        <Field label="Colour" error={at("color")}>
          {(p) => <input {...p} type="color" value={state.color} onChange={(e) => set("color", e.target.value)} className="h-10 w-16 rounded border border-slate-300" />}
        </Field>
      </section>

      <section className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-5">
        <h2 className="text-lg font-semibold">Time</h2>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <Field label="Duration (minutes)" required hint="5 to 720." error={at("durationMinutes")}>
            {(p) => <input {...p} {...number("durationMinutes")} min={5} max={720} step={5} required />}
          </Field>
          <Field label="Start times every (minutes)" hint="Leave empty to use the duration." error={at("slotIntervalMinutes")}>
            {(p) => <input {...p} {...number("slotIntervalMinutes")} min={5} max={720} step={5} placeholder="Same as the duration" />}
          </Field>
          <Field label="Free time before (minutes)" hint="Kept clear before each booking." error={at("bufferBeforeMinutes")}>
            {(p) => <input {...p} {...number("bufferBeforeMinutes")} min={0} max={240} step={5} />}
          </Field>
          <Field label="Free time after (minutes)" hint="Kept clear after each booking." error={at("bufferAfterMinutes")}>
            {(p) => <input {...p} {...number("bufferAfterMinutes")} min={0} max={240} step={5} />}
          </Field>
        </div>
      </section>

      <section className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-5" aria-labelledby="questions-heading">
        <QuestionEditor questions={state.questions} onChange={(questions) => set("questions", questions)} at={at} />
      </section>

      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving…" : eventType ? "Save changes" : "Create event type"}
        </Button>
        <Button variant="ghost" onClick={() => router.push("/dashboard/event-types")}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

"use client";

import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import type { EventTypeDto, EventTypeInput } from "@/lib/browser/api-client/host";
import { slugify } from "@/lib/slugify";

// The event type editor's questions for guests: each question's wording, the kind of answer it
// takes, whether it is required, and for choice questions their options (one a line: an option
// cannot hold a newline, which separates checkbox answers) and how a single choice is shown.

type QuestionType = EventTypeDto["customQuestions"][number]["type"];
type ChoiceDisplay = NonNullable<EventTypeDto["customQuestions"][number]["display"]>;

/** A question as the editor holds it: its options as the host's text, kept while the type changes. */
export type QuestionDraft = {
  key: number;
  id: string | null;
  label: string;
  required: boolean;
  type: QuestionType;
  options: string;
  display: ChoiceDisplay;
};

const TYPES: { value: QuestionType; label: string }[] = [
  { value: "text", label: "Short text" },
  { value: "long_text", label: "Long text" },
  { value: "email", label: "Email address" },
  { value: "number", label: "Number" },
  { value: "phone", label: "Phone number" },
  { value: "single_choice", label: "One choice" },
  { value: "checkboxes", label: "Several choices (checkboxes)" },
];
const isChoice = (type: QuestionType) => type === "single_choice" || type === "checkboxes";

export const MAX_QUESTIONS = 20;
let nextKey = 1;

export function toQuestionDrafts(questions: EventTypeDto["customQuestions"]): QuestionDraft[] {
  return questions.map((q) => ({
    key: nextKey++,
    id: q.id,
    label: q.label,
    required: q.required,
    type: q.type,
    options: (q.options ?? []).join("\n"),
    display: q.display ?? "radio",
  }));
}

/** The options the host wrote, one a line; blank lines are spacing, not options. */
const optionLines = (text: string) =>
  text
    .split("\n")
    .map((o) => o.trim())
    .filter(Boolean);

/**
 * The questions as the API takes them. Question ids are the keys of a guest's answers: an
 * existing question keeps its id (renaming the label does not orphan earlier answers); a new one
 * gets one made from its label.
 */
export function toQuestionInputs(drafts: QuestionDraft[]): NonNullable<EventTypeInput["customQuestions"]> {
  const taken = new Set(drafts.flatMap((q) => (q.id ? [q.id] : [])));
  return drafts.map((q, i) => {
    let id = q.id;
    if (!id) {
      const base = slugify(q.label, 40) || `question-${i + 1}`;
      id = base;
      for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
      taken.add(id);
    }
    const base = { id, label: q.label, required: q.required, type: q.type };
    if (q.type === "single_choice") return { ...base, options: optionLines(q.options), display: q.display };
    if (q.type === "checkboxes") return { ...base, options: optionLines(q.options) };
    return base;
  });
}

/** The API's complaint about a question's options: the list's own, or the first about one option. */
function optionsIssue(q: QuestionDraft, path: string, at: (path: string) => string | undefined): string | undefined {
  const own = at(`${path}.options`);
  if (own) return own;
  const lines = optionLines(q.options);
  for (let j = 0; j < lines.length; j++) {
    const issue = at(`${path}.options.${j}`);
    if (issue) return `Option ${j + 1}: ${issue}`;
  }
  return undefined;
}

const selectClass = "rounded-md border border-slate-300 bg-white px-2 py-1";

export function QuestionEditor({
  questions,
  onChange,
  at,
}: {
  questions: QuestionDraft[];
  onChange: (questions: QuestionDraft[]) => void;
  /** The error, if any, at an API path such as customQuestions.0.label. */
  at: (path: string) => string | undefined;
}) {
  function move(index: number, delta: number) {
    const moved = [...questions];
    const [q] = moved.splice(index, 1);
    moved.splice(index + delta, 0, q!);
    onChange(moved);
  }
  const change = (index: number, patch: Partial<QuestionDraft>) => onChange(questions.map((q, i) => (i === index ? { ...q, ...patch } : q)));

  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="questions-heading" className="text-lg font-semibold">
          Questions for guests
        </h2>
        <Button
          variant="secondary"
          size="sm"
          disabled={questions.length >= MAX_QUESTIONS}
          onClick={() => onChange([...questions, { key: nextKey++, id: null, label: "", required: false, type: "text", options: "", display: "radio" }])}
        >
          Add a question
        </Button>
      </div>
      {at("customQuestions") && <p className="text-sm text-red-700">{at("customQuestions")}</p>}
      {questions.length === 0 ? (
        <p className="text-sm text-slate-600">Guests give their name and email. Add questions to ask for more (up to {MAX_QUESTIONS}).</p>
      ) : (
        <ol className="flex flex-col gap-3">
          {questions.map((q, i) => {
            const path = `customQuestions.${i}`;
            return (
              <li key={q.key} className="flex flex-col gap-3 rounded-md border border-slate-200 p-3" aria-label={`Question ${i + 1}`}>
                <Field label={`Question ${i + 1}`} required error={at(`${path}.label`) ?? at(`${path}.id`)}>
                  {(p) => <input {...p} value={q.label} maxLength={200} onChange={(e) => change(i, { label: e.target.value })} className={inputClass} />}
                </Field>
                <div className="flex flex-wrap items-center gap-4">
                  <label className="flex items-center gap-2 text-sm">
                    Answer
                    <select value={q.type} onChange={(e) => change(i, { type: e.target.value as QuestionType })} className={selectClass}>
                      {TYPES.map((t) => (
                        <option key={t.value} value={t.value}>
                          {t.label}
                        </option>
                      ))}
                    </select>
                  </label>
                  {q.type === "single_choice" && (
                    <label className="flex items-center gap-2 text-sm">
                      Show as
                      <select value={q.display} onChange={(e) => change(i, { display: e.target.value as ChoiceDisplay })} className={selectClass}>
                        <option value="radio">Radio buttons</option>
                        <option value="dropdown">A dropdown</option>
                      </select>
                    </label>
                  )}
                  <label className="flex items-center gap-2 text-sm">
                    <input type="checkbox" checked={q.required} onChange={(e) => change(i, { required: e.target.checked })} className="h-4 w-4" />
                    Required
                  </label>
                </div>
                {at(`${path}.type`) && <p className="text-sm text-red-700">{at(`${path}.type`)}</p>}
                {isChoice(q.type) && (
                  <Field label="Options" required hint="One option a line, up to 50, as guests will see them." error={optionsIssue(q, path, at) ?? at(`${path}.display`)}>
                    {(p) => (
                      <textarea
                        {...p}
                        rows={Math.min(8, Math.max(3, optionLines(q.options).length + 1))}
                        value={q.options}
                        onChange={(e) => change(i, { options: e.target.value })}
                        className={inputClass}
                      />
                    )}
                  </Field>
                )}
                <div className="flex flex-wrap gap-1">
                  <Button variant="ghost" size="sm" disabled={i === 0} onClick={() => move(i, -1)} aria-label={`Move question ${i + 1} up`}>
                    Up
                  </Button>
                  <Button variant="ghost" size="sm" disabled={i === questions.length - 1} onClick={() => move(i, 1)} aria-label={`Move question ${i + 1} down`}>
                    Down
                  </Button>
                  <Button variant="ghost" size="sm" onClick={() => onChange(questions.filter((_, j) => j !== i))} aria-label={`Remove question ${i + 1}`}>
                    Remove
                  </Button>
                </div>
              </li>
            );
          })}
        </ol>
      )}
    </>
  );
}

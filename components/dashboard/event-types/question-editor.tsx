"use client";

import { useController, useFieldArray, useWatch, type Control, type FieldPath } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { FieldMessage, TextAreaField, TextField, useFieldError } from "@/components/ui/form-field";
import { isChoice, MAX_QUESTIONS, newQuestion, optionLines, type EventTypeValues, type QuestionDraft } from "@/lib/forms/event-type";

// The event type editor's questions for guests: each question's wording, the kind of answer it
// takes, whether it is required, and for choice questions their options (one a line: an option
// cannot hold a newline, which separates checkbox answers) and how a single choice is shown.

const TYPES: { value: QuestionDraft["type"]; label: string }[] = [
  { value: "text", label: "Short text" },
  { value: "long_text", label: "Long text" },
  { value: "email", label: "Email address" },
  { value: "number", label: "Number" },
  { value: "phone", label: "Phone number" },
  { value: "single_choice", label: "One choice" },
  { value: "checkboxes", label: "Several choices (checkboxes)" },
];

const selectClass = "rounded-md border border-slate-300 bg-white px-2 py-1 aria-[invalid=true]:border-red-500";

type Control_ = Control<EventTypeValues>;

/** A select in a line of settings ("Answer", "Show as"), its problem said below the line (`errorId`). */
function InlineSelect({ control, name, label, errorId, children }: { control: Control_; name: FieldPath<EventTypeValues>; label: string; errorId: string; children: React.ReactNode }) {
  const {
    field: { ref, ...field },
    fieldState,
  } = useController({ control, name });
  return (
    <label className="flex items-center gap-2 text-sm">
      {label}
      <select
        name={field.name}
        ref={ref}
        value={String(field.value)}
        onChange={(e) => field.onChange(e.target.value)}
        onBlur={field.onBlur}
        aria-invalid={Boolean(fieldState.error)}
        aria-describedby={fieldState.error ? errorId : undefined}
        className={selectClass}
      >
        {children}
      </select>
    </label>
  );
}

function RequiredBox({ control, name }: { control: Control_; name: `customQuestions.${number}.required` }) {
  const {
    field: { ref, ...field },
  } = useController({ control, name });
  return (
    <label className="flex items-center gap-2 text-sm">
      <input type="checkbox" name={field.name} ref={ref} checked={field.value} onChange={(e) => field.onChange(e.target.checked)} onBlur={field.onBlur} className="h-4 w-4" />
      Required
    </label>
  );
}

function QuestionRow({ control, index: i, count, onMove, onRemove }: { control: Control_; index: number; count: number; onMove: (delta: number) => void; onRemove: () => void }) {
  const path = `customQuestions.${i}` as const;
  const type = useWatch({ control, name: `${path}.type` });
  const options = useWatch({ control, name: `${path}.options` });
  const typeError = useFieldError(control, `${path}.type`);
  const displayError = useFieldError(control, `${path}.display`);
  const errorId = `question-${i}-settings-problem`;
  return (
    <li className="flex flex-col gap-3 rounded-md border border-slate-200 p-3" aria-label={`Question ${i + 1}`}>
      {/* The field is the question's wording: "Question 1" alone with the field's asterisk read as
          "this question is required", which is the Required box's business. */}
      <TextField control={control} name={`${path}.label`} label={`Question ${i + 1} label`} required maxLength={200} />
      <div className="flex flex-wrap items-center gap-4">
        <InlineSelect control={control} name={`${path}.type`} label="Answer" errorId={errorId}>
          {TYPES.map((t) => (
            <option key={t.value} value={t.value}>
              {t.label}
            </option>
          ))}
        </InlineSelect>
        {type === "single_choice" && (
          <InlineSelect control={control} name={`${path}.display`} label="Show as" errorId={errorId}>
            <option value="radio">Radio buttons</option>
            <option value="dropdown">A dropdown</option>
          </InlineSelect>
        )}
        <RequiredBox control={control} name={`${path}.required`} />
      </div>
      {(typeError ?? displayError) && <FieldMessage id={errorId}>{typeError ?? displayError}</FieldMessage>}
      {isChoice(type) && (
        <TextAreaField
          control={control}
          name={`${path}.options`}
          label="Options"
          required
          hint="One option a line, up to 50, as guests will see them."
          rows={Math.min(8, Math.max(3, optionLines(options).length + 1))}
        />
      )}
      <div className="flex flex-wrap gap-1">
        <Button variant="ghost" size="sm" disabled={i === 0} onClick={() => onMove(-1)} aria-label={`Move question ${i + 1} up`}>
          Up
        </Button>
        <Button variant="ghost" size="sm" disabled={i === count - 1} onClick={() => onMove(1)} aria-label={`Move question ${i + 1} down`}>
          Down
        </Button>
        <Button variant="ghost" size="sm" onClick={onRemove} aria-label={`Remove question ${i + 1}`}>
          Remove
        </Button>
      </div>
    </li>
  );
}

export function QuestionEditor({ control }: { control: Control_ }) {
  const { fields, append, move, remove } = useFieldArray({ control, name: "customQuestions" });
  const listError = useFieldError(control, "customQuestions.root");
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="questions-heading" className="text-lg font-semibold">
          Questions for guests
        </h2>
        <Button variant="secondary" size="sm" disabled={fields.length >= MAX_QUESTIONS} onClick={() => append(newQuestion(), { shouldFocus: false })}>
          Add a question
        </Button>
      </div>
      {listError && <FieldMessage>{listError}</FieldMessage>}
      {fields.length === 0 ? (
        <p className="text-sm text-slate-600">Guests give their name and email. Add questions to ask for more (up to {MAX_QUESTIONS}).</p>
      ) : (
        <ol className="flex flex-col gap-3">
          {fields.map((f, i) => (
            <QuestionRow key={f.id} control={control} index={i} count={fields.length} onMove={(delta) => move(i, i + delta)} onRemove={() => remove(i)} />
          ))}
        </ol>
      )}
    </>
  );
}

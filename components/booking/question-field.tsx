import { useId, type ReactNode } from "react";
import { Field, inputClass } from "@/components/ui/field";
import type { CustomQuestion } from "@/db/schema";
import { ANSWER_MAX_LENGTH, CHECKBOX_SEPARATOR, chosenOptions } from "@/lib/question-answers";
import { fill } from "@/lib/i18n/fill";
import { useGuestText } from "./guest-i18n";
import { countryOptions, formatAsTyped, type CountryCode, type PhoneLib } from "./phone-lib";

// One custom question of the guest's form, drawn by its type: a line or a box of text, an email
// or a decimal keypad, a phone number with its country, radio buttons or a dropdown for one
// choice, checkboxes for several. Each control is named by the API's path of its answer
// (customAnswers.<id>), so an error, wherever it came from, finds its field.

export type Question = CustomQuestion;

/** The phone field's country, per question; the library once it has loaded. */
export type PhoneState = { lib: PhoneLib | null; country: CountryCode | string; onChange: (text: string, country: string) => void };

type Props = {
  question: Question;
  name: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  phone: PhoneState;
};

/** The question's label, marked "(optional)" in the guest's language when it may be left empty. */
function useLabel(q: Question): string {
  const { m } = useGuestText();
  return q.required ? q.label : fill(m.optional, { label: q.label });
}

export function QuestionField({ question: q, name, value, onChange, error, phone }: Props) {
  const { m } = useGuestText();
  const label = useLabel(q);
  const max = ANSWER_MAX_LENGTH[q.type];
  if (q.type === "single_choice" && q.display !== "dropdown") {
    return (
      <ChoiceGroup question={q} error={error} role="radiogroup">
        {(described) =>
          (q.options ?? []).map((option) => (
            <Choice key={option} type="radio" name={name} label={option} checked={value === option} onChange={() => onChange(option)} {...described} />
          ))
        }
      </ChoiceGroup>
    );
  }
  if (q.type === "checkboxes") {
    const chosen = chosenOptions(value);
    // The answer's encoding (lib/question-answers.ts): the checked options, a line each, in the question's order.
    const toggle = (option: string, on: boolean) =>
      onChange((q.options ?? []).filter((o) => (o === option ? on : chosen.includes(o))).join(CHECKBOX_SEPARATOR));
    return (
      <ChoiceGroup question={q} error={error} hint={q.required ? m.chooseAtLeastOne : m.chooseAny}>
        {(described) =>
          (q.options ?? []).map((option) => (
            <Choice key={option} type="checkbox" name={name} label={option} checked={chosen.includes(option)} onChange={(on) => toggle(option, on)} {...described} />
          ))
        }
      </ChoiceGroup>
    );
  }
  return (
    <Field label={label} required={q.required} hint={q.type === "phone" ? m.phoneCountryHint : undefined} error={error}>
      {(p) => {
        const common = { ...p, name, required: q.required, value, className: inputClass };
        switch (q.type) {
          case "long_text":
            return <textarea {...common} maxLength={max} rows={4} onChange={(e) => onChange(e.target.value)} />;
          case "email":
            return <input {...common} type="email" maxLength={max} autoComplete="off" onChange={(e) => onChange(e.target.value)} />;
          case "number":
            return <input {...common} type="text" inputMode="decimal" maxLength={max} autoComplete="off" onChange={(e) => onChange(e.target.value)} />;
          case "phone":
            return <PhoneInput {...common} question={q} phone={phone} />;
          case "single_choice":
            return (
              <select {...common} onChange={(e) => onChange(e.target.value)}>
                <option value="">{q.required ? m.chooseOne : m.noChoice}</option>
                {(q.options ?? []).map((option) => (
                  <option key={option} value={option}>
                    {option}
                  </option>
                ))}
              </select>
            );
          default:
            return <input {...common} type="text" maxLength={max} onChange={(e) => onChange(e.target.value)} />;
        }
      }}
    </Field>
  );
}


type Described = { "aria-invalid": boolean; "aria-describedby": string | undefined };

/** Radio buttons or checkboxes under their question: a fieldset whose legend is the question. */
function ChoiceGroup({
  question: q,
  error,
  hint,
  role,
  children,
}: {
  question: Question;
  error?: string;
  hint?: string;
  role?: "radiogroup";
  children: (described: Described) => ReactNode;
}) {
  const id = useId();
  const label = useLabel(q);
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <fieldset
      role={role}
      // radiogroup takes these two; a plain group (checkboxes) does not, its checkboxes do.
      aria-required={role === "radiogroup" ? q.required : undefined}
      aria-invalid={role === "radiogroup" ? Boolean(error) : undefined}
      aria-describedby={describedBy}
      className="flex min-w-0 flex-col gap-1"
    >
      <legend className="mb-1 text-sm font-medium text-slate-800">
        {label}
        {q.required && (
          <span className="text-red-600" aria-hidden="true">
            {" "}
            *
          </span>
        )}
      </legend>
      {hint && (
        <p id={hintId} className="text-sm text-slate-500">
          {hint}
        </p>
      )}
      <div className="flex flex-col gap-1">{children({ "aria-invalid": Boolean(error), "aria-describedby": describedBy })}</div>
      {error && (
        <p id={errorId} className="text-sm text-red-700">
          {error}
        </p>
      )}
    </fieldset>
  );
}

function Choice({
  type,
  name,
  label,
  checked,
  onChange,
  ...described
}: { type: "radio" | "checkbox"; name: string; label: string; checked: boolean; onChange: (checked: boolean) => void } & Described) {
  return (
    <label className="flex min-h-11 items-center gap-3 rounded-md px-1 text-slate-900 hover:bg-slate-50">
      <input
        type={type}
        name={name}
        value={label}
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        className="h-5 w-5 shrink-0 accent-blue-600"
        // A radio group's error is the group's to say (aria-invalid is not a radio's attribute).
        {...(type === "checkbox" ? described : { "aria-describedby": described["aria-describedby"] })}
      />
      <span className="break-words">{label}</span>
    </label>
  );
}

/**
 * A phone number: the country (named, with its calling code) beside the number as the guest
 * types it, grouped the way that country writes it. Until the library is in, the field takes
 * typing as it is and the picker shows only the guessed country.
 */
function PhoneInput({
  question,
  phone,
  value,
  ...input
}: {
  question: Question;
  phone: PhoneState;
  value: string;
  id: string;
  name: string;
  required: boolean;
  className: string;
  "aria-invalid": boolean;
  "aria-describedby": string | undefined;
}) {
  const { lib, country, onChange } = phone;
  const { m, intl } = useGuestText();
  const options = lib ? countryOptions(lib, intl) : [{ code: country, label: regionName(country, intl) }];
  function type(text: string) {
    if (!lib) return onChange(text, country);
    const shown = formatAsTyped(lib, text, value, country as CountryCode);
    onChange(shown.text, shown.country);
  }
  return (
    <div className="grid grid-cols-[minmax(0,10rem)_minmax(0,1fr)] gap-2 sm:grid-cols-[minmax(0,14rem)_minmax(0,1fr)]">
      <select
        name={`${input.name}.country`}
        aria-label={fill(m.countryOf, { label: question.label })}
        value={country}
        disabled={!lib}
        onChange={(e) => {
          const chosen = e.target.value;
          // The number typed so far, grouped as the new country writes it.
          onChange(lib && value && !value.trim().startsWith("+") ? formatAsTyped(lib, value, "", chosen as CountryCode).text : value, chosen);
        }}
        className={`${inputClass} truncate`}
      >
        {options.map((o) => (
          <option key={o.code} value={o.code}>
            {o.label}
          </option>
        ))}
      </select>
      <input {...input} type="tel" value={value} maxLength={ANSWER_MAX_LENGTH.phone} autoComplete="tel" onChange={(e) => type(e.target.value)} />
    </div>
  );
}

function regionName(code: string, locale: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: "region" }).of(code) ?? code;
  } catch {
    return code;
  }
}

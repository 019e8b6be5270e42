"use client";

import { useQuery } from "@tanstack/react-query";
import { useWatch, type Control } from "react-hook-form";
import { FormField, TextField } from "@/components/ui/form-field";
import { inputClass } from "@/components/ui/field";
import { paymentsQuery } from "@/lib/browser/api-client/payments";
import type { EventTypeValues } from "@/lib/forms/event-type";
import { amountInput, COMMON_CURRENCIES, isCurrency } from "@/lib/payments/money";
import { Toggle } from "./seats-and-recurrence";

// Paid sessions (decisions §20): a switch, the amount as the host writes money in their language,
// the currency, and until when a guest's cancel is refunded. Payments are the installation's
// (its operator's Stripe account): without them the section says so and the switch stays off;
// a price saved before they were taken away can still be switched off.

type Control_ = Control<EventTypeValues>;

let names: Intl.DisplayNames | undefined;
/** "EUR – Euro": the code a host knows from invoices, and its name. */
function currencyLabel(code: string): string {
  names ??= new Intl.DisplayNames(["en"], { type: "currency" });
  const name = names.of(code.toUpperCase());
  return name && name.toUpperCase() !== code.toUpperCase() ? `${code.toUpperCase()} – ${name}` : code.toUpperCase();
}

function NotSetUp() {
  return (
    <p className="rounded-md bg-slate-50 p-3 text-sm text-slate-600">
      Payments are not set up on this service. Its operator connects a Stripe account first (the steps are in docs/payments.md); then you can
      ask guests to pay when they book.
    </p>
  );
}

export function PriceSection({ control, className }: { control: Control_; className: string }) {
  const payments = useQuery(paymentsQuery());
  const price = useWatch({ control, name: "price" });
  // While unknown (a failed load), the switch works: the API says at the switch if payments are off.
  const configured = payments.data?.configured ?? true;
  const currencies: string[] = [...COMMON_CURRENCIES];
  if (isCurrency(price.currency) && !currencies.includes(price.currency)) currencies.push(price.currency);
  const example = amountInput(4990, isCurrency(price.currency) ? price.currency : "eur", price.locale);
  return (
    <section className={className} aria-labelledby="price-heading">
      <h2 id="price-heading" className="text-lg font-semibold">
        Price
      </h2>
      {!configured && <NotSetUp />}
      <Toggle
        control={control}
        name="price.on"
        label="Take payment when booking"
        hint="Guests pay by card through Stripe when they book; the time is held for them while they pay."
        disabled={!configured && !price.on}
      />
      {price.on && (
        <div className="flex flex-col gap-4">
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <TextField control={control} name="price.amount" label="Amount" hint={`For example ${example}.`} inputMode="decimal" autoComplete="off" required />
            <FormField control={control} name="price.currency" label="Currency">
              {(p, field) => (
                <select {...p} name={field.name} ref={field.ref} value={field.value} onBlur={field.onBlur} onChange={(e) => field.onChange(e.target.value)} className={inputClass}>
                  {currencies.map((c) => (
                    <option key={c} value={c}>
                      {currencyLabel(c)}
                    </option>
                  ))}
                </select>
              )}
            </FormField>
          </div>
          <div className="sm:max-w-xs">
            <TextField
              control={control}
              name="price.refundableUntilHours"
              label="Refund a guest's cancel until (hours before the start)"
              hint="Up to 720. A guest who cancels later gets nothing back; when you cancel or decline, they always get everything back."
              type="number"
              inputMode="numeric"
              step={1}
              min={0}
              max={720}
            />
          </div>
        </div>
      )}
    </section>
  );
}

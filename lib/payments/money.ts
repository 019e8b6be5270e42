// Money for people and for Stripe, in one room: amounts are integers in a currency's minor units
// everywhere (cents, or yen: JPY has none), shown with Intl.NumberFormat in the reader's locale and
// read back from what a host types in theirs. Pure, Intl only: shared by the browser and the server.

/** Currencies Stripe counts in whole units (no minor unit): ¥500 is `500`. */
const ZERO_DECIMAL = new Set(["bif", "clp", "djf", "gnf", "jpy", "kmf", "krw", "mga", "pyg", "rwf", "ugx", "vnd", "vuv", "xaf", "xof", "xpf"]);
/** Currencies Stripe counts in thousandths: 5.125 BHD is `5125`. */
const THREE_DECIMAL = new Set(["bhd", "jod", "kwd", "omr", "tnd"]);

/** The currencies the price form offers first; any other ISO 4217 code Intl knows is taken too. */
export const COMMON_CURRENCIES = ["eur", "usd", "gbp", "chf", "cad", "aud", "nzd", "jpy", "sek", "nok", "dkk", "pln", "czk", "brl", "mxn", "inr", "sgd", "zar"] as const;

/** How many digits of a currency's amount are its minor units, as Stripe counts them (0, 2 or 3). */
export function minorDigits(currency: string): number {
  const code = currency.toLowerCase();
  if (ZERO_DECIMAL.has(code)) return 0;
  if (THREE_DECIMAL.has(code)) return 3;
  return 2;
}

let known: Set<string> | undefined;
/** Whether `currency` is an ISO 4217 code (lower case, as Stripe writes them) that Intl can show. */
export function isCurrency(currency: string): boolean {
  known ??= new Set(Intl.supportedValuesOf("currency").map((c) => c.toLowerCase()));
  return /^[a-z]{3}$/.test(currency) && known.has(currency);
}

function formatter(currency: string, locale: string, withSymbol: boolean): Intl.NumberFormat {
  const digits = minorDigits(currency);
  return new Intl.NumberFormat(locale, {
    ...(withSymbol ? { style: "currency" as const, currency: currency.toUpperCase() } : {}),
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

/** "€49.90", "49,90 €", "¥5,000": an amount in minor units, in the reader's locale. */
export function formatMoney(amount: number, currency: string, locale: string): string {
  return formatter(currency, locale, true).format(amount / 10 ** minorDigits(currency));
}

/** "49.90" / "49,90": the amount as a host types it in their locale, without the currency (the price form's value). */
export function amountInput(amount: number, currency: string, locale: string): string {
  return formatter(currency, locale, false).format(amount / 10 ** minorDigits(currency)).replace(/[\s\u00a0\u202f]/g, "");
}

/**
 * What a host typed, in minor units: "49,90" in German and "49.90" in English are both 4990 cents;
 * group separators are allowed ("1.250,00", "1,250.00"). Undefined when it is not an amount, or
 * has more decimals than the currency has (¥49.5).
 */
export function parseAmount(text: string, currency: string, locale: string): number | undefined {
  const parts = new Intl.NumberFormat(locale).formatToParts(12345.6);
  const decimal = parts.find((p) => p.type === "decimal")?.value ?? ".";
  const group = parts.find((p) => p.type === "group")?.value ?? ",";
  let s = text.trim().replace(/[\s\u00a0\u202f]/g, "");
  if (s === "") return undefined;
  // A host may type the other common separator when theirs is a group mark: "49.90" in German
  // reads as 49.90 only when it cannot be a group ("1.250" stays 1250).
  const groups = group === "." || group === "," ? new RegExp(`\\${group}(?=\\d{3}(\\D|$))`, "g") : undefined;
  if (groups) s = s.replace(groups, "");
  s = s.replace(decimal, ".");
  if (decimal !== "." && s.includes(",")) return undefined;
  if (!/^\d+(\.\d+)?$/.test(s)) return undefined;
  const [whole, fraction = ""] = s.split(".");
  const digits = minorDigits(currency);
  if (fraction.length > digits) return undefined;
  const minor = Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, "0") || "0");
  return Number.isSafeInteger(minor) ? minor : undefined;
}

import { parsePhoneNumberFromString } from "libphonenumber-js/max";

// Phone numbers are stored and dialled in E.164 (+14155550100). Without a country to assume,
// a number must be written internationally (with + and the country code): a guest's
// "030 1234567" could be Berlin or anywhere else. The full ("max") metadata checks each
// country's real number ranges, not only lengths.

export const PHONE_FORMAT_HINT = "Must be a phone number in international format, with + and the country code (e.g. +1 415 555 0100)";

/** The number in E.164, or undefined when it is not a valid phone number. */
export function toE164(text: string): string | undefined {
  const number = parsePhoneNumberFromString(text.trim());
  return number?.isValid() ? number.number : undefined;
}

/** A stored (E.164) number as people read it: "+1 415 555 0100"; anything else as it is. */
export function readablePhone(stored: string): string {
  return parsePhoneNumberFromString(stored)?.formatInternational() ?? stored;
}

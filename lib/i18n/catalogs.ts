import { de } from "./de";
import { en, type Messages } from "./en";
import { es } from "./es";
import { fr } from "./fr";
import { pt } from "./pt";
import type { Locale } from "./locales";

// Every language's catalog: for the server only (emails, API sentences, server-rendered pages).
// A page hands the browser only its active language's `page` part, as props; nothing under
// components/ imports this module (the booking page's JavaScript budget, see docs/benchmarks.md).

export const CATALOGS: Record<Locale, Messages> = { en, de, fr, es, pt };

export function messagesOf(locale: Locale): Messages {
  return CATALOGS[locale];
}

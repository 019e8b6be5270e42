"use client";

import { useRouter } from "next/navigation";
import { createContext, useContext, useEffect, useId, useMemo, useTransition, type ReactNode } from "react";
import type { PageMessages } from "@/lib/i18n/en";
import { firstSupported, INTL_TAG, LANG_COOKIE, LANG_PARAM, LANGUAGE_NAMES, LOCALES, type Locale, type LocaleSource } from "@/lib/i18n/locales";

// The guest's language in the browser: the server chose it and sent its words (this language's
// only: the other catalogs never reach the browser); the guest may switch with LanguageSelect,
// which asks the server for the page again in the new language (what was typed and picked stays:
// the components keep their state across the refresh).

export type GuestText = {
  locale: Locale;
  /** The Intl tag dates and times are written with ("de-DE"). */
  intl: string;
  m: PageMessages;
};

const GuestTextContext = createContext<GuestText | null>(null);

// The page's words for code that is not a component (failure messages built in an event
// handler). Set in the browser only (an effect), never during a server render, where requests
// in other languages run side by side.
let active: GuestText | undefined;

/** The words of the guest page open in this browser tab, once it has mounted. */
export function activeGuestText(): GuestText | undefined {
  return active;
}

/** The guest's words, from the nearest GuestI18n. */
export function useGuestText(): GuestText {
  const text = useContext(GuestTextContext);
  if (!text) throw new Error("useGuestText outside GuestI18n: the page must hand its catalog down");
  return text;
}

const YEAR = 365 * 24 * 3600;

function rememberLocale(locale: Locale) {
  try {
    document.cookie = `${LANG_COOKIE}=${locale}; path=/; max-age=${YEAR}; samesite=lax`;
  } catch {
    // cookies refused (a sandboxed frame): ?lang= still carries the choice
  }
}

export function GuestI18n({ locale, messages, source, children }: { locale: Locale; messages: PageMessages; source: LocaleSource; children: ReactNode }) {
  const router = useRouter();
  useEffect(() => {
    // A language named in the address is the guest's choice: remembered, so that the booking
    // made from this page (its emails) and the next visit use it too.
    if (source === "param") rememberLocale(locale);
    // The request said no language at all (no Accept-Language): the browser's own list decides.
    if (source === "default") {
      const preferred = firstSupported(navigator.languages ?? [navigator.language]);
      if (preferred && preferred !== locale) {
        rememberLocale(preferred);
        router.refresh();
      }
    }
  }, [locale, source, router]);
  const value = useMemo(() => ({ locale, intl: INTL_TAG[locale], m: messages }), [locale, messages]);
  useEffect(() => {
    active = value;
  }, [value]);
  return <GuestTextContext.Provider value={value}>{children}</GuestTextContext.Provider>;
}

/**
 * A small select of the five languages, each by its own name. The choice goes into a cookie
 * (remembered) and the address (`?lang=`: works where a frame may not keep cookies, and can be
 * shared); the server then renders the page again in it.
 */
export function LanguageSelect({ className = "" }: { className?: string }) {
  const { locale, m } = useGuestText();
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const id = useId();
  function choose(next: Locale) {
    rememberLocale(next);
    const url = new URL(window.location.href);
    url.searchParams.set(LANG_PARAM, next);
    startTransition(() => router.replace(`${url.pathname}${url.search}${url.hash}`, { scroll: false }));
  }
  return (
    <div className={`relative inline-flex items-center ${className}`}>
      {/* Named in the page's language and, for a guest who cannot read it, in English too. */}
      <label htmlFor={id} className="sr-only">
        {locale === "en" ? m.language : `${m.language} (Language)`}
      </label>
      <svg aria-hidden="true" viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="1.5" className="pointer-events-none absolute left-2.5 size-4 text-slate-500">
        <circle cx="10" cy="10" r="7.25" />
        <ellipse cx="10" cy="10" rx="3" ry="7.25" />
        <path d="M2.75 10h14.5" />
      </svg>
      <select
        id={id}
        value={locale}
        disabled={pending}
        onChange={(e) => choose(e.target.value as Locale)}
        className="h-9 cursor-pointer appearance-none rounded-md border border-slate-300 bg-white py-1 pr-7 pl-8 text-sm text-slate-700 hover:border-slate-400 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 disabled:cursor-wait disabled:opacity-70"
      >
        {LOCALES.map((l) => (
          <option key={l} value={l} lang={l}>
            {LANGUAGE_NAMES[l]}
          </option>
        ))}
      </select>
      <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="pointer-events-none absolute right-2 size-4 text-slate-500">
        <path d="M5.23 7.21a.75.75 0 0 1 1.06.02L10 11.17l3.71-3.94a.75.75 0 1 1 1.08 1.04l-4.25 4.5a.75.75 0 0 1-1.08 0l-4.25-4.5a.75.75 0 0 1 .02-1.06Z" />
      </svg>
    </div>
  );
}

/** The language, last on every guest page: on a phone what the guest came for comes first. */
export function LanguageFooter() {
  return (
    <footer className="mt-6 flex justify-end border-t border-slate-200 pt-4">
      <LanguageSelect />
    </footer>
  );
}

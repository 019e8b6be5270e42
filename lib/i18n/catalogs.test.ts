import { describe, expect, it } from "vitest";
import { CATALOGS } from "./catalogs";
import type { Messages } from "./en";
import { fill, fillParts, formatDuration, placeholdersOf, plural } from "./fill";
import { cookieValue, firstSupported, localeOfAcceptLanguage, localeOfRequest, localeOfTag, LOCALES } from "./locales";

// Every language has every key: the compiler holds that (each catalog is typed `Messages`).
// What it cannot see is checked here: no empty text, the same placeholders as English (a
// translation that drops {host} would print a sentence without the host), and no text left in
// English by mistake.

type Leaf = { key: string; value: string };

function leaves(node: unknown, prefix = ""): Leaf[] {
  if (typeof node === "string") return [{ key: prefix, value: node }];
  return Object.entries(node as Record<string, unknown>).flatMap(([k, v]) => leaves(v, prefix ? `${prefix}.${k}` : k));
}

const english = new Map(leaves(CATALOGS.en).map((l) => [l.key, l.value]));

/** Words that are the same in English and in that language, on purpose. */
const SAME_AS_ENGLISH: Partial<Record<keyof typeof CATALOGS, string[]>> = {
  de: ["page.optional", "hostMail.team"],
  fr: ["mail.dates", "hostMail.dates"],
};

describe("the guest's catalogs", () => {
  for (const locale of LOCALES.filter((l) => l !== "en")) {
    const catalog: Messages = CATALOGS[locale];
    const own = leaves(catalog);

    it(`${locale}: the same keys as English, none empty`, () => {
      expect(own.map((l) => l.key).sort()).toEqual([...english.keys()].sort());
      expect(own.filter((l) => l.value.trim() === "").map((l) => l.key)).toEqual([]);
    });

    it(`${locale}: the same placeholders as English (a plural's "one" may say its number in words)`, () => {
      const differ = own.filter(({ key, value }) => {
        const mine = placeholdersOf(value);
        const theirs = placeholdersOf(english.get(key)!);
        if (key.endsWith(".one")) return mine.some((p) => !theirs.includes(p)) || theirs.some((p) => p !== "count" && !mine.includes(p));
        return mine.join() !== theirs.join();
      });
      expect(differ.map((l) => `${l.key}: ${l.value}`)).toEqual([]);
    });

    it(`${locale}: translated, not left in English`, () => {
      const allowed = SAME_AS_ENGLISH[locale] ?? [];
      const same = own.filter(({ key, value }) => value === english.get(key) && !allowed.includes(key));
      expect(same.map((l) => l.key)).toEqual([]);
    });
  }
});

describe("German: one form of address per reader", () => {
  // Guests are addressed formally (Sie, Ihr); hosts, in their own messages and in an invitation to
  // a team, informally (du, dein), as the German dashboards of scheduling tools do.
  const german = leaves(CATALOGS.de);
  const toHosts = (key: string) => key.startsWith("hostMail.") || key.startsWith("mail.teamInvite");
  it("hosts' messages never say Ihr/Ihnen, guests' never du/dein", () => {
    const formal = /\b(Ihr|Ihre|Ihren|Ihrem|Ihrer|Ihnen)\b/;
    const informal = /\b(du|dich|dir|dein|deine|deinen|deinem|deiner|deins)\b/i;
    expect(german.filter((l) => toHosts(l.key) && formal.test(l.value)).map((l) => `${l.key}: ${l.value}`)).toEqual([]);
    expect(german.filter((l) => !toHosts(l.key) && informal.test(l.value)).map((l) => `${l.key}: ${l.value}`)).toEqual([]);
  });
});

describe("filling a message", () => {
  it("puts values in, leaves an unknown placeholder visible", () => {
    expect(fill("Hi {name}, {unknown}", { name: "Ada" })).toBe("Hi Ada, {unknown}");
  });

  it("chooses a plural form by Intl.PluralRules, per language (French counts 0 as one, English as other)", () => {
    const forms = { one: "{count} créneau", other: "{count} créneaux" };
    expect(plural("fr", forms, 0)).toBe("0 créneau");
    expect(plural("fr", forms, 1)).toBe("1 créneau");
    expect(plural("fr", forms, 2)).toBe("2 créneaux");
    expect(plural("en", CATALOGS.en.page.dayOpenTimes, 0, { day: "Monday" })).toBe("Monday, 0 open times");
    expect(plural("de", CATALOGS.de.page.dayOpenTimes, 1, { day: "Montag" })).toBe("Montag, 1 freier Termin");
    expect(plural("de", CATALOGS.de.page.dayOpenTimes, 1200, { day: "Montag" })).toBe("Montag, 1.200 freie Termine");
  });

  it("puts elements where the translation's word order puts them", () => {
    expect(fillParts("{a} or {b}.", { a: 1, b: 2 })).toEqual([1, " or ", 2, "."]);
    expect(fillParts(CATALOGS.de.page.linksSentence, { manage: "M", reschedule: "R", cancel: "C" })[0]).toBe("M");
  });

  it("says durations in the language's own unit names", () => {
    expect(formatDuration("en", 30)).toBe("30 minutes");
    expect(formatDuration("en", 60)).toBe("1 hour");
    expect(formatDuration("en", 90)).toBe("1 hour 30 minutes");
    expect(formatDuration("de", 90)).toBe("1 Stunde 30 Minuten");
    expect(formatDuration("fr", 45)).toBe("45 minutes");
    expect(formatDuration("es", 120)).toBe("2 horas");
    expect(formatDuration("pt", 61)).toBe("1 hora 1 minuto");
  });
});

describe("choosing the guest's language", () => {
  it("reads a tag's language, regions and scripts aside", () => {
    expect(localeOfTag("de-AT")).toBe("de");
    expect(localeOfTag("pt-PT")).toBe("pt");
    expect(localeOfTag("ES")).toBe("es");
    expect(localeOfTag("it")).toBeUndefined();
    expect(localeOfTag("*")).toBeUndefined();
    expect(localeOfTag("not a tag!")).toBeUndefined();
  });

  it("takes Accept-Language by quality, then order, skipping q=0 and what is not spoken here", () => {
    expect(localeOfAcceptLanguage("de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7")).toBe("de");
    expect(localeOfAcceptLanguage("it-IT, fr;q=0.5, en;q=0.6")).toBe("en");
    expect(localeOfAcceptLanguage("fr;q=0, es")).toBe("es");
    expect(localeOfAcceptLanguage("it, ja")).toBeUndefined();
    expect(localeOfAcceptLanguage("")).toBeUndefined();
    expect(firstSupported(["it-IT", "pt-BR", "en"])).toBe("pt");
  });

  it("prefers the guest's remembered choice (cookie) over the browser's languages", () => {
    expect(localeOfRequest(new Headers({ "accept-language": "de", cookie: "a=1; booking_lang=fr" }))).toBe("fr");
    expect(localeOfRequest(new Headers({ "accept-language": "de", cookie: "booking_lang=xx" }))).toBe("de");
    expect(localeOfRequest(new Headers())).toBe("en");
    expect(cookieValue("x=1;booking_lang=es ; y=2", "booking_lang")).toBe("es");
  });
});

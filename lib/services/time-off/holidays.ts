import "server-only";
import { eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "@/db";
import { users, type UserRow } from "@/db/schema";
import { validationError } from "@/lib/errors";
import { holidayCountries, holidayRegions, isHolidayPlace, publicHolidaysBetween } from "@/lib/holidays";
import type { Holidays, HolidaysBody } from "@/lib/schemas/time-off";
import { writeForHost } from "@/lib/services/host-time/writes";
import { addDays } from "@/lib/time/format";
import { addMonths, monthOf } from "@/lib/time/month-grid";
import { todayIn } from "./store";

// GET/PUT /me/holidays (decisions §21): the public holidays of the host's country (and region)
// are days off, except the dates the host lists in `workingOn`. The place and the dates are kept
// on the host's row; the holidays themselves come from lib/holidays, named in the host's language.

export type HolidaysDto = z.output<typeof Holidays>;

/** The day a year after `today`, less one: "the next 12 months". */
const yearAfter = (today: string) => addDays(`${addMonths(monthOf(today), 12)}${today.slice(7)}`, -1);

export function getHolidays(host: UserRow, now = Date.now()): HolidaysDto {
  const country = host.holidayCountry;
  const region = country ? host.holidayRegion : null;
  const workingOn = country ? host.holidayWorkingOn : [];
  if (!country) return { country: null, region: null, workingOn: [], upcoming: [] };
  const today = todayIn(host.timezone, now);
  const working = new Set(workingOn);
  const upcoming = publicHolidaysBetween({ country, region }, today, yearAfter(today), host.language).map((h) => ({ ...h, working: working.has(h.date) }));
  return { country, region, workingOn, upcoming };
}

/** Sets (or with a null country, clears) where the host's public holidays come from and the ones worked. */
export async function replaceHolidays(db: Db, host: UserRow, input: z.output<typeof HolidaysBody>, now = Date.now()): Promise<HolidaysDto> {
  const country = input.country;
  const region = country ? (input.region ?? null) : null;
  if (country !== null && !isHolidayPlace({ country, region: null })) {
    throw validationError([{ path: "country", message: `No public holidays are known for the country code “${country}”; use an ISO 3166-1 code such as DE, FR or US` }]);
  }
  if (country !== null && region !== null && !isHolidayPlace({ country, region })) {
    const regions = Object.keys(holidayRegions(country));
    const name = holidayCountries()[country] ?? country;
    throw validationError([
      {
        path: "region",
        message: regions.length === 0 ? `${name} has no regions with holidays of their own; leave the region empty` : `“${region}” is not a region of ${name}; its regions are ${regions.join(", ")}`,
      },
    ]);
  }
  const updated = await writeForHost(db, host.id, async (tx) => {
    const [row] = await tx
      .update(users)
      .set({ holidayCountry: country, holidayRegion: region, holidayWorkingOn: country ? input.workingOn : [], updatedAt: sql`now()` })
      .where(eq(users.id, host.id))
      .returning();
    return row!;
  });
  return getHolidays(updated, now);
}

/** Countries and their regions for the dashboard's select, named in `language`, by name. */
export function holidayPlaces(language: string): { code: string; name: string; regions: { code: string; name: string }[] }[] {
  const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name, language);
  return Object.entries(holidayCountries(language))
    .map(([code, name]) => ({
      code,
      name,
      regions: Object.entries(holidayRegions(code, language))
        .map(([r, n]) => ({ code: r, name: n }))
        .sort(byName),
    }))
    .sort(byName);
}

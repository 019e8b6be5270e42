import "server-only";
import { DateTime } from "luxon";
import type { z } from "zod";
import type { Db } from "@/db";
import type { UserRow } from "@/db/schema";
import { readablePhone } from "@/lib/phone";
import { readableAnswer } from "@/lib/question-answers";
import type { BookingListQuery } from "@/lib/schemas/booking";
import { walkListedBookings, type ListedBooking } from "./list";

// GET /me/bookings?format=csv (decisions §22): the host's bookings list, with its filters, as a
// file a spreadsheet opens. Written for a person with a spreadsheet (docs/insights.md):
// - times as "2027-03-15 14:00", which spreadsheets read as a date and time (an ISO string with
//   an offset most keep as text), in UTC and in the host's zone, the zone named in the header;
// - the answers in one cell, a "Question: answer" line each;
// - UTF-8 with a byte order mark, without which Excel reads a guest's "é" as "Ã©";
// - RFC 4180: fields quoted when they hold a comma, a quote or a line break, quotes doubled,
//   lines ended by CRLF;
// - guests type their names and answers: a cell that starts with = + - @ (or a tab or carriage
//   return) would be a formula to a spreadsheet, so it gets a leading ' (OWASP, CSV injection).
// Streamed a step of the list at a time (list.ts walkListedBookings): a host with 100,000
// bookings gets them all without the process holding them.

type ListQuery = z.output<typeof BookingListQuery>;

/** How many bookings one step of the export reads. */
export const CSV_STEP = 1_000;

const FORMULA_START = /^[=+\-@\t\r]/;

/** One field, safe for a spreadsheet and quoted as RFC 4180 wants. */
export function csvField(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export const csvLine = (fields: string[]) => `${fields.map(csvField).join(",")}\r\n`;

/** The header row: the times' zone named where the times are. */
export function csvHeader(timeZone: string): string[] {
  return [
    "ID",
    "Status",
    "Start (UTC)",
    "End (UTC)",
    `Start (${timeZone})`,
    `End (${timeZone})`,
    "Event type",
    "Guest name",
    "Guest email",
    "Answers",
    "Team",
    "Hosts",
    "Cancelled by",
    "No-show",
  ];
}

const when = (at: Date, zone: string) => DateTime.fromJSDate(at, { zone }).toFormat("yyyy-MM-dd HH:mm");

/** A booking's row: what the list shows of it, in the header's order. */
export function csvRow({ booking, eventType, people }: ListedBooking, timeZone: string): string[] {
  // In the order the questions are asked (jsonb keeps its keys in an order of its own), then the
  // answers to questions since removed, under their ids.
  const asked = new Map(eventType.customQuestions.map((q) => [q.id, q]));
  const given = Object.keys(booking.customAnswers);
  const ids = [...eventType.customQuestions.map((q) => q.id).filter((id) => id in booking.customAnswers), ...given.filter((id) => !asked.has(id))];
  const answers = ids.map((id) => `${asked.get(id)?.label ?? id}: ${readableAnswer(asked.get(id), booking.customAnswers[id]!, readablePhone).join(", ")}`);
  return [
    booking.id,
    booking.status,
    when(booking.startTime, "UTC"),
    when(booking.endTime, "UTC"),
    when(booking.startTime, timeZone),
    when(booking.endTime, timeZone),
    eventType.title,
    booking.guestName,
    booking.guestEmail,
    answers.join("\n"),
    people.team?.name ?? "",
    people.hosts.map((h) => h.fullName).join(", "),
    booking.cancelledBy ?? "",
    booking.noShow ? "yes" : "no",
  ];
}

/** The file's name: the range it covers, when the list has one. */
export function csvFileName(query: Pick<ListQuery, "from" | "to">): string {
  if (query.from && query.to) return `bookings-${query.from}-${query.to}.csv`;
  if (query.from) return `bookings-from-${query.from}.csv`;
  if (query.to) return `bookings-to-${query.to}.csv`;
  return "bookings.csv";
}

/** The list's bookings (every page) as CSV text, read a step at a time as the reader takes it. */
export function bookingsCsv(db: Db, host: UserRow, query: ListQuery, now: number = Date.now()): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const steps = walkListedBookings(db, host, query, CSV_STEP, now);
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(`\uFEFF${csvLine(csvHeader(host.timezone))}`));
        return;
      }
      const step = await steps.next();
      if (step.done) return controller.close();
      controller.enqueue(encoder.encode(step.value.map((b) => csvLine(csvRow(b, host.timezone))).join("")));
    },
    async cancel() {
      await steps.return(undefined);
    },
  });
}

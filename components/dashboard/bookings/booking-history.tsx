"use client";

import { useQuery } from "@tanstack/react-query";
import { Alert } from "@/components/ui/alert";
import { meQuery } from "@/lib/browser/api-client/account";
import { bookingHistoryQuery, type BookingDto, type BookingHistoryEntryDto } from "@/lib/browser/api-client/bookings";
import { moneyLocaleOf, refundReasonWords } from "@/lib/dashboard/payment-words";
import { momentWhen as moment } from "@/lib/dashboard/when";
import type { RefundReason } from "@/db/schema/enums";
import { formatMoney } from "@/lib/payments/money";

/** What one entry says, in plain words: who did what (the host reading it is "you"). */
function sentence(entry: BookingHistoryEntryDto, booking: BookingDto, zone: string, myUserId: string, locale: string): string {
  const host = entry.userId === myUserId ? "you" : (booking.hosts?.find((h) => h.userId === entry.userId)?.fullName ?? "a host");
  const who = entry.actor === "guest" ? booking.guestName : entry.actor === "host" ? host : "the system";
  const reason = entry.reason ? `: “${entry.reason}”` : "";
  const money = entry.amount !== undefined && entry.currency ? ` ${formatMoney(entry.amount, entry.currency, locale)}` : "";
  switch (entry.action) {
    case "created":
      return `Booked by ${who}`;
    case "confirmed":
      return `Request confirmed by ${who}`;
    case "rescheduled":
      return entry.from && entry.to ? `Moved by ${who} from ${moment(entry.from, zone)} to ${moment(entry.to, zone)}` : `Moved by ${who}`;
    case "cancelled":
      if (entry.actor === "system") return "Cancelled automatically: the request was not confirmed before its start";
      return `${entry.declined ? "Request declined" : "Cancelled"} by ${who}${reason}`;
    case "no_show":
      return entry.noShow ? `Marked as a no-show by ${who}` : `No-show mark taken back by ${who}`;
    case "meeting_link":
      return entry.source === "provider" ? `Meeting link made by your calendar: ${entry.location ?? ""}` : `Meeting link made: ${entry.location ?? ""}`;
    case "paid":
      return `Paid${money} by ${booking.guestName}`;
    case "refund_requested":
      return `Refund of${money} asked of Stripe${entry.reason ? ` (${refundReasonWords(entry.reason as RefundReason) ?? entry.reason})` : ""}`;
    case "refunded":
      return `Refunded${money} to ${booking.guestName}`;
  }
}

/** A booking's history as a timeline, oldest first, times in the host's zone. */
export function BookingHistory({ booking, zone, myUserId }: { booking: BookingDto; zone: string; myUserId: string }) {
  const history = useQuery(bookingHistoryQuery(booking.id));
  const locale = moneyLocaleOf(useQuery(meQuery()).data?.language);
  if (history.isPending) return <p className="text-sm text-slate-500">Loading its history…</p>;
  if (history.isError) return <Alert tone="error">{history.error.message}</Alert>;
  if (history.data.length === 0) return <p className="text-sm text-slate-500">Nothing recorded yet.</p>;
  return (
    <ol aria-label={`History of the booking with ${booking.guestName}`} className="ml-1 flex flex-col gap-3 border-l-2 border-slate-200 pl-4 text-sm">
      {history.data.map((entry, i) => (
        <li key={i} className="relative">
          <span aria-hidden className="absolute top-1.5 -left-[1.3rem] h-2 w-2 rounded-full bg-slate-400" />
          <p className="text-slate-500">
            <time dateTime={entry.at}>{moment(entry.at, zone)}</time>
          </p>
          <p className="break-words text-slate-800">{sentence(entry, booking, zone, myUserId, locale)}</p>
        </li>
      ))}
    </ol>
  );
}

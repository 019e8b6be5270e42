"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { REQUESTS_HREF, requestsWaitingQuery, requestsWaitingWords } from "@/lib/dashboard/requests-waiting";

// The requests waiting for the host's answer, wherever the dashboard shows them: a card on the
// home, a count on the Requests tab, a badge in the nav. All read the one count query; each shows
// nothing while there are none (or while the count cannot be read: the Bookings page says more).

/** How many requests wait; undefined until known. */
export function useRequestsWaiting(): number | undefined {
  return useQuery(requestsWaitingQuery()).data;
}

/** The count as a small pill, for a tab or a nav link; its words are the caller's accessible name. */
export function CountPill({ count }: { count: number }) {
  return (
    <span aria-hidden="true" className="inline-flex min-w-5 items-center justify-center rounded-full bg-amber-100 px-1.5 text-xs font-semibold leading-5 text-amber-900 ring-1 ring-amber-300">
      {count}
    </span>
  );
}

/**
 * The Requests tab's count: the pill, and the words for a screen reader: "Requests (2 waiting)"
 * (the hidden words are a block of their own, so a screen reader puts a space before them).
 */
export function RequestsCount() {
  const count = useRequestsWaiting();
  if (!count) return null;
  return (
    <>
      <span className="sr-only">{`(${count} waiting)`}</span>
      <span className="ml-1.5">
        <CountPill count={count} />
      </span>
    </>
  );
}

/** The home's card: "2 requests waiting", and the way to them. */
export function RequestsWaitingCard() {
  const count = useRequestsWaiting();
  if (!count) return null;
  return (
    <section
      aria-labelledby="requests-waiting-heading"
      className="flex flex-col gap-3 rounded-lg border border-amber-300 bg-amber-50 p-5 sm:flex-row sm:items-center sm:justify-between"
    >
      <div className="flex flex-col gap-1">
        <h2 id="requests-waiting-heading" className="text-lg font-semibold text-amber-950">
          {requestsWaitingWords(count)}
        </h2>
        <p className="text-sm text-amber-900">
          {count === 1 ? "A guest is" : "Guests are"} waiting for your answer. A request not confirmed by its start is cancelled.
        </p>
      </div>
      <Link href={REQUESTS_HREF} className={`${buttonClass("primary", "sm")} shrink-0`}>
        {count === 1 ? "Answer the request" : "Answer the requests"}
      </Link>
    </section>
  );
}

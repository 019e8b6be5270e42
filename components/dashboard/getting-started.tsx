"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { availabilityQuery } from "@/lib/browser/api-client/availability";
import { bookingsQuery } from "@/lib/browser/api-client/bookings";
import { calendarConnectionsQuery } from "@/lib/browser/api-client/calendars";
import { eventTypesQuery } from "@/lib/browser/api-client/event-types";
import { ANY } from "@/lib/dashboard/home-queries";
import { checklist, type ChecklistFacts, type ChecklistItem } from "@/lib/onboarding";

type Marks = ChecklistFacts["marks"];
const marksKey = (userId: string) => `booking:getting-started:${userId}`;

/** Two marks only this browser keeps: the hours were looked at and are right; the link was copied. */
function useMarks(userId: string): [Marks, (change: Marks) => void] {
  // Read once on the client: the list renders nothing until its queries answer, so the server's
  // HTML (no storage there) and the first client render agree.
  const [marks, setMarks] = useState<Marks>(() => {
    if (typeof window === "undefined") return {};
    try {
      return JSON.parse(localStorage.getItem(marksKey(userId)) ?? "{}") as Marks;
    } catch {
      return {}; // storage off or damaged: the list just asks again
    }
  });
  const mark = (change: Marks) =>
    setMarks((current) => {
      const next = { ...current, ...change };
      try {
        localStorage.setItem(marksKey(userId), JSON.stringify(next));
      } catch {
        // Private mode: remembered for this visit only.
      }
      return next;
    });
  return [marks, mark];
}

const WORDS: Record<ChecklistItem["id"], { title: string; text: string; href: string; action: string }> = {
  hours: {
    title: "Set your hours",
    text: "Guests can book Monday to Friday, 9:00 to 17:00 in your timezone. Change it, or confirm it suits you.",
    href: "/dashboard/availability",
    action: "Edit your hours",
  },
  calendar: {
    title: "Connect your calendar",
    text: "Google, Microsoft or iCloud: your own events count as busy, and bookings land there.",
    href: "/dashboard/calendars",
    action: "Connect a calendar",
  },
  "event-type": {
    title: "Make your first event type yours",
    text: "A 30-minute meeting is ready to share. Rename it, change its length, or add your own.",
    href: "/dashboard/event-types",
    action: "Edit your event types",
  },
  share: {
    title: "Share your link",
    text: "Put it in your email signature or send it to someone who wants to meet.",
    href: "",
    action: "",
  },
};

/** The dashboard's "get set up" list for a new host; gone once every step is done. */
export function GettingStarted({ userId, publicUrl }: { userId: string; publicUrl: string }) {
  const availability = useQuery(availabilityQuery());
  const eventTypes = useQuery(eventTypesQuery({ kind: "me" }));
  const connections = useQuery(calendarConnectionsQuery());
  const anyBooking = useQuery(bookingsQuery(ANY));
  const [marks, mark] = useMarks(userId);
  if (!availability.data || !eventTypes.data || !connections.data || !anyBooking.data) return null;

  const items = checklist({
    availability: availability.data,
    eventTypes: eventTypes.data,
    calendarConnections: connections.data.length,
    bookings: anyBooking.data.pagination.total,
    marks,
  });
  const left = items.filter((i) => !i.done).length;
  if (left === 0) return null;

  return (
    <section aria-labelledby="setup-heading" className="flex flex-col gap-3 rounded-lg border border-blue-200 bg-blue-50/60 p-5">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="setup-heading" className="text-lg font-semibold">
          Get set up
        </h2>
        <p className="text-sm text-slate-600">
          {items.length - left} of {items.length} done
        </p>
      </div>
      <ol className="flex flex-col gap-2">
        {items.map((item, i) => {
          const words = WORDS[item.id];
          return (
            <li key={item.id} className="flex gap-3 rounded-md border border-slate-200 bg-white p-3">
              <span
                aria-hidden="true"
                className={`mt-0.5 flex size-6 shrink-0 items-center justify-center rounded-full text-sm font-semibold ${
                  item.done ? "bg-green-600 text-white" : "border border-slate-300 text-slate-600"
                }`}
              >
                {item.done ? "✓" : i + 1}
              </span>
              <div className="flex min-w-0 flex-1 flex-col gap-1">
                <p className={`font-medium ${item.done ? "text-slate-500 line-through" : ""}`}>
                  {words.title}
                  <span className="sr-only">{item.done ? " (done)" : " (to do)"}</span>
                </p>
                {!item.done && <p className="text-sm text-slate-600">{words.text}</p>}
                {!item.done && (
                  <div className="flex flex-wrap items-center gap-x-3 gap-y-2 text-sm">
                    {item.id === "share" ? (
                      // Ticked only after the copy is done and has said "Copied": ticking hides the button.
                      <CopyButton text={publicUrl} onCopied={() => mark({ linkCopied: true })} />
                    ) : (
                      <Link href={words.href} className="font-medium text-blue-700 underline underline-offset-2">
                        {words.action}
                      </Link>
                    )}
                    {item.id === "hours" && (
                      <button type="button" onClick={() => mark({ hoursChecked: true })} className="font-medium text-slate-700 underline underline-offset-2">
                        These hours suit me
                      </button>
                    )}
                  </div>
                )}
              </div>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

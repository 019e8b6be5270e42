"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClass } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field, inputClass } from "@/components/ui/field";
import type { ApiError } from "@/lib/browser/api-client/fetch-json";
import { eraseGuest, guestDownloadUrl, guestKeys, guestQuery, type GuestDataDto } from "@/lib/browser/api-client/guests";
import { bookingKeys } from "@/lib/browser/api-client/bookings";
import { meQuery } from "@/lib/browser/api-client/account";
import { bookingWhen, zoneWords } from "@/lib/dashboard/when";

// A guest's data as the host holds it (decisions §16): look a guest up by email, see every
// booking of theirs the host hosts with their answers, download it as JSON (what the host hands
// a guest who asks for their data), or erase it (after a confirmation): name, email and answers
// go, the times stay.

const STATUS: Record<GuestDataDto["bookings"][number]["status"], string> = { confirmed: "Confirmed", pending: "Awaiting confirmation", cancelled: "Cancelled", awaiting_payment: "Awaiting payment" };

function GuestBookings({ data, zone }: { data: GuestDataDto; zone: string }) {
  if (data.bookings.length === 0) return <p className="text-sm text-slate-600">You have no bookings with {data.email}.</p>;
  return (
    <ol className="flex flex-col gap-3">
      {data.bookings.map((b) => (
        <li key={b.id} className="rounded-lg border border-slate-200 bg-white p-4">
          <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
            <h3 className="font-semibold">{b.eventType.title}</h3>
            <span className={`text-sm ${b.status === "cancelled" ? "text-slate-500" : "text-slate-700"}`}>{STATUS[b.status]}</span>
          </div>
          <p className="text-sm text-slate-700">
            {bookingWhen(b.startTime, b.endTime, zone)}
            {b.team && ` · ${b.team.name}`}
          </p>
          <dl className="mt-2 grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[12rem_1fr]">
            <dt className="text-slate-500">Name</dt>
            <dd className="break-words">{b.guestName}</dd>
            {b.answers.map((a) => (
              <div key={a.questionId} className="contents">
                <dt className="text-slate-500">{a.label}</dt>
                <dd className="whitespace-pre-line break-words">{a.answer}</dd>
              </div>
            ))}
          </dl>
        </li>
      ))}
    </ol>
  );
}

export function GuestsPage() {
  const queryClient = useQueryClient();
  const me = useQuery(meQuery());
  const [typed, setTyped] = useState("");
  const [email, setEmail] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [erased, setErased] = useState<string | null>(null);
  const guest = useQuery({ ...guestQuery(email ?? ""), enabled: email !== null });
  const zone = me.data?.timezone ?? "UTC";

  const erase = useMutation<undefined, ApiError, string>({
    mutationFn: eraseGuest,
    onSuccess: async (_, address) => {
      setConfirming(false);
      setErased(address);
      setEmail(null);
      await queryClient.invalidateQueries({ queryKey: guestKeys.one(address) });
      await queryClient.invalidateQueries({ queryKey: bookingKeys.all });
    },
  });

  const count = guest.data?.bookings.length ?? 0;
  return (
    <div className="flex flex-col gap-5">
      <p className="text-slate-700">Find what you hold about a guest: their bookings with you and their answers. Download it for them, or erase it.</p>
      <form
        role="search"
        className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-5 sm:flex-row sm:items-end"
        onSubmit={(e) => {
          e.preventDefault();
          setErased(null);
          erase.reset();
          if (typed.trim()) setEmail(typed.trim());
        }}
      >
        <div className="flex-1">
          <Field label="Guest's email">
            {(p) => <input {...p} type="email" name="email" autoComplete="off" value={typed} onChange={(e) => setTyped(e.target.value)} placeholder="guest@example.com" className={inputClass} />}
          </Field>
        </div>
        <Button type="submit" disabled={typed.trim() === ""}>
          Look up
        </Button>
      </form>

      {erased && <Alert tone="success">The data of {erased} is erased: their bookings keep their times as “Erased guest”, and their links no longer work.</Alert>}
      {guest.isError && <Alert tone="error">{guest.error.message}</Alert>}
      {email && guest.isPending && <p className="text-sm text-slate-500">Looking up {email}…</p>}
      {guest.data && email && (
        <section aria-labelledby="guest-heading" className="flex flex-col gap-3">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 id="guest-heading" className="break-all text-lg font-semibold">
              {guest.data.email}: {count} {count === 1 ? "booking" : "bookings"}
            </h2>
            {count > 0 && (
              <div className="flex flex-wrap gap-2">
                <a href={guestDownloadUrl(guest.data.email)} download="guest-data.json" className={buttonClass("secondary", "sm")}>
                  Download JSON
                </a>
                <Button variant="danger" size="sm" onClick={() => setConfirming(true)}>
                  Erase…
                </Button>
              </div>
            )}
          </div>
          <p className="text-sm text-slate-600">Times in your timezone, {zoneWords(zone)}.</p>
          <GuestBookings data={guest.data} zone={zone} />
          <ConfirmDialog
            open={confirming}
            title={`Erase ${guest.data.email}?`}
            confirmLabel="Erase for good"
            pending={erase.isPending}
            onConfirm={() => erase.mutate(guest.data.email)}
            onClose={() => setConfirming(false)}
          >
            <p>
              The guest’s name, email and answers leave {count === 1 ? "this booking" : `these ${count} bookings`}, and the links they were sent stop working. The
              bookings keep their times. This cannot be undone.
            </p>
            {erase.isError && <Alert tone="error">{erase.error.message}</Alert>}
          </ConfirmDialog>
        </section>
      )}
    </div>
  );
}

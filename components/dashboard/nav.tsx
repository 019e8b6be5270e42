"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef, useState, type RefObject } from "react";
import { signOut } from "next-auth/react";
import { Button } from "@/components/ui/button";
import { signOutEverywhere } from "@/lib/browser/api-client/auth";
import { requestsWaitingWords } from "@/lib/dashboard/requests-waiting";
import { CountPill, useRequestsWaiting } from "./requests-waiting";

/**
 * Sessions are stateless cookies: only raising the account's session version ends one for good
 * (a copied cookie would otherwise work until it expires), and that ends all of them, on every
 * device. Then next-auth clears this browser's cookie. A failure of the first step (offline)
 * still clears the cookie.
 */
async function logOut() {
  await signOutEverywhere().catch(() => undefined);
  await signOut({ callbackUrl: "/login" });
}

// The dashboard's sections; later capabilities add theirs here.
const SECTIONS = [
  { href: "/dashboard", label: "Home" },
  { href: "/dashboard/event-types", label: "Event types" },
  { href: "/dashboard/availability", label: "Availability" },
  { href: "/dashboard/time-off", label: "Time off" },
  { href: "/dashboard/bookings", label: "Bookings" },
  { href: "/dashboard/payments", label: "Payments" },
  { href: "/dashboard/insights", label: "Insights" },
  { href: "/dashboard/guests", label: "Guests" },
  { href: "/dashboard/teams", label: "Teams" },
  { href: "/dashboard/calendars", label: "Calendars" },
  { href: "/dashboard/webhooks", label: "Webhooks" },
  { href: "/dashboard/settings", label: "Settings" },
];

function isCurrent(pathname: string, href: string): boolean {
  return href === "/dashboard" ? pathname === href : pathname === href || pathname.startsWith(`${href}/`);
}

const BOOKINGS = "/dashboard/bookings";
const MENU_ID = "dashboard-sections";

/** The section's link; Bookings carries the count of requests waiting, in its name too. */
function SectionLink({ href, label, current, waiting, onNavigate }: { href: string; label: string; current: boolean; waiting: number; onNavigate: () => void }) {
  const badge = href === BOOKINGS && waiting > 0;
  return (
    <Link
      href={href}
      aria-current={current ? "page" : undefined}
      aria-label={badge ? `${label}, ${requestsWaitingWords(waiting)}` : undefined}
      onClick={onNavigate}
      className={`flex items-center gap-2 rounded-md px-3 py-2 text-base font-medium focus-visible:outline-2 focus-visible:outline-blue-600 lg:px-2.5 lg:py-1.5 lg:text-sm ${
        current ? "bg-blue-50 text-blue-800" : "text-slate-700 hover:bg-slate-100"
      }`}
    >
      {label}
      {badge && <CountPill count={waiting} />}
    </Link>
  );
}

/**
 * Below lg the sections sit behind a Menu button (a disclosure), so the header is one row; from
 * lg up they are one row of links under it. lg, not md: the twelve sections need about 930 px, and
 * a tablet's 768 px would wrap them into two rows again. The menu is open only on the page it was
 * opened on: any navigation closes it (a link, back or forward), and so does Escape.
 */
function useSectionsMenu(pathname: string, button: RefObject<HTMLButtonElement | null>) {
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setOpenOn(null);
      button.current?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open, button]);
  return { open, toggle: () => setOpenOn(open ? null : pathname), close: () => setOpenOn(null) };
}

function MenuIcon({ open }: { open: boolean }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round">
      {open ? <path d="M5 5l10 10M15 5L5 15" /> : <path d="M3 5.5h14M3 10h14M3 14.5h14" />}
    </svg>
  );
}

export function DashboardNav({ fullName, publicUrl }: { fullName: string; publicUrl: string }) {
  const pathname = usePathname();
  const waiting = useRequestsWaiting() ?? 0;
  const menuButton = useRef<HTMLButtonElement>(null);
  const menu = useSectionsMenu(pathname, menuButton);
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex w-full max-w-5xl flex-wrap items-center justify-between gap-x-3 gap-y-2 px-4 py-3 sm:px-6">
        <Link href="/dashboard" className="text-lg font-semibold tracking-tight">
          Booking
        </Link>
        <div className="flex items-center gap-2 text-sm sm:gap-3">
          <span className="hidden text-slate-600 sm:inline">{fullName}</span>
          <a href={publicUrl} className="hidden text-blue-700 underline sm:inline" target="_blank" rel="noreferrer">
            Your page
          </a>
          <button
            ref={menuButton}
            type="button"
            aria-expanded={menu.open}
            aria-controls={MENU_ID}
            aria-label={waiting > 0 ? `Menu, ${requestsWaitingWords(waiting)}` : undefined}
            onClick={menu.toggle}
            className="inline-flex items-center gap-1.5 rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 lg:hidden"
          >
            <MenuIcon open={menu.open} />
            Menu
            {waiting > 0 && <CountPill count={waiting} />}
          </button>
          <Button variant="secondary" size="sm" onClick={() => void logOut()} title="Logs you out on every device">
            Log out
          </Button>
        </div>
        <nav aria-label="Dashboard" className={`w-full ${menu.open ? "block" : "hidden"} lg:block`}>
          <ul id={MENU_ID} className="-mx-1 flex flex-col gap-0.5 lg:flex-row lg:flex-wrap lg:gap-1">
            {SECTIONS.map((s) => (
              <li key={s.href}>
                <SectionLink href={s.href} label={s.label} current={isCurrent(pathname, s.href)} waiting={waiting} onNavigate={menu.close} />
              </li>
            ))}
            {/* Beside the name from sm up; on a phone, here. */}
            <li className="border-t border-slate-100 pt-1 sm:hidden">
              <a href={publicUrl} target="_blank" rel="noreferrer" className="block rounded-md px-3 py-2 text-base font-medium text-blue-700 underline">
                Your page
              </a>
            </li>
          </ul>
        </nav>
      </div>
    </header>
  );
}

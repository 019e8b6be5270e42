"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { signOut } from "next-auth/react";
import { Button } from "@/components/ui/button";
import { signOutEverywhere } from "@/lib/browser/api-client/host";

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
  { href: "/dashboard/bookings", label: "Bookings" },
  { href: "/dashboard/guests", label: "Guests" },
  { href: "/dashboard/teams", label: "Teams" },
  { href: "/dashboard/calendars", label: "Calendars" },
  { href: "/dashboard/webhooks", label: "Webhooks" },
  { href: "/dashboard/settings", label: "Settings" },
];

function isCurrent(pathname: string, href: string): boolean {
  return href === "/dashboard" ? pathname === href : pathname === href || pathname.startsWith(`${href}/`);
}

export function DashboardNav({ fullName, publicUrl }: { fullName: string; publicUrl: string }) {
  const pathname = usePathname();
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex w-full max-w-5xl flex-wrap items-center justify-between gap-3 px-4 py-3 sm:px-6">
        <Link href="/dashboard" className="text-lg font-semibold tracking-tight">
          Booking
        </Link>
        <div className="flex items-center gap-3 text-sm">
          <span className="hidden text-slate-600 sm:inline">{fullName}</span>
          <a href={publicUrl} className="hidden text-blue-700 underline sm:inline" target="_blank" rel="noreferrer">
            Your page
          </a>
          <Button variant="secondary" size="sm" onClick={() => void logOut()} title="Logs you out on every device">
            Log out
          </Button>
        </div>
        <nav aria-label="Dashboard" className="w-full">
          <ul className="-mx-1 flex flex-wrap gap-1">
            {SECTIONS.map((s) => {
              const current = isCurrent(pathname, s.href);
              return (
                <li key={s.href}>
                  <Link
                    href={s.href}
                    aria-current={current ? "page" : undefined}
                    className={`block rounded-md px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-blue-600 ${
                      current ? "bg-blue-50 text-blue-800" : "text-slate-700 hover:bg-slate-100"
                    }`}
                  >
                    {s.label}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
      </div>
    </header>
  );
}

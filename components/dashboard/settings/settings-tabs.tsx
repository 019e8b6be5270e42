import Link from "next/link";

const TABS = [
  { href: "/dashboard/settings", label: "Profile" },
  { href: "/dashboard/settings/api-keys", label: "API keys" },
];

/** Settings' own pages: the profile and the account's API keys. */
export function SettingsTabs({ current }: { current: string }) {
  return (
    <nav aria-label="Settings" className="flex gap-1 border-b border-slate-200">
      {TABS.map((t) => (
        <Link
          key={t.href}
          href={t.href}
          aria-current={t.href === current ? "page" : undefined}
          className={`-mb-px border-b-2 px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-blue-600 ${
            t.href === current ? "border-blue-600 text-blue-800" : "border-transparent text-slate-600 hover:text-slate-900"
          }`}
        >
          {t.label}
        </Link>
      ))}
    </nav>
  );
}

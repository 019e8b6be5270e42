"use client";

import { CopyButton } from "@/components/ui/copy-button";

/**
 * A team's public page, {APP_URL}/team/{slug}, as lib/links.ts `teamPageUrl` builds it on the
 * server; here from the APP_URL the page was given, since a rename changes the slug in the browser.
 */
export const teamPageLink = (appUrl: string, slug: string) => `${appUrl}/team/${slug}`;

/** The team's link, shortened for reading, and a button to copy it whole. */
export function TeamLink({ appUrl, slug }: { appUrl: string; slug: string }) {
  const url = teamPageLink(appUrl, slug);
  return (
    <div className="flex min-w-0 flex-wrap items-center gap-2 text-sm">
      <a href={url} target="_blank" rel="noreferrer" className="min-w-0 break-all text-blue-700 underline">
        {url.replace(/^https?:\/\//, "")}
      </a>
      <CopyButton text={url} />
    </div>
  );
}

import type { AwayNoticeWords } from "@/lib/guest/away-words";

// A host's time off on their public pages (decisions §21): "Away until Monday, 7 December", their
// note, and a link to the colleague who takes their guests meanwhile. Rendered on the server only
// (no JavaScript for the booking page's budget: a plain link, not next/link); the words come
// from the page, in the guest's language.

export function AwayNotice({ words, lang }: { words: AwayNoticeWords; lang?: string }) {
  return (
    <div role="status" lang={lang} data-testid="away-notice" className="flex flex-col gap-1 rounded-lg border border-amber-200 bg-amber-50 p-4 text-amber-950">
      <p className="font-medium">{words.headline}</p>
      {words.note && <p className="whitespace-pre-line break-words text-sm">{words.note}</p>}
      {words.colleague && (
        <p className="text-sm">
          <a href={words.colleague.href} className="font-medium text-blue-800 underline">
            {words.colleague.label}
          </a>
        </p>
      )}
    </div>
  );
}

"use client";

import { useEffect } from "react";
import { buttonClass } from "./button";

/**
 * What an error boundary shows: plain words and a way on, never the error itself (a server
 * error's text stays in the server's log; the page only gets its digest).
 */
export function ErrorPanel({ error, retry }: { error: unknown; retry: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <main className="mx-auto flex w-full max-w-2xl flex-col gap-6 px-6 py-16 sm:py-24">
      <h1 className="text-3xl font-semibold tracking-tight">Something went wrong</h1>
      <p className="text-slate-600">
        This page could not be shown just now. Please try again; if it keeps happening, check your internet connection or come back in a few minutes.
      </p>
      <div className="flex flex-wrap items-center gap-3">
        {/* retry() refetches the page from the server and then re-renders it (reset() alone would only re-render). */}
        <button type="button" onClick={() => retry()} className={buttonClass("primary")}>
          Try again
        </button>
        {/* A plain link: next/link's client router would add several KB to every page's first load for one rare click. */}
        {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
        <a href="/" className={buttonClass("ghost")}>
          Go to the home page
        </a>
      </div>
    </main>
  );
}

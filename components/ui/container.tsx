import type { ReactNode } from "react";

/** The page column every public page sits in; `lang` when the page is not in English (the guest's pages). */
export function Container({ children, className = "", lang }: { children: ReactNode; className?: string; lang?: string }) {
  return (
    <main lang={lang} className={`mx-auto flex w-full max-w-2xl flex-col gap-6 px-6 py-16 sm:py-24 ${className}`}>
      {children}
    </main>
  );
}

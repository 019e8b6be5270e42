import type { ReactNode } from "react";

/** The page column every public page sits in. */
export function Container({ children, className = "" }: { children: ReactNode; className?: string }) {
  return <main className={`mx-auto flex w-full max-w-2xl flex-col gap-6 px-6 py-16 sm:py-24 ${className}`}>{children}</main>;
}

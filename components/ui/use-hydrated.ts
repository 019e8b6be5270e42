"use client";

import { useSyncExternalStore } from "react";

const never = () => () => {};

/**
 * False in the server's HTML and while React hydrates it, true from then on. A server-rendered
 * form is disabled until then: what a person types into the HTML before its JavaScript has taken
 * over would be lost, so the browser lets them type only once it will be kept.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}

import { useCallback, useEffect, useRef } from "react";

/**
 * Moves the focus once the next render is on screen: to a row just added, the first field with a
 * problem, an error summary. (Before React commits, the element may not exist yet.) The caller
 * must also change some state, or there is no next render.
 */
export function useFocusAfterRender(): (find: () => HTMLElement | null | undefined) => void {
  const pending = useRef<(() => HTMLElement | null | undefined) | null>(null);
  useEffect(() => {
    const find = pending.current;
    if (!find) return;
    pending.current = null;
    find()?.focus();
  });
  return useCallback((find) => {
    pending.current = find;
  }, []);
}

/** Any origin will do: only whether a value stays on it matters, not which one it is. */
const BASE = "http://callback.invalid";

/**
 * Where to go after logging in: a path of this site only, or the fallback. The value is parsed
 * the way a browser would parse it (against an origin), and only kept when it stays on that
 * origin: `//evil.example`, `/\evil.example`, `/%09/evil.example` decoded to `/\t/evil.example`
 * (browsers drop tabs and line breaks, leaving `//evil.example`) and absolute URLs all leave it.
 * What comes back is the parsed path, query and fragment, never the raw text.
 */
export function safeCallbackUrl(value: string | string[] | undefined, fallback = "/dashboard"): string {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw || !raw.startsWith("/")) return fallback;
  // Control characters and backslashes have no place in a path we would send someone to.
  if (/[\u0000-\u001f\u007f\\]/.test(raw)) return fallback;
  let url: URL;
  try {
    url = new URL(raw, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE) return fallback;
  const target = `${url.pathname}${url.search}${url.hash}`;
  // Belt and braces: whatever the parser made of it must itself be a single-slash path.
  return target.startsWith("/") && !target.startsWith("//") ? target : fallback;
}

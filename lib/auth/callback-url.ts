/**
 * Where to go after logging in: a path of this site only. Anything else (an absolute URL,
 * `//evil.example`, `/\evil.example`) would make /login an open redirect.
 */
export function safeCallbackUrl(value: string | string[] | undefined, fallback = "/dashboard"): string {
  const url = Array.isArray(value) ? value[0] : value;
  if (!url || !url.startsWith("/") || url.startsWith("//") || url.startsWith("/\\")) return fallback;
  return url;
}

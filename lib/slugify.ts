/** Lower-case letters and digits separated by single hyphens, from any text: "Café Chat" → "cafe-chat". */
export function slugify(text: string, max = 64): string {
  return text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, max)
    .replace(/-+$/, "");
}

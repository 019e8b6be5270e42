// The ceiling at the real slots route's path: the same dynamic segments and query string as
// GET /api/v1/public/{username}/{eventSlug}/slots, so Next.js routes it the same way; the body is
// the real response's, pre-serialised (see app/api/ceiling/route.js).
export const dynamic = "force-dynamic";
export { GET } from "../../../../../ceiling/route.js";

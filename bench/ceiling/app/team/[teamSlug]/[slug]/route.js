// The ceiling at the booking page's path (bench/ceiling/pages.js).
export const dynamic = "force-dynamic";
export { GET } from "../../../../pages.js";

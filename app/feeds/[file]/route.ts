// GET /feeds/{token}.ics – a host's bookings as an iCalendar subscription (ETag, 304)
import { createHash } from "node:crypto";
import { getDb } from "@/lib/store/database";
import { log } from "@/lib/log";
import { calendarFeed } from "@/lib/services/bookings/calendar-feed";

export const dynamic = "force-dynamic";

function text(status: number, body: string): Response {
  return new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
}

export async function GET(req: Request, ctx: { params: Promise<{ file: string }> }): Promise<Response> {
  const { file } = await ctx.params;
  const token = /^([A-Za-z0-9_-]{20,100})\.ics$/.exec(file)?.[1];
  if (!token) return text(404, "No calendar feed here.");
  let body: string | undefined;
  try {
    body = await calendarFeed(await getDb(), token, Date.now());
  } catch (err) {
    log.error({ err }, "calendar feed failed");
    return text(503, "The calendar feed is unavailable; try again shortly.");
  }
  if (body === undefined) return text(404, "No calendar feed here: the link is wrong or was replaced.");
  const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
  const headers = {
    etag,
    "cache-control": "private, max-age=0, must-revalidate",
    // The URL is the secret: never send it on as a Referer, never index it.
    "referrer-policy": "no-referrer",
    "x-robots-tag": "noindex",
  };
  const match = req.headers.get("if-none-match");
  if (match && match.split(",").some((t) => t.trim() === etag || t.trim() === `W/${etag}`)) return new Response(null, { status: 304, headers });
  return new Response(body, { status: 200, headers: { ...headers, "content-type": "text/calendar; charset=utf-8" } });
}

import { NextResponse, type NextRequest } from "next/server";
import { sessionCookieOf, userIdOfSession } from "@/lib/auth/session";

// /dashboard/** is for signed-in hosts: an anonymous visitor, or one whose session has expired,
// goes to /login and comes back to the page they asked for afterwards. The dashboard's layout
// checks again on the server (the account may be gone); this is the early, cheap turn-away.
export async function proxy(req: NextRequest) {
  const cookie = sessionCookieOf(req.headers.get("cookie"));
  if (cookie && (await userIdOfSession(cookie))) return NextResponse.next();
  const login = new URL("/login", req.url);
  login.searchParams.set("callbackUrl", `${req.nextUrl.pathname}${req.nextUrl.search}`);
  return NextResponse.redirect(login);
}

export const config = { matcher: ["/dashboard", "/dashboard/:path*"] };

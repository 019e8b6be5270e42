import { NextResponse, type NextRequest } from "next/server";
import { secureCookies, sessionCookieNamesIn, sessionCookieOf, userIdOfSession } from "@/lib/auth/session";

// /dashboard/** is for signed-in hosts: an anonymous visitor, or one whose session has expired,
// goes to /login and comes back to the page they asked for afterwards. The dashboard's layout
// checks again on the server (the account may be gone); this is the early, cheap turn-away.
// On the pages that read the session (/, /login, /register, the dashboard), a session cookie
// that no longer decodes (stale after a JWT_SECRET change, expired, from another deployment) is
// removed from the browser, so it stops being sent (and logged) on every request.
export async function proxy(req: NextRequest) {
  const cookieHeader = req.headers.get("cookie");
  const cookie = sessionCookieOf(cookieHeader);
  const signedIn = cookie !== undefined && (await userIdOfSession(cookie)) !== null;
  const { pathname, search } = req.nextUrl;
  let res: NextResponse;
  if (signedIn || !(pathname === "/dashboard" || pathname.startsWith("/dashboard/"))) {
    res = NextResponse.next();
  } else {
    const login = new URL("/login", req.url);
    login.searchParams.set("callbackUrl", `${pathname}${search}`);
    res = NextResponse.redirect(login);
  }
  if (cookie !== undefined && !signedIn) {
    for (const name of sessionCookieNamesIn(cookieHeader)) {
      res.cookies.set(name, "", { path: "/", maxAge: 0, httpOnly: true, sameSite: "lax", secure: secureCookies() });
    }
  }
  return res;
}

export const config = { matcher: ["/", "/login", "/register", "/dashboard", "/dashboard/:path*"] };

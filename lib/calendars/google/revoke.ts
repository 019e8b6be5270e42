import "server-only";
import { revokeError } from "../errors";
import { asHttpFailure, statusOf } from "./failure";
import { oauthClient } from "./oauth";

/** Ends the grant at Google (on disconnect). Throws CalendarError, never with the token in it. */
export async function revokeGrant(refreshToken: string): Promise<void> {
  try {
    // Revoking the refresh token ends the whole grant: its access tokens stop working too.
    await oauthClient().revokeToken(refreshToken);
  } catch (e) {
    // Not an HTTP failure: a bug, let it surface as one.
    if (!asHttpFailure(e)) throw e;
    throw revokeError("google", statusOf(e));
  }
}

import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/browser/api-client/fetch-json";
import { CATALOGS } from "@/lib/i18n/catalogs";
import { INTL_TAG } from "@/lib/i18n/locales";
import { bookingFailureMessage } from "./guest-messages";

describe("the booking page's failure messages", () => {
  const refused = new ApiError(400, "validation_error", "bad zone", [{ path: "guestTimezone", message: "Unknown timezone" }]);

  it("names a refused zone as the picker does, never by its id", () => {
    const text = { locale: "en" as const, intl: INTL_TAG.en, m: CATALOGS.en.page };
    const message = bookingFailureMessage(refused, { fieldIssues: 0, timezone: "America/New_York", text });
    expect(message).toBe("The timezone Eastern Time (US & Canada) is not one we can book in. Please choose another one above.");
    expect(message).not.toMatch(/[A-Z][a-z]+\/[A-Z]/);
  });

  it("in German too", () => {
    const text = { locale: "de" as const, intl: INTL_TAG.de, m: CATALOGS.de.page };
    expect(bookingFailureMessage(refused, { fieldIssues: 0, timezone: "Europe/Berlin", text })).not.toMatch(/Europe\/Berlin/);
  });
});

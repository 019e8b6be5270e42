import { describe, expect, it } from "vitest";
import { GUEST, hostActor, SYSTEM } from "./history";
import { refundableUntil, refundReasonOf } from "./refunds";

// Who gets their money back when a paid booking is cancelled (decisions §20): the rules alone.

const HOUR = 3_600_000;
const start = new Date("2027-03-15T09:00:00Z");

describe("a paid booking's cancel", () => {
  it("refunds a host's cancel and decline, and the system's expiry of a request, at any time", () => {
    const late = start.getTime() - 1;
    expect(refundReasonOf(hostActor({ id: "usr_1" }), false, start, 24, late)).toBe("host_cancelled");
    expect(refundReasonOf(hostActor({ id: "usr_1" }), true, start, 24, late)).toBe("declined");
    expect(refundReasonOf(SYSTEM, false, start, 24, start.getTime())).toBe("expired_request");
  });

  it("refunds a guest's cancel up to the window's end, to the millisecond, and not after", () => {
    const end = refundableUntil(start, 24);
    expect(end).toBe(start.getTime() - 24 * HOUR);
    expect(refundReasonOf(GUEST, false, start, 24, end - 60_000)).toBe("guest_cancelled");
    expect(refundReasonOf(GUEST, false, start, 24, end)).toBe("guest_cancelled");
    expect(refundReasonOf(GUEST, false, start, 24, end + 1)).toBeNull();
  });

  it("with a window of 0 hours, refunds a guest's cancel until the start itself", () => {
    expect(refundReasonOf(GUEST, false, start, 0, start.getTime() - 1)).toBe("guest_cancelled");
    expect(refundReasonOf(GUEST, false, start, 0, start.getTime())).toBe("guest_cancelled");
  });
});

import { describe, expect, it } from "vitest";
import { awaitsMeetingLink, fillMeetingTemplate, isWebAddress, readableLocation, templateProblem } from "./meeting-location";

describe("VIDEO_URL_TEMPLATE", () => {
  it("fills {room} and {bookingId}, URL-encoded, and nothing else", () => {
    expect(fillMeetingTemplate("https://meet.jit.si/{room}", { room: "ab12", bookingId: "bkg_x" })).toBe("https://meet.jit.si/ab12");
    expect(fillMeetingTemplate("https://v.example/{bookingId}?r={room}", { room: "a b", bookingId: "bkg_1/2" })).toBe("https://v.example/bkg_1%2F2?r=a%20b");
  });

  it("has no way to put the guest's data in the link: only the two values given are ever read", () => {
    // Guest fields a template might try to name are refused at start, and never filled.
    for (const name of ["guestName", "guestEmail", "email", "name", "customAnswers"]) {
      expect(templateProblem(`https://v.example/{room}/{${name}}`)).toMatch(/unknown placeholder/);
      expect(fillMeetingTemplate(`https://v.example/{room}/{${name}}`, { room: "r", bookingId: "b" })).toBe(`https://v.example/r/{${name}}`);
    }
  });

  it("refuses a template without a per-booking placeholder, or that is no http(s) URL", () => {
    expect(templateProblem("https://meet.example/standing-room")).toMatch(/must contain/);
    expect(templateProblem("meet/{room}")).toMatch(/URL/);
    expect(templateProblem("javascript:alert({room})")).toMatch(/http/);
    expect(templateProblem("https://meet.jit.si/{room}")).toBeUndefined();
    expect(templateProblem("https://meet.example/{bookingId}")).toBeUndefined();
  });
});

describe("what people read", () => {
  const words = { videoCall: "Video call", videoLinkByHost: "The host will send the meeting link" };
  it("a video booking without its link is said in words; a link or a place as it is", () => {
    expect(awaitsMeetingLink("video")).toBe(true);
    expect(awaitsMeetingLink(" Video ")).toBe(true);
    expect(awaitsMeetingLink("Video call at the office")).toBe(false);
    expect(readableLocation("video", words)).toBe("Video call (The host will send the meeting link)");
    expect(readableLocation("https://meet.google.com/abc-defg-hij", words)).toBe("https://meet.google.com/abc-defg-hij");
    expect(readableLocation("", words)).toBe("");
    expect(isWebAddress("https://meet.google.com/abc-defg-hij")).toBe(true);
    expect(isWebAddress("Room 4, https://x.example")).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { escapeXml, followupScript, reminderScript, sayTwiml, spokenWhen } from "./scripts";

const subject = {
  guestName: "Grace",
  guestTimezone: "Europe/Berlin",
  hostName: "Ada Lovelace",
  title: "Intro call",
  startTime: new Date("2027-03-15T08:00:00Z"),
  location: "",
};

const ISO = /\d{4}-\d{2}-\d{2}|T\d{2}:\d{2}|Z\b|[+-]\d{2}:\d{2}/;

describe("spoken times", () => {
  it.each([
    ["2027-03-15T08:00:00Z", "Europe/Berlin", "Monday, March 15, 2027 at 9:00 AM Central European Standard Time"],
    ["2027-07-15T08:00:00Z", "Europe/Berlin", "Thursday, July 15, 2027 at 10:00 AM Central European Summer Time"],
    ["2027-07-15T18:30:00Z", "America/New_York", "Thursday, July 15, 2027 at 2:30 PM Eastern Daylight Time"],
    ["2027-01-04T03:45:00Z", "Asia/Kolkata", "Monday, January 4, 2027 at 9:15 AM India Standard Time"],
  ])("%s in %s is said as people say it", (instant, zone, said) => {
    expect(spokenWhen(new Date(instant), zone)).toBe(said);
  });
});

describe("what the agents say", () => {
  it("the reminder says what, with whom and when in the guest's zone, and where when there is a place", () => {
    const text = reminderScript(subject);
    expect(text).toContain("Your Intro call with Ada Lovelace is on Monday, March 15, 2027 at 9:00 AM Central European Standard Time.");
    expect(text).toMatch(/^Hello Grace,/);
    expect(text).not.toMatch(ISO);
    expect(text).not.toContain("Europe/Berlin");
    expect(reminderScript({ ...subject, location: "Zoom" })).toContain("The location is: Zoom.");
    expect(text).not.toContain("location");
  });

  it("the follow-up says what happened and offers the booking page", () => {
    const cancelled = followupScript({ ...subject, cancelled: true, bookingPage: "book.example.com/ada/intro" });
    expect(cancelled).toContain("Your Intro call with Ada Lovelace on Monday, March 15, 2027 at 9:00 AM Central European Standard Time was cancelled.");
    expect(cancelled).toContain("If you would like to book a new time, please visit Ada Lovelace's booking page at book.example.com/ada/intro.");
    const missed = followupScript({ ...subject, cancelled: false, bookingPage: "book.example.com/ada/intro" });
    expect(missed).toContain("We missed you at your Intro call with Ada Lovelace on Monday, March 15, 2027");
    expect(missed).not.toContain("cancelled");
    expect(missed).not.toMatch(/\d{4}-\d{2}-\d{2}|T\d{2}:\d{2}/);
  });
});

describe("TwiML", () => {
  it("escapes the five XML characters and drops characters XML cannot carry", () => {
    expect(escapeXml(`Tom & Jerry's <"show">`)).toBe("Tom &amp; Jerry&apos;s &lt;&quot;show&quot;&gt;");
    expect(escapeXml("a\u0001b\u001fc\td\ne")).toBe("abc\td\ne");
    expect(sayTwiml("Hi <Grace> & co")).toBe("<Response><Say>Hi &lt;Grace&gt; &amp; co</Say></Response>");
  });
});

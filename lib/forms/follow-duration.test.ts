import { describe, expect, it } from "vitest";
import { STARTER_EVENT_TYPE } from "@/lib/onboarding";
import { followDuration, followUpParts } from "./follow-duration";

const starter = { slug: STARTER_EVENT_TYPE.slug, title: STARTER_EVENT_TYPE.title, description: STARTER_EVENT_TYPE.description };

describe("offering the starter's words for a new length", () => {
  it("offers the link, title and description still generated for the saved length", () => {
    expect(followDuration({ ...starter, durationMinutes: "45" }, 30)).toEqual({
      minutes: 45,
      slug: "45min",
      title: "45 minute meeting",
      description: "A 45-minute conversation. Pick a time that suits you.",
    });
  });

  it("leaves alone what the host wrote: a renamed starter is offered its link and description only", () => {
    const renamed = { ...starter, title: "Coffee chat" };
    expect(followDuration({ ...renamed, durationMinutes: "45" }, 30)).toEqual({ minutes: 45, slug: "45min", description: "A 45-minute conversation. Pick a time that suits you." });
    expect(followUpParts(followDuration({ ...renamed, durationMinutes: "45" }, 30)!)).toBe("the link to /45min and the description");
    expect(followDuration({ ...renamed, slug: "coffee", description: "Let's talk.", durationMinutes: "45" }, 30)).toBeNull();
  });

  it("offers nothing while the length is the saved one or not a length the API takes", () => {
    for (const typed of ["30", "", "4", "721", "45.5", "abc"]) expect(followDuration({ ...starter, durationMinutes: typed }, 30), typed).toBeNull();
  });

  it("follows any saved length, not only the starter's", () => {
    expect(followDuration({ slug: "60min", title: "Planning", description: "", durationMinutes: "90" }, 60)).toEqual({ minutes: 90, slug: "90min" });
  });

  it("offers again words kept at an earlier change (saved at 60, still /30min), once the length changes", () => {
    const kept = { ...starter, title: "Coffee chat" };
    expect(followDuration({ ...kept, durationMinutes: "60" }, 60)).toBeNull();
    expect(followDuration({ ...kept, durationMinutes: "45" }, 60)).toEqual({ minutes: 45, slug: "45min", description: "A 45-minute conversation. Pick a time that suits you." });
    // Words that already say the new length need no offer.
    expect(followDuration({ ...kept, durationMinutes: "30" }, 60)).toBeNull();
    expect(followDuration({ ...kept, slug: "30min-chat", durationMinutes: "45" }, 60)).toEqual({ minutes: 45, description: "A 45-minute conversation. Pick a time that suits you." });
  });

  it("says every part in a list", () => {
    expect(followUpParts({ minutes: 45, slug: "45min", title: "45 minute meeting", description: "…" })).toBe("the link to /45min, the title and the description");
    expect(followUpParts({ minutes: 45, description: "…" })).toBe("the description");
  });
});

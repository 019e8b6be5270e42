import { describe, expect, it } from "vitest";
import { z } from "zod";
import { zodIssues } from "@/lib/schemas/issues";
import { ContentRecord, ImageRecord, keysOf, MAX_TEXT_HINT, mediaContracts, socialPageDescriptor, VideoRecord } from "@/lib/schemas/social-page";

// The descriptor against the social page contract (docs/api.md, decisions §11), value by
// value, written out here rather than read back from the code under test.

describe("social page descriptor", () => {
  const d = socialPageDescriptor();

  it("has every field of the spec table with the spec's values", () => {
    expect(Object.keys(d).sort()).toEqual(
      ["version", "channel", "destination", "mediaType", "reusable", "independent", "updatedAt", "label", "authorField", "oauthScopes", "publishNotes", "mediaContracts", "reuse"].sort(),
    );
    expect(d.version).toBe(1);
    expect(d.channel).toBe("facebook");
    expect(d.destination).toBe("page");
    expect(d.mediaType).toBe("schema");
    expect(d.reusable).toBe(true);
    expect(d.independent).toBe(true);
    // A fixed instant, ISO UTC without milliseconds: the contract's last change, not "now".
    expect(d.updatedAt).toBe("2026-11-23T00:00:00Z");
    expect(d.label).toBe("Facebook page");
    expect(d.authorField).toBe("page_id");
    expect(d.oauthScopes).toEqual(["pages_show_list", "pages_manage_posts", "pages_read_engagement"]);
    expect(d.publishNotes).toMatch(/page access token/);
    expect(d.publishNotes).toMatch(/photo.*photos edge/);
    expect(d.publishNotes).toMatch(/video.*videos edge/);
    expect(d.publishNotes).toMatch(/text.*feed edge/);
  });

  it("states each media contract's required, optional and other fields as the spec table does", () => {
    expect(Object.keys(d.mediaContracts)).toEqual(["content", "image", "video"]);
    expect(d.mediaContracts.content).toEqual({
      required: ["id", "text", "status"],
      optional: ["hashtags", "link", "scheduledAt", "cta"],
      maxTextHint: 2000,
    });
    expect(Number.isInteger(d.mediaContracts.content.maxTextHint)).toBe(true);
    expect(d.mediaContracts.image).toEqual({
      required: ["id", "caption", "image", "status"],
      optional: [],
      imageFields: ["url", "alt", "width", "height", "mimeType"],
      notes: "One primary image per record (carousels are a separate future type).",
    });
    expect(d.mediaContracts.video).toEqual({
      required: ["id", "caption", "video", "status"],
      optional: [],
      videoFields: ["url", "mimeType", "durationSeconds", "width", "height", "thumbnailUrl"],
      preferredMimeType: "video/mp4",
      aspectRatios: { shortForm: "9:16", feed: "16:9" },
      notes: "MP4 preferred; vertical 9:16 for short-form, 16:9 for feed.",
    });
  });

  it("carries the reuse rules: import by channel, destination and mediaType only; never merge channels or types", () => {
    expect(Object.keys(d.reuse).sort()).toEqual(["doNot", "how"]);
    expect(d.reuse.how).toMatch(/by channel, destination and mediaType only/);
    expect(d.reuse.doNot).toMatch(/Never merge different channels, or content and image types, into one file for retrieval/);
  });

  it("derives required and optional lists from the schemas: exactly the shape's keys, split by optionality", () => {
    for (const [type, schema] of Object.entries(mediaContracts)) {
      const contract = d.mediaContracts[type as keyof typeof mediaContracts];
      expect([...contract.required, ...contract.optional].sort(), type).toEqual(Object.keys(schema.shape).sort());
      // Required means a record without it is refused; optional means one without it passes.
      for (const key of contract.required) {
        const issues = schema.safeParse({}).error!.issues.map((i) => i.path.join("."));
        expect(issues, `${type}.${key}`).toContain(key);
      }
      for (const key of contract.optional) expect(schema.shape[key as keyof typeof schema.shape].safeParse(undefined).success, `${type}.${key}`).toBe(true);
    }
    expect(keysOf(z.strictObject({ a: z.string(), b: z.number().optional(), c: z.string().default("x") }))).toEqual({ required: ["a"], optional: ["b", "c"] });
  });
});

const validContent = {
  id: "evt_1.announcement",
  text: "  Intro call with Ada: book a time.  ",
  status: "draft",
  hashtags: ["booking", "#IntroCall", "café_2027"],
  link: "https://book.example.com/ada/intro",
  scheduledAt: "2027-03-15T09:00:00.000+01:00",
  cta: { type: "BOOK_NOW", link: "https://book.example.com/ada/intro" },
};
const validImage = {
  id: "img-1",
  caption: "Our new studio",
  image: { url: "https://cdn.example.com/a.jpg", alt: "A bright room with two chairs", width: 1200, height: 630, mimeType: "IMAGE/JPEG" },
  status: "ready",
};
const validVideo = {
  id: "vid-1",
  caption: "",
  video: { url: "https://cdn.example.com/a.mp4", mimeType: "video/mp4", durationSeconds: 42.5, width: 1080, height: 1920, thumbnailUrl: "https://cdn.example.com/a.jpg" },
  status: "published",
};

/** Paths of the issues a record gets, as the API reports them. */
function pathsOf(schema: z.ZodType, record: unknown): string[] {
  const result = schema.safeParse(record);
  return result.success ? [] : zodIssues(result.error).map((i) => i.path);
}

describe("media contracts", () => {
  it("accept valid records and normalise them (trimmed text, #hashtags, UTC instants, lower-case media types)", () => {
    expect(ContentRecord.parse(validContent)).toEqual({
      ...validContent,
      text: "Intro call with Ada: book a time.",
      hashtags: ["#booking", "#IntroCall", "#café_2027"],
      scheduledAt: "2027-03-15T08:00:00Z",
    });
    expect(ContentRecord.parse({ id: "c", text: "Hello", status: "draft" })).toEqual({ id: "c", text: "Hello", status: "draft" });
    expect(ImageRecord.parse(validImage).image.mimeType).toBe("image/jpeg");
    expect(ImageRecord.parse({ ...validImage, image: { url: validImage.image.url, alt: "x", mimeType: "image/png" } }).image).toEqual({
      url: validImage.image.url,
      alt: "x",
      mimeType: "image/png",
    });
    expect(VideoRecord.parse(validVideo)).toEqual(validVideo);
    expect(VideoRecord.parse({ ...validVideo, video: { url: validVideo.video.url, mimeType: "video/quicktime" } }).video.mimeType).toBe("video/quicktime");
  });

  it.each([
    ["content without text", ContentRecord, { ...validContent, text: undefined }, ["text"]],
    ["content text over maxTextHint", ContentRecord, { ...validContent, text: "x".repeat(MAX_TEXT_HINT + 1) }, ["text"]],
    ["content with a blank text", ContentRecord, { ...validContent, text: "   " }, ["text"]],
    ["content with an unknown status", ContentRecord, { ...validContent, status: "live" }, ["status"]],
    ["content with a two-word hashtag", ContentRecord, { ...validContent, hashtags: ["ok", "two words"] }, ["hashtags.1"]],
    ["content with a javascript: link", ContentRecord, { ...validContent, link: "javascript:alert(1)" }, ["link"]],
    ["content scheduled without an offset", ContentRecord, { ...validContent, scheduledAt: "2027-03-15T09:00:00" }, ["scheduledAt"]],
    ["content with an unknown cta type", ContentRecord, { ...validContent, cta: { type: "BUY", link: validContent.link } }, ["cta.type"]],
    ["content with an unknown field", ContentRecord, { ...validContent, image: validImage.image }, ["image"]],
    ["content with a NUL in the text", ContentRecord, { ...validContent, text: "a\u0000b" }, ["text"]],
    ["content id with spaces", ContentRecord, { ...validContent, id: "my post" }, ["id"]],
    ["image without image", ImageRecord, { ...validImage, image: undefined }, ["image"]],
    ["image with a bad url", ImageRecord, { ...validImage, image: { ...validImage.image, url: "not a url" } }, ["image.url"]],
    ["image without alt", ImageRecord, { ...validImage, image: { ...validImage.image, alt: "" } }, ["image.alt"]],
    ["image with a video media type", ImageRecord, { ...validImage, image: { ...validImage.image, mimeType: "video/mp4" } }, ["image.mimeType"]],
    ["image with a fractional width", ImageRecord, { ...validImage, image: { ...validImage.image, width: 10.5 } }, ["image.width"]],
    ["image with several images", ImageRecord, { ...validImage, images: [validImage.image] }, ["images"]],
    ["image with optional content fields", ImageRecord, { ...validImage, hashtags: ["x"] }, ["hashtags"]],
    ["video without caption", VideoRecord, { ...validVideo, caption: undefined }, ["caption"]],
    ["video with an image media type", VideoRecord, { ...validVideo, video: { ...validVideo.video, mimeType: "image/gif" } }, ["video.mimeType"]],
    ["video with a negative duration", VideoRecord, { ...validVideo, video: { ...validVideo.video, durationSeconds: -1 } }, ["video.durationSeconds"]],
    ["video with a bad thumbnail", VideoRecord, { ...validVideo, video: { ...validVideo.video, thumbnailUrl: "ftp://x/y.jpg" } }, ["video.thumbnailUrl"]],
  ])("reject %s at the field's path", (_, schema, record, paths) => {
    expect(pathsOf(schema as z.ZodType, record)).toEqual(paths);
  });
});

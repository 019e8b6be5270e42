import { describe, expect, it } from "vitest";
import { ContentRecord, MAX_TEXT_HINT } from "@/lib/schemas/social-page";
import { api } from "../support/api";
import { withTestDatabase } from "../support/database";
import { createEventType, createHost } from "../support/factories";

withTestDatabase();

describe("GET /contracts/social-page", () => {
  it("answers the descriptor record without credentials", async () => {
    const res = await api.get("/contracts/social-page");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      version: 1,
      channel: "facebook",
      destination: "page",
      mediaType: "schema",
      reusable: true,
      independent: true,
      updatedAt: "2026-11-23T00:00:00Z",
      authorField: "page_id",
      oauthScopes: ["pages_show_list", "pages_manage_posts", "pages_read_engagement"],
      mediaContracts: {
        content: { required: ["id", "text", "status"], optional: ["hashtags", "link", "scheduledAt", "cta"], maxTextHint: MAX_TEXT_HINT },
        image: { required: ["id", "caption", "image", "status"], optional: [], imageFields: ["url", "alt", "width", "height", "mimeType"] },
        video: { required: ["id", "caption", "video", "status"], optional: [], videoFields: ["url", "mimeType", "durationSeconds", "width", "height", "thumbnailUrl"] },
      },
      reuse: { how: expect.any(String), doNot: expect.any(String) },
    });
    // The same instant on every call: the contract's last change, not the time of the request.
    expect((await api.get("/contracts/social-page")).body.updatedAt).toBe(res.body.updatedAt);
  });
});

describe("POST /contracts/social-page/validate", () => {
  it("answers 200 with the normalised record", async () => {
    const record = { id: "post-1", text: "  Hello  ", status: "draft", hashtags: ["booking"], scheduledAt: "2027-03-15T10:00:00+01:00" };
    const res = await api.post("/contracts/social-page/validate", { mediaType: "content", record });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ mediaType: "content", record: { ...record, text: "Hello", hashtags: ["#booking"], scheduledAt: "2027-03-15T09:00:00Z" } });

    const image = { id: "img-1", caption: "Studio", status: "ready", image: { url: "https://cdn.example.com/a.png", alt: "A room", mimeType: "image/PNG" } };
    const ok = await api.post("/contracts/social-page/validate", { mediaType: "image", record: image });
    expect(ok.status).toBe(200);
    expect(ok.body.record.image.mimeType).toBe("image/png");
  });

  it("answers 400 validation_error with each problem at its path", async () => {
    const broken = await api.post("/contracts/social-page/validate", {
      mediaType: "image",
      record: { id: "img-1", caption: "x", status: "ready", image: { url: "not a url", alt: "A room", mimeType: "image/png" } },
    });
    expect(broken.status).toBe(400);
    expect(broken.body.error).toBe("validation_error");
    expect(broken.body.details.issues).toEqual([{ path: "record.image.url", message: expect.any(String) }]);

    const video = await api.post("/contracts/social-page/validate", {
      mediaType: "video",
      record: { id: "v", caption: "", status: "gone", video: { url: "https://cdn.example.com/v.mp4", mimeType: "video/mp4", extra: 1 } },
    });
    expect(video.body.details.issues.map((i: { path: string }) => i.path).sort()).toEqual(["record.status", "record.video.extra"]);

    // A record checked against the wrong contract fails where the contracts differ.
    const content = await api.post("/contracts/social-page/validate", { mediaType: "content", record: { id: "v", caption: "x", status: "draft" } });
    expect(content.body.details.issues.map((i: { path: string }) => i.path).sort()).toEqual(["record.caption", "record.text"]);

    const unknownType = await api.post("/contracts/social-page/validate", { mediaType: "carousel", record: {} });
    expect(unknownType.status).toBe(400);
    expect(unknownType.body.details.issues).toEqual([expect.objectContaining({ path: "mediaType" })]);
    expect((await api.post("/contracts/social-page/validate", { mediaType: "content" })).body.details.issues).toEqual([expect.objectContaining({ path: "record" })]);
  });
});

describe("GET /me/event-types/{id}/social-post", () => {
  it("answers a valid content record announcing the booking page, with a booking call to action", async () => {
    const host = await createHost({ fullName: "Ada Lovelace" });
    const et = await createEventType(host, { title: "Intro call", durationMinutes: 45, location: "Zoom", description: "Let us get to know each other." });
    const res = await api.get(`/me/event-types/${et.id}/social-post`, { token: host.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const link = `http://booking.test/${host.username}/${et.slug}`;
    expect(res.body).toEqual({
      id: `${et.id}.announcement`,
      text: `Intro call with Ada Lovelace\n\n45 minutes · Zoom\n\nLet us get to know each other.\n\nBook a time: ${link}`,
      status: "draft",
      link,
      cta: { type: "BOOK_NOW", link },
    });
    expect(et.publicUrl).toBe(link);
    // What we hand out passes the validator we publish, unchanged.
    const checked = await api.post("/contracts/social-page/validate", { mediaType: "content", record: res.body });
    expect(checked.status).toBe(200);
    expect(checked.body.record).toEqual(res.body);
  });

  it("keeps the text within maxTextHint, cutting the description and never the link", async () => {
    const host = await createHost();
    const et = await createEventType(host, { title: "T".repeat(200), location: "L".repeat(500), description: `${"word ".repeat(999)}😀😀` });
    const res = await api.get(`/me/event-types/${et.id}/social-post`, { token: host.token });
    expect(res.status).toBe(200);
    expect(res.body.text.length).toBeLessThanOrEqual(MAX_TEXT_HINT);
    expect(res.body.text.length).toBeGreaterThan(MAX_TEXT_HINT - 10);
    expect(res.body.text).toMatch(new RegExp(`…\\n\\nBook a time: ${res.body.link.replace(/[.]/g, "\\.")}$`));
    expect(ContentRecord.safeParse(res.body).success).toBe(true);
  });

  it("is 404 for another host's event type and an unknown id, 401 without a token, 409 for an inactive event type", async () => {
    const host = await createHost();
    const other = await createHost();
    const et = await createEventType(host);
    expect((await api.get(`/me/event-types/${et.id}/social-post`, { token: other.token })).status).toBe(404);
    expect((await api.get("/me/event-types/evt_unknown/social-post", { token: host.token })).status).toBe(404);
    expect((await api.get(`/me/event-types/${et.id}/social-post`)).status).toBe(401);
    await api.patch(`/me/event-types/${et.id}`, { isActive: false }, { token: host.token });
    const inactive = await api.get(`/me/event-types/${et.id}/social-post`, { token: host.token });
    expect(inactive.status).toBe(409);
    expect(inactive.body.error).toBe("conflict");
  });
});

describe("OpenAPI", () => {
  it("documents both contract routes and the social post with their schemas", async () => {
    const doc = (await api.get("/openapi.json")).body;
    expect(doc.paths["/api/v1/contracts/social-page"].get.security).toEqual([]);
    expect(doc.paths["/api/v1/contracts/social-page"].get.responses["200"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/SocialPageDescriptor" });
    const validate = doc.paths["/api/v1/contracts/social-page/validate"].post;
    expect(validate.requestBody.content["application/json"].schema.oneOf).toHaveLength(3);
    expect(doc.components.schemas).toHaveProperty("SocialContentRecordInput");
    expect(doc.components.schemas).toHaveProperty("SocialImageRecordInput");
    expect(doc.components.schemas).toHaveProperty("SocialVideoRecordInput");
    expect(doc.paths["/api/v1/me/event-types/{eventTypeId}/social-post"].get.responses["200"].content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/SocialContentRecord",
    });
  });
});

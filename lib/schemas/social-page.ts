import "server-only";
import { z } from "zod";
import { Text } from "@/lib/schemas/common";
import { isInstantInRange, isoUtc, MAX_YEAR, MIN_YEAR } from "@/lib/time/instants";

// The social page channel contract (docs/api.md "The two auxiliary contracts", decisions
// §2 and §11): how content records for a Facebook page look. The media contracts are the zod
// schemas below; the descriptor's required and optional lists are read from their shapes, so
// the descriptor cannot promise a field the validator does not check, or the other way round.

export const SOCIAL_PAGE_CONTRACT_VERSION = 1;
/** When this contract last changed (schemas or descriptor): move it with every change. */
export const SOCIAL_PAGE_CONTRACT_UPDATED_AT = "2026-11-23T00:00:00Z";
/** The longest text (or caption) a record may carry, in UTF-16 units as JavaScript counts. */
export const MAX_TEXT_HINT = 2000;

export const recordStatuses = ["draft", "ready", "published"] as const;
export const ctaTypes = ["BOOK_NOW", "LEARN_MORE", "SIGN_UP", "CONTACT_US"] as const;

const RecordId = Text.trim()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/, "Must start with a letter or digit, then letters, digits, '_', '.', ':' or '-'");

const HttpUrl = Text.trim()
  .max(2048)
  .pipe(z.url({ protocol: /^https?$/, message: "Must be an http or https URL" }));

const Status = z.enum(recordStatuses);

const Hashtag = Text.trim()
  .regex(/^#?[\p{L}\p{N}_]{1,100}$/u, "Must be one word of letters, digits or '_', with or without a leading #")
  .transform((tag) => (tag.startsWith("#") ? tag : `#${tag}`));

/** In: any ISO 8601 instant with an offset. Out: UTC without milliseconds, like every timestamp we give. */
const Instant = z.iso
  .datetime({ offset: true, message: "Must be an ISO 8601 timestamp with an offset, e.g. 2027-03-15T13:00:00Z" })
  .refine((s) => isInstantInRange(Date.parse(s)), { message: `Must be an instant in the years ${MIN_YEAR}–${MAX_YEAR}` })
  .transform((s) => isoUtc(new Date(s)));

const Cta = z.strictObject({ type: z.enum(ctaTypes), link: HttpUrl });

const Caption = Text.trim().max(MAX_TEXT_HINT);

const Dimension = z.number().int().min(1).max(16_384);

const mimeTypeOf = (kind: "image" | "video") =>
  Text.trim()
    .toLowerCase()
    .regex(new RegExp(`^${kind}/[a-z0-9][a-z0-9.+-]*$`), `Must be an ${kind}/… media type, e.g. ${kind === "image" ? "image/jpeg" : "video/mp4"}`);

export const ImageFields = z
  .strictObject({
    url: HttpUrl,
    alt: Text.trim().min(1, "Describe the image for people who cannot see it").max(1000),
    width: Dimension.optional(),
    height: Dimension.optional(),
    mimeType: mimeTypeOf("image"),
  })
  .meta({ id: "SocialImage" });

export const VideoFields = z
  .strictObject({
    url: HttpUrl,
    mimeType: mimeTypeOf("video"),
    // A page video may run up to four hours.
    durationSeconds: z.number().positive().max(4 * 3600).optional(),
    width: Dimension.optional(),
    height: Dimension.optional(),
    thumbnailUrl: HttpUrl.optional(),
  })
  .meta({ id: "SocialVideo" });

export const ContentRecord = z
  .strictObject({
    id: RecordId,
    text: Text.trim().min(1).max(MAX_TEXT_HINT),
    status: Status,
    hashtags: z.array(Hashtag).max(30).optional(),
    link: HttpUrl.optional(),
    scheduledAt: Instant.optional(),
    cta: Cta.optional(),
  })
  .meta({ id: "SocialContentRecord" });

export const ImageRecord = z
  .strictObject({ id: RecordId, caption: Caption, image: ImageFields, status: Status })
  .meta({ id: "SocialImageRecord" });

export const VideoRecord = z
  .strictObject({ id: RecordId, caption: Caption, video: VideoFields, status: Status })
  .meta({ id: "SocialVideoRecord" });

export const mediaContracts = { content: ContentRecord, image: ImageRecord, video: VideoRecord } as const;
export type MediaType = keyof typeof mediaContracts;
export type ContentRecordOut = z.output<typeof ContentRecord>;

/** A record's keys as the contract states them: the ones it must carry and the ones it may. */
export function keysOf(schema: z.ZodObject): { required: string[]; optional: string[] } {
  const entries = Object.entries(schema.shape as Record<string, z.ZodType>);
  return {
    required: entries.filter(([, field]) => !field.isOptional()).map(([key]) => key),
    optional: entries.filter(([, field]) => field.isOptional()).map(([key]) => key),
  };
}

const label = (list: string[]) => list.join(", ");

export function socialPageDescriptor() {
  return {
    version: SOCIAL_PAGE_CONTRACT_VERSION,
    channel: "facebook",
    destination: "page",
    mediaType: "schema",
    reusable: true,
    independent: true,
    updatedAt: SOCIAL_PAGE_CONTRACT_UPDATED_AT,
    label: "Facebook page",
    authorField: "page_id",
    oauthScopes: ["pages_show_list", "pages_manage_posts", "pages_read_engagement"],
    publishNotes:
      "Publish with a page access token (not a user token): photo records go to the page's photos edge " +
      "(/{page_id}/photos), video records to its videos edge (/{page_id}/videos), and text records to its feed edge (/{page_id}/feed).",
    mediaContracts: {
      content: { ...keysOf(ContentRecord), maxTextHint: MAX_TEXT_HINT },
      image: {
        ...keysOf(ImageRecord),
        imageFields: Object.keys(ImageFields.shape),
        notes: "One primary image per record (carousels are a separate future type).",
      },
      video: {
        ...keysOf(VideoRecord),
        videoFields: Object.keys(VideoFields.shape),
        preferredMimeType: "video/mp4",
        aspectRatios: { shortForm: "9:16", feed: "16:9" },
        notes: "MP4 preferred; vertical 9:16 for short-form, 16:9 for feed.",
      },
    },
    reuse: {
      how: "Import records into generation and publishing pipelines by channel, destination and mediaType only (here facebook, page, and content, image or video).",
      doNot: `Never merge different channels, or content and image types, into one file for retrieval: keep one file per channel and media type (${label(Object.keys(mediaContracts))}).`,
    },
  };
}

const KeyLists = { required: z.array(z.string()), optional: z.array(z.string()) };

export const SocialPageDescriptor = z
  .object({
    version: z.number().int(),
    channel: z.literal("facebook"),
    destination: z.literal("page"),
    mediaType: z.literal("schema"),
    reusable: z.boolean(),
    independent: z.boolean(),
    updatedAt: z.string(),
    label: z.string(),
    authorField: z.literal("page_id"),
    oauthScopes: z.array(z.string()),
    publishNotes: z.string(),
    mediaContracts: z.object({
      content: z.object({ ...KeyLists, maxTextHint: z.number().int() }),
      image: z.object({ ...KeyLists, imageFields: z.array(z.string()), notes: z.string() }),
      video: z.object({
        ...KeyLists,
        videoFields: z.array(z.string()),
        preferredMimeType: z.string(),
        aspectRatios: z.object({ shortForm: z.string(), feed: z.string() }),
        notes: z.string(),
      }),
    }),
    reuse: z.object({ how: z.string(), doNot: z.string() }),
  })
  .meta({ id: "SocialPageDescriptor" });

/** POST /contracts/social-page/validate: a record and the media contract to check it against. */
export const ValidateSocialRecordBody = z.discriminatedUnion("mediaType", [
  z.strictObject({ mediaType: z.literal("content"), record: ContentRecord }),
  z.strictObject({ mediaType: z.literal("image"), record: ImageRecord }),
  z.strictObject({ mediaType: z.literal("video"), record: VideoRecord }),
]);

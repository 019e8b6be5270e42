import { z } from "zod";
import { PathSegment, Timestamp } from "./common";

// A host's linked accounts at the company's OpenID Connect provider (decisions §22).

export const IdentityParams = z.object({ identityId: PathSegment });

export const Identity = z
  .object({
    id: z.string().meta({ example: "idn_3q8PZ0c1Zr2V9f4uWbq2Cg" }),
    provider: z.string().meta({ description: "The sign-in's name on this server (OIDC_NAME)", example: "Company sign-in" }),
    issuer: z.string().meta({ description: "The OpenID provider's issuer", example: "https://login.example.com" }),
    email: z.string().nullable().meta({ description: "The email the provider gave at the last sign-in" }),
    createdAt: Timestamp.meta({ description: "When it was linked" }),
    lastUsedAt: Timestamp.nullable().meta({ description: "When it last signed in; null: never" }),
  })
  .meta({ id: "Identity" });

export const IdentityList = z
  .object({
    data: z.array(Identity),
    hasPassword: z.boolean().meta({ description: "Whether the account has a password (without one, its last identity cannot be unlinked)" }),
    passwordLogin: z.boolean().meta({ description: "Whether this server takes passwords at all (PASSWORD_LOGIN)" }),
    oidc: z
      .object({ name: z.string().meta({ description: "The sign-in button's label (OIDC_NAME)" }) })
      .nullable()
      .meta({ description: "The company sign-in this server offers; null: none is configured" }),
  })
  .meta({ id: "IdentityList" });

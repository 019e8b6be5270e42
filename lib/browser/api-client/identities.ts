import { queryOptions } from "@tanstack/react-query";
import { api, dataOf, type Schemas } from "./client";

// The account's linked company sign-ins (decisions §22), listed and unlinked in Settings.

export type IdentityDto = Schemas["Identity"];
export type IdentityListDto = Schemas["IdentityList"];

export const identityKeys = { all: ["me", "identities"] as const };

export const identitiesQuery = () => queryOptions({ queryKey: identityKeys.all, queryFn: () => dataOf(api.GET("/me/identities")) });

export const unlinkIdentity = (identityId: string) => dataOf(api.DELETE("/me/identities/{identityId}", { params: { path: { identityId } } }));

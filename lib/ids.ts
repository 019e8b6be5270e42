import "server-only";
import { randomBytes } from "node:crypto";

export type IdPrefix = "usr" | "sch" | "evt" | "cal" | "cld" | "bkg" | "whk" | "whd" | "msg" | "call" | "pwr" | "emc" | "team" | "tinv" | "pch" | "key" | "ser" | "otl" | "ooo" | "pay" | "rfd" | "idn";

/** A type prefix and 22 random URL-safe characters (128 bits): `evt_3q8…`. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBytes(16).toString("base64url")}`;
}

"use server";

import { getDb } from "@/db";
import { AppError } from "@/lib/http/errors";
import { cancelBookingAsGuest } from "@/lib/services/cancel-booking";

export type CancelState = { status: "idle" } | { status: "cancelled"; message: string } | { status: "error"; message: string };

/** The cancel page's form (bound to the token): the same service as POST /api/v1/public/cancel. */
export async function cancelWithToken(token: string): Promise<CancelState> {
  try {
    const result = await cancelBookingAsGuest(await getDb(), token, Date.now());
    return { status: "cancelled", message: result.message };
  } catch (error) {
    if (error instanceof AppError) return { status: "error", message: error.message };
    throw error;
  }
}

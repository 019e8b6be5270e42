import "server-only";
import { notFound } from "next/navigation";
import { AppError } from "@/lib/errors";

/** For server components: a service's 404 becomes the page's 404; anything else is thrown on. */
export async function orNotFoundPage<T>(pending: Promise<T>): Promise<T> {
  try {
    return await pending;
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") notFound();
    throw error;
  }
}

import "server-only";
import type { BookingRow, EventTypeRow } from "@/db/schema";
import { toE164 } from "@/lib/phone";

/** The guest's answer to the event type's phone question, in E.164; undefined when there is none. */
export function guestPhoneOf(booking: Pick<BookingRow, "customAnswers">, questions: EventTypeRow["customQuestions"]): string | undefined {
  const answers = new Map(Object.entries(booking.customAnswers));
  for (const question of questions) {
    if (question.type !== "phone") continue;
    const answer = answers.get(question.id)?.trim();
    // Answers are checked when the booking is made; one given before the question asked for a
    // phone number may not be one.
    const number = answer ? toE164(answer) : undefined;
    if (number) return number;
  }
  return undefined;
}

"use client";

import { Alert } from "@/components/ui/alert";
import { notSavedSentence } from "@/lib/forms/field-errors";
import type { SaveFailure } from "./use-event-type-save";

/**
 * Above the form after a failed save: how many fields still need a change, problems no field
 * shows, or what went wrong otherwise. The count follows the fixes; with every field right and
 * nothing else to say, the box goes.
 */
export function SaveFailureSummary({ failed, stillWrong, isNew }: { failed: SaveFailure | null; stillWrong: number; isNew: boolean }) {
  if (!failed) return null;
  const notSaved = isNew ? "Your event type was not created" : "Your changes were not saved";
  const summary = failed.message ?? (stillWrong > 0 ? notSavedSentence(notSaved, stillWrong) : failed.more.length > 0 ? `${notSaved}.` : null);
  if (!summary) return null;
  return (
    <Alert tone="error">
      <p>{summary}</p>
      {failed.more.length > 0 && (
        <ul className="mt-1 list-disc pl-5">
          {failed.more.map((text) => (
            <li key={text}>{text}</li>
          ))}
        </ul>
      )}
    </Alert>
  );
}

"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { ApiForm } from "@/components/ui/use-api-form";
import { createEventType, eventTypeKeys, updateEventType, type EventTypeDto, type EventTypeInputOf } from "@/lib/browser/api-client/event-types";
import type { ApiError } from "@/lib/browser/api-client/fetch-json";
import { toEventTypeBody, type EventTypeValues } from "@/lib/forms/event-type";
import { eventTypeFieldOf, eventTypeServerWords, unplacedWords } from "@/lib/forms/event-type-issues";
import { homeOf, OWNER_WORDS, type EditorOwner } from "./owner";

/** After a failed save: problems no field shows (`more`), or what went wrong otherwise (`message`). */
export type SaveFailure = { message?: string; more: string[] };

/**
 * Saving the event-type form: a new one is created, a stored one changed (every field sent), for
 * its owner; then back to the owner's list. What the API refuses is said at its field, the rest
 * above the form.
 */
export function useEventTypeSave(owner: EditorOwner, eventType: EventTypeDto | undefined, apiForm: ApiForm<EventTypeValues>) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const { showServerIssues, showServerError } = apiForm;
  const [failed, setFailed] = useState<SaveFailure | null>(null);

  const save = useMutation<unknown, ApiError, EventTypeInputOf<EditorOwner>>({
    mutationFn: (input) => (eventType ? updateEventType(owner, eventType.id, input) : createEventType(owner, input)),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: eventTypeKeys.list(owner) });
      router.push(homeOf(owner).href);
    },
    onError: (error) => {
      if (error.status === 401) return; // the dashboard is taking the person to /login
      // An event type's only unique part is its link (per owner): a conflict is the link's, whether or not the API names the field.
      if (error.code === "conflict" && (error.details.field ?? "slug") === "slug") {
        showServerError("slug", OWNER_WORDS[owner.kind].slugTaken);
        return setFailed({ more: [] });
      }
      if (error.issues.length === 0) return setFailed({ message: error.message, more: [] });
      const unplaced = showServerIssues(error.issues, eventTypeFieldOf, eventTypeServerWords);
      setFailed({ more: unplaced.map((i) => unplacedWords(i.message, i.path)) });
    },
  });

  // Everything the page can see is said at once, before anything is sent.
  const submit = apiForm.onSubmit(
    (values) => {
      setFailed(null);
      save.mutate(toEventTypeBody(values, owner.kind));
    },
    () => setFailed({ more: [] }),
  );

  return { submit, pending: save.isPending, failed };
}

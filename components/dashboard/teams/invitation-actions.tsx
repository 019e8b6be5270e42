"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { ApiError } from "@/lib/browser/api-client/fetch-json";
import { acceptInvitation, removeMember, teamKeys, type TeamDto } from "@/lib/browser/api-client/teams";

/** Accept or decline (= leave, decisions §15) an invitation to `team` (its id and name are enough). */
export function InvitationActions({ team, myUserId, onDeclined }: { team: Pick<TeamDto, "id" | "name">; myUserId: string; onDeclined?: () => void }) {
  const queryClient = useQueryClient();
  const [confirmDecline, setConfirmDecline] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: teamKeys.all });
  const accept = useMutation<TeamDto, ApiError>({
    mutationFn: () => acceptInvitation(team.id),
    onSuccess: (stored) => {
      queryClient.setQueryData<TeamDto>(teamKeys.team(stored.id), stored);
      void refresh();
    },
  });
  const decline = useMutation<undefined, ApiError>({
    mutationFn: () => removeMember(team.id, myUserId),
    onSuccess: async () => {
      setConfirmDecline(false);
      await refresh();
      onDeclined?.();
    },
  });
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap gap-2">
        <Button size="sm" disabled={accept.isPending} onClick={() => accept.mutate()} aria-label={`Accept the invitation to ${team.name}`}>
          {accept.isPending ? "Accepting…" : "Accept"}
        </Button>
        <Button variant="secondary" size="sm" disabled={accept.isPending} onClick={() => setConfirmDecline(true)} aria-label={`Decline the invitation to ${team.name}`}>
          Decline
        </Button>
      </div>
      {accept.isError && <Alert tone="error">{accept.error.message}</Alert>}
      <ConfirmDialog
        open={confirmDecline}
        title={`Decline the invitation to ${team.name}?`}
        confirmLabel="Decline"
        cancelLabel="Not now"
        pending={decline.isPending}
        onConfirm={() => decline.mutate()}
        onClose={() => setConfirmDecline(false)}
      >
        <p>The team will no longer list you. An owner can invite you again later.</p>
        {decline.isError && (
          <Alert tone="error" className="mt-3">
            {decline.error.message}
          </Alert>
        )}
      </ConfirmDialog>
    </div>
  );
}

"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { useController, useWatch, type Control } from "react-hook-form";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { TextField } from "@/components/ui/form-field";
import { useApiForm } from "@/components/ui/use-api-form";
import { ApiError } from "@/lib/browser/api-client/fetch-json";
import {
  changeRole,
  invite,
  removeMember,
  teamKeys,
  withdrawEmailInvitation,
  type TeamDto,
  type TeamEmailInvitationDto,
  type TeamMemberDto,
  type TeamRole,
} from "@/lib/browser/api-client/teams";
import { inviteBody, inviteRules, isEmailInvitee, type InviteValues } from "@/lib/forms/team";
import { LANGUAGE_NAMES, LOCALES } from "@/lib/i18n/locales";

/** How long an invitation waits for its answer (the API's INVITATION_TTL_DAYS). */
const INVITATION_DAYS = 7;
import { InvitedBadge, RoleBadge } from "./badges";

const selectClass = "rounded-md border border-slate-300 bg-white px-2 py-1 text-sm";

/** The team as the API now has it, in the list every teams page reads. */
function useRefreshTeams() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: teamKeys.all });
}

function RoleSelect({ team, member }: { team: TeamDto; member: TeamMemberDto }) {
  const refresh = useRefreshTeams();
  const change = useMutation<unknown, ApiError, TeamRole>({ mutationFn: (role) => changeRole(team.id, member.userId, role), onSuccess: () => void refresh() });
  const role = change.isPending && change.variables ? change.variables : member.role;
  return (
    <div className="flex flex-col gap-1">
      <select
        aria-label={`Role of ${member.fullName}`}
        value={role}
        disabled={change.isPending}
        onChange={(e) => change.mutate(e.target.value as TeamRole)}
        className={selectClass}
      >
        <option value="owner">Owner</option>
        <option value="member">Member</option>
      </select>
      {change.isError && <p className="text-sm text-red-700">{change.error.message}</p>}
    </div>
  );
}

/** Remove a member (owner), or leave (oneself): the last owner cannot leave, and the API says so. */
function RemoveMember({ team, member, isSelf }: { team: TeamDto; member: TeamMemberDto; isSelf: boolean }) {
  const router = useRouter();
  const refresh = useRefreshTeams();
  const [open, setOpen] = useState(false);
  const remove = useMutation<undefined, ApiError>({
    mutationFn: () => removeMember(team.id, member.userId),
    onSuccess: async () => {
      setOpen(false);
      if (isSelf) router.push("/dashboard/teams");
      await refresh();
    },
  });
  const invited = member.status === "invited";
  const label = isSelf ? "Leave team" : invited ? "Withdraw invitation" : "Remove";
  return (
    <>
      <Button variant="ghost" size="sm" onClick={() => setOpen(true)} aria-label={isSelf ? `Leave ${team.name}` : `${label}: ${member.fullName}`}>
        {label}
      </Button>
      <ConfirmDialog
        open={open}
        title={isSelf ? `Leave ${team.name}?` : invited ? `Withdraw the invitation to ${member.fullName}?` : `Remove ${member.fullName} from ${team.name}?`}
        confirmLabel={isSelf ? "Leave team" : invited ? "Withdraw" : "Remove"}
        cancelLabel={isSelf ? "Stay" : "Keep"}
        pending={remove.isPending}
        onConfirm={() => remove.mutate()}
        onClose={() => {
          setOpen(false);
          remove.reset();
        }}
      >
        <p>
          {isSelf
            ? "You stop hosting the team's event types. Bookings you already have stay as they are."
            : invited
              ? `${member.fullName} will no longer see the invitation.`
              : `${member.fullName} stops hosting the team's event types. Bookings they already have stay as they are.`}
        </p>
        {remove.isError && (
          <Alert tone="error" className="mt-3">
            {remove.error.message}
          </Alert>
        )}
      </ConfirmDialog>
    </>
  );
}

function MemberRow({ team, member, myUserId, owner }: { team: TeamDto; member: TeamMemberDto; myUserId: string; owner: boolean }) {
  const isSelf = member.userId === myUserId;
  // One's own invitation is declined where it is accepted (the page's invitation box).
  const canRemove = owner || (isSelf && member.status === "active");
  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex min-w-0 flex-col">
        <p className="flex flex-wrap items-center gap-2">
          <span className="font-medium">{member.fullName}</span>
          {isSelf && <span className="text-sm text-slate-500">(you)</span>}
          {member.status === "invited" && <InvitedBadge />}
          {!owner && <RoleBadge role={member.role} />}
        </p>
        <p className="truncate text-sm text-slate-600">@{member.username}</p>
      </div>
      {canRemove && (
        <div className="flex flex-wrap items-start gap-2">
          {owner && <RoleSelect team={team} member={member} />}
          <RemoveMember team={team} member={member} isSelf={isSelf} />
        </div>
      )}
    </li>
  );
}

function RoleField({ control }: { control: Control<InviteValues, undefined, InviteValues> }) {
  const id = useId();
  const {
    field: { ref, ...field },
  } = useController({ control, name: "role" });
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        Role
      </label>
      <select id={id} ref={ref} name={field.name} value={field.value} onChange={(e) => field.onChange(e.target.value)} onBlur={field.onBlur} className={`${selectClass} py-2`}>
        <option value="member">Member: hosts and sees the team</option>
        <option value="owner">Owner: also changes the team</option>
      </select>
    </div>
  );
}

/** The language of an invitation email (each language by its own name): shown once an address is typed. */
function LanguageField({ control }: { control: Control<InviteValues, undefined, InviteValues> }) {
  const id = useId();
  const {
    field: { ref, ...field },
  } = useController({ control, name: "language" });
  return (
    <div className="flex flex-col gap-1 sm:max-w-xs">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        Language of the email
      </label>
      <select id={id} ref={ref} name={field.name} value={field.value} onChange={(e) => field.onChange(e.target.value)} onBlur={field.onBlur} className={`${selectClass} py-2`}>
        {LOCALES.map((l) => (
          <option key={l} value={l} lang={l}>
            {LANGUAGE_NAMES[l]}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * Invite by username or by email address (owner). A username's person sees the invitation on
 * their Teams page; an address gets an email, with a sign-up link if no account uses it (the
 * page cannot tell, and does not say).
 */
function InviteForm({ team }: { team: TeamDto }) {
  const refresh = useRefreshTeams();
  const { form, formRef, onSubmit, showServerIssues, showServerError } = useApiForm<InviteValues>({
    rules: inviteRules,
    defaultValues: { invitee: "", role: "member", language: "en" },
  });
  const [failure, setFailure] = useState<string | null>(null);
  const [invited, setInvited] = useState<string | null>(null);
  const send = useMutation<TeamMemberDto | TeamEmailInvitationDto, ApiError, InviteValues>({
    mutationFn: (v) => invite(team.id, inviteBody(v)),
  });
  const byEmail = isEmailInvitee(useWatch({ control: form.control, name: "invitee" }) ?? "");

  const submit = onSubmit(
    async (values) => {
      setFailure(null);
      setInvited(null);
      try {
        const answer = await send.mutateAsync(values);
        form.reset({ invitee: "", role: values.role, language: values.language });
        setInvited(
          "email" in answer
            ? `An invitation is on its way to ${answer.email}. It waits for an answer for ${INVITATION_DAYS} days.`
            : `${answer.fullName} is invited. They can host once they accept.`,
        );
        await refresh();
      } catch (error) {
        if (!(error instanceof ApiError)) return setFailure("Something went wrong on this page. Please try again.");
        if (error.status === 401) return;
        if (error.status === 404) return showServerError("invitee", "No one has this username. Check the spelling, or invite them by email.");
        // Past a cap on invitations waiting for an answer (the inviter's or the person's): the API's words.
        if (error.code === "conflict" && error.details.limit) return showServerError("invitee", error.message);
        if (error.code === "conflict" && error.details.field === "email") return showServerError("invitee", "This address is already invited to the team.");
        if (error.code === "conflict") return showServerError("invitee", "This person is already a member or invited.");
        const unplaced = showServerIssues(error.issues, (path) => (path === "username" || path === "email" ? "invitee" : path === "role" || path === "language" ? path : undefined));
        if (unplaced.length === error.issues.length) setFailure(error.message);
      }
    },
    () => setInvited(null),
  );

  return (
    <form ref={formRef} onSubmit={submit} noValidate aria-labelledby="invite-heading" className="flex flex-col gap-3 border-t border-slate-200 pt-4">
      <h3 id="invite-heading" className="font-semibold">
        Invite someone
      </h3>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-[1fr_auto] sm:items-start">
        <TextField
          control={form.control}
          name="invitee"
          label="Username or email"
          required
          hint="Their username here, as in their booking link, or their email address: we email them, with a link to sign up if they have no account yet."
          autoCapitalize="none"
          autoComplete="off"
          spellCheck={false}
          maxLength={254}
        />
        <RoleField control={form.control} />
      </div>
      {byEmail && <LanguageField control={form.control} />}
      <div aria-live="polite">
        {invited && <Alert tone="success">{invited}</Alert>}
        {failure && <Alert tone="error">{failure}</Alert>}
      </div>
      <Button type="submit" disabled={send.isPending} className="self-start">
        {send.isPending ? "Inviting…" : "Send invitation"}
      </Button>
    </form>
  );
}

/**
 * How long an invitation still waits, in whole days: the same words on the server and in the
 * browser whatever their zones (a date would be a day apart across midnight somewhere).
 */
function timeLeft(iso: string): string {
  const left = Date.parse(iso) - Date.now();
  if (left < 86_400_000) return "Less than a day left to answer";
  // Nearest whole day: an invitation just sent has 7, not "6 days" and some hours.
  const days = Math.round(left / 86_400_000);
  return days === 1 ? "1 day left to answer" : `${days} days left to answer`;
}

/** Withdraw an invitation by email (owner): its link stops working. */
function WithdrawEmailInvitation({ team, invitation }: { team: TeamDto; invitation: TeamEmailInvitationDto }) {
  const refresh = useRefreshTeams();
  const [open, setOpen] = useState(false);
  const withdraw = useMutation<undefined, ApiError>({
    mutationFn: () => withdrawEmailInvitation(team.id, invitation.id),
    onSuccess: async () => {
      setOpen(false);
      await refresh();
    },
  });
  return (
    <>
      <Button variant="ghost" size="sm" onClick={() => setOpen(true)} aria-label={`Withdraw invitation: ${invitation.email}`}>
        Withdraw invitation
      </Button>
      <ConfirmDialog
        open={open}
        title={`Withdraw the invitation to ${invitation.email}?`}
        confirmLabel="Withdraw"
        cancelLabel="Keep"
        pending={withdraw.isPending}
        onConfirm={() => withdraw.mutate()}
        onClose={() => {
          setOpen(false);
          withdraw.reset();
        }}
      >
        <p>The link in the email stops working, and the invitation is no longer shown to anyone.</p>
        {withdraw.isError && (
          <Alert tone="error" className="mt-3">
            {withdraw.error.message}
          </Alert>
        )}
      </ConfirmDialog>
    </>
  );
}

/** Invitations by email still waiting for an answer (owners see them): the address, never whose it is. */
function EmailInvitations({ team, invitations }: { team: TeamDto; invitations: TeamEmailInvitationDto[] }) {
  if (invitations.length === 0) return null;
  return (
    <div className="flex flex-col gap-1 border-t border-slate-200 pt-4">
      <h3 id="email-invitations-heading" className="font-semibold">
        Invited by email
      </h3>
      <ul aria-labelledby="email-invitations-heading" className="flex flex-col divide-y divide-slate-100">
        {invitations.map((i) => (
          <li key={i.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
            <div className="flex min-w-0 flex-col">
              <p className="flex flex-wrap items-center gap-2">
                <span className="font-medium break-all">{i.email}</span>
                <InvitedBadge />
                <RoleBadge role={i.role} />
              </p>
              <p className="text-sm text-slate-600" suppressHydrationWarning>
                {timeLeft(i.expiresAt)}
              </p>
            </div>
            <div className="flex flex-wrap items-start gap-2">
              <WithdrawEmailInvitation team={team} invitation={i} />
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The team's members, their role and whether they accepted; owners invite, change roles and remove. */
export function TeamMembers({ team, myUserId, owner }: { team: TeamDto; myUserId: string; owner: boolean }) {
  // Owners first, then members; the invited after the active of each; by name within.
  const members = [...team.members].sort(
    (a, b) => Number(a.role !== "owner") - Number(b.role !== "owner") || Number(a.status === "invited") - Number(b.status === "invited") || a.fullName.localeCompare(b.fullName),
  );
  return (
    <section aria-labelledby="members-heading" className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-5">
      <h2 id="members-heading" className="text-lg font-semibold">
        Members
      </h2>
      <ul className="flex flex-col divide-y divide-slate-100">
        {members.map((m) => (
          <MemberRow key={m.userId} team={team} member={m} myUserId={myUserId} owner={owner} />
        ))}
      </ul>
      {owner && <EmailInvitations team={team} invitations={team.emailInvitations ?? []} />}
      {owner && <InviteForm team={team} />}
    </section>
  );
}

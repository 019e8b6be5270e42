"use client";

import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/form-field";
import { useApiForm } from "@/components/ui/use-api-form";
import { usernameFrom, type RegisterContext, type RegisterValues } from "@/lib/forms/auth";
import { registerRules } from "@/lib/forms/auth-lazy";
import { PasswordField } from "./password-field";
import { CHECK_FIELDS, useRegister } from "./use-register";
import { UsernameField } from "./username-field";
import { ZoneField } from "./zone-field";

/** A new host's account, checked with the API's own schema first; `invitation`: made through a team invitation's link. */
export function RegisterForm({ appUrl, invitation }: { appUrl: string; invitation?: { token: string; email: string } }) {
  const context: RegisterContext = { invitationToken: invitation?.token };
  const apiForm = useApiForm<RegisterValues, RegisterContext>({
    rules: registerRules,
    defaultValues: { fullName: "", email: invitation?.email ?? "", password: "", username: "", timezone: "" },
    context,
  });
  const { form, formRef, problems } = apiForm;
  const { submit, pending, general } = useRegister(apiForm, context);
  // The username follows the name until the person types one of their own.
  const [usernameTyped, setUsernameTyped] = useState(false);
  const { control } = form;
  return (
    <form ref={formRef} onSubmit={submit} noValidate className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-6">
      {/* "Check the highlighted fields" goes with the last of them. */}
      {general && !(general === CHECK_FIELDS && Object.keys(problems).length === 0) && <Alert tone="error">{general}</Alert>}
      <TextField
        control={control}
        name="fullName"
        label="Full name"
        required
        type="text"
        autoComplete="name"
        maxLength={100}
        onText={(name) => !usernameTyped && form.setValue("username", usernameFrom(name), { shouldValidate: true })}
      />
      <TextField control={control} name="email" label="Email" required type="email" autoComplete="email" />
      <PasswordField control={control} name="password" label="Password" />
      <UsernameField control={control} appUrl={appUrl} onTyped={() => setUsernameTyped(true)} />
      <ZoneField form={form} />
      <Button type="submit" disabled={pending}>
        {pending ? "Creating your account…" : "Create account"}
      </Button>
    </form>
  );
}

"use client";

import { signIn } from "next-auth/react";
import { useState } from "react";
import { Button } from "@/components/ui/button";

/**
 * The company sign-in (decisions §22): next-auth sends the browser to the provider and, back from
 * it, on to `callbackUrl`. Signed in already (Settings), the identity is linked to this account.
 */
export function OidcButton({
  name,
  label = name,
  callbackUrl,
  variant = "primary",
  className = "",
}: {
  name: string;
  label?: string;
  callbackUrl: string;
  variant?: "primary" | "secondary";
  className?: string;
}) {
  const [leaving, setLeaving] = useState(false);
  return (
    <Button
      type="button"
      variant={variant}
      className={className}
      disabled={leaving}
      onClick={() => {
        setLeaving(true);
        void signIn("oidc", { callbackUrl }).catch(() => setLeaving(false));
      }}
    >
      {leaving ? `Opening ${name}…` : label}
    </Button>
  );
}

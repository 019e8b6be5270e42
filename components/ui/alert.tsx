import type { ReactNode } from "react";

const tones = {
  error: "border-red-200 bg-red-50 text-red-900",
  success: "border-green-200 bg-green-50 text-green-950",
  info: "border-blue-200 bg-blue-50 text-blue-950",
  warning: "border-amber-200 bg-amber-50 text-amber-900",
};

/** A message box; errors are announced (role alert), the rest politely (role status). */
export function Alert({ tone, children, className = "" }: { tone: keyof typeof tones; children: ReactNode; className?: string }) {
  return (
    <div role={tone === "error" ? "alert" : "status"} className={`rounded-md border p-3 ${tones[tone]} ${className}`}>
      {children}
    </div>
  );
}

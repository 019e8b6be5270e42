import type { Metadata } from "next";
import "./globals.css";

export const metadata: Metadata = {
  title: "Booking",
  description: "Share a link, let guests pick a time, never get double-booked.",
  icons: { icon: "/favicon.svg" },
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">{children}</body>
    </html>
  );
}

// Types of security-headers.mjs (plain JavaScript: server.mjs imports it without a build step).
export function contentSecurityPolicy(frameAncestors: string, dev?: boolean): string;
export const BOOKING_PAGE_SOURCE: string;
export function securityHeaders(dev?: boolean): { all: Record<string, string>; embed: Record<string, string> };
export function isEmbeddedBookingPage(url: string): boolean;

import { lazyRules } from "./resolver";

// The account pages' rules (auth-rules.ts), loaded when a form is first touched: useApiForm
// starts the load on the form's first focus or press, and a check before then waits for it. The
// API's schemas and what they bring (zod, luxon) were 54 of the 220 KB gzip of JavaScript each
// page loaded, and nothing a check finds is shown before the first submit anyway.

const load = () => import("./auth-rules");

export const registerRules = lazyRules(async () => (await load()).registerRules);
export const loginRules = lazyRules(async () => (await load()).loginRules);
export const forgotPasswordRules = lazyRules(async () => (await load()).forgotPasswordRules);
export const newPasswordRules = lazyRules(async () => (await load()).newPasswordRules);
export const confirmEmailRules = lazyRules(async () => (await load()).confirmEmailRules);

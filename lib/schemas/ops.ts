import { z } from "zod";

// GET /api/v1/health?full=1: the doctor's report (lib/ops), for an operator.

const Status = z.enum(["ok", "warn", "fail"]);

export const HealthQuery = z.object({
  full: z.literal("1", { message: "Must be 1 (the operator's full report), or left out" }).optional(),
});

export const DoctorReport = z.object({
  status: Status.describe("The worst of the checks: fail when something a user would hit is broken"),
  checkedAt: z.iso.datetime(),
  checks: z.array(
    z.object({
      check: z.string(),
      status: Status,
      finding: z.string().describe("One line; never a secret"),
      fix: z.string().optional().describe("For warn and fail: the variable to set or the command to run"),
      ms: z.number().int(),
    }),
  ),
});

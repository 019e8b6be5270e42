// CPU time by process group while a load runs (Linux /proc; elsewhere nothing is measured). The
// machine is shared, so requests per second alone mix what the service costs with what else runs:
// CPU milliseconds per booking, for the server and for PostgreSQL, say where the time goes.
import { existsSync, readdirSync, readFileSync } from "node:fs";

const TICKS_PER_SECOND = 100; // USER_HZ, 100 on every Linux this runs on

export type Proc = { pid: number; pgid: number; cmdline: string };
type Sample = { ticks: number; group: string };

function readProc(pid: number): (Proc & { ticks: number }) | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after "pid (comm) ": state ppid pgrp … utime(14) stime(15), counted from 1.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim();
    return { pid, pgid: Number(fields[2]), cmdline, ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return undefined; // gone meanwhile
  }
}

/** Busy and total CPU seconds of the whole machine so far. */
function machine(): { busy: number; total: number } {
  const values = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = values.reduce((a, b) => a + b, 0);
  return { busy: (total - values[3]! - values[4]!) / TICKS_PER_SECOND, total: total / TICKS_PER_SECOND };
}

/**
 * Samples every process that `groupOf` names, every 100 ms, keeping the last CPU time seen per
 * process: processes that start and end during the load (pgbench's connections) count too, bar
 * their last tenth of a second.
 */
export class CpuMeter {
  private readonly seen = new Map<number, Sample>();
  private readonly first = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;
  private machineAtStart = { busy: 0, total: 0 };
  private ownAtStart = process.cpuUsage();

  constructor(private readonly groupOf: (proc: Proc) => string | undefined) {}

  static available(): boolean {
    return existsSync("/proc/self/stat") && existsSync("/proc/stat");
  }

  private sample(atStart: boolean) {
    for (const name of readdirSync("/proc")) {
      const pid = Number(name);
      if (!Number.isInteger(pid) || pid === process.pid) continue;
      const proc = readProc(pid);
      if (!proc) continue;
      const group = this.groupOf(proc);
      if (!group) continue;
      // A process already running at the start counts from there; a new one from its birth.
      if (!this.first.has(pid)) this.first.set(pid, atStart ? proc.ticks : 0);
      this.seen.set(pid, { ticks: proc.ticks, group });
    }
  }

  start(): this {
    this.machineAtStart = machine();
    this.ownAtStart = process.cpuUsage();
    this.sample(true);
    this.timer = setInterval(() => this.sample(false), 100);
    return this;
  }

  /** CPU seconds per group, this process's own as "bench", and the machine's busy cores. */
  stop(seconds: number): { groups: Record<string, number>; machineBusyCores: number; cores: number } {
    clearInterval(this.timer);
    this.sample(false);
    const groups: Record<string, number> = {};
    for (const [pid, { ticks, group }] of this.seen) groups[group] = (groups[group] ?? 0) + (ticks - this.first.get(pid)!) / TICKS_PER_SECOND;
    const own = process.cpuUsage(this.ownAtStart);
    groups.bench = (own.user + own.system) / 1e6;
    const end = machine();
    const elapsed = (end.total - this.machineAtStart.total) / seconds;
    return { groups, machineBusyCores: (end.busy - this.machineAtStart.busy) / seconds, cores: Math.round(elapsed) };
  }
}

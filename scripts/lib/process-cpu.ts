/**
 * CPU time of a child process, read from /proc (Linux): what the Worker's own process spent, which the load
 * generator's CPU on the same machine does not blur. Miniflare runs the Worker, its D1 and its Durable Objects in
 * one `workerd` process, so the figure covers all three.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

const TICKS_PER_SECOND = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;

/** The process ids of `parent`'s descendants named `name` (Miniflare starts workerd as a child of this process). */
export function descendantsNamed(name: string, parent = process.pid): number[] {
  const parents = new Map<number, number>();
  const names = new Map<number, string>();
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      names.set(pid, stat.slice(stat.indexOf("(") + 1, close));
      parents.set(pid, Number(stat.slice(close + 2).split(" ")[1]));
    } catch {
      // The process ended while we read the list.
    }
  }
  const isDescendant = (pid: number): boolean => {
    for (let up = parents.get(pid); up !== undefined && up > 1; up = parents.get(up)) if (up === parent) return true;
    return false;
  };
  return [...names].filter(([pid, comm]) => comm === name && isDescendant(pid)).map(([pid]) => pid);
}

/** User plus system CPU milliseconds `pid` has used so far (all its threads). */
export function cpuMilliseconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // Fields 14 and 15 of proc(5), utime and stime, in clock ticks; the slice starts at field 3.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

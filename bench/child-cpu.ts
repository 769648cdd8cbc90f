import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

/** Clock ticks per second of /proc's times (sysconf's CLK_TCK), read once; 100 where `getconf` is missing. */
const ticksPerSecond = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/**
 * CPU time, in ms, of every child process this one has waited for (with theirs): `cutime` + `cstime` of
 * `/proc/self/stat`. The difference around a `vitest run` is the CPU its whole process tree used, which other
 * tenants of a shared machine disturb far less than its wall time. `undefined` off Linux.
 */
export function waitedChildrenCpuMs(): number | undefined {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    // Fields after the command name, which may hold spaces: state is field 3, cutime 16 and cstime 17.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / ticksPerSecond;
  } catch {
    return undefined;
  }
}

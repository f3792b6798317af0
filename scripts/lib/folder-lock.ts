import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

const LOCK_NAME = ".setup.lock";
/** A lock folder without its owner's pid after this long was left by a process that died taking it. */
const UNNAMED_LOCK_STALE_MS = 10_000;

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function tryTake(lock: string): boolean {
  try {
    mkdirSync(lock);
    writeFileSync(join(lock, "pid"), String(process.pid));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  try {
    const owner = Number(readFileSync(join(lock, "pid"), "utf8"));
    if (!running(owner)) rmSync(lock, { recursive: true, force: true });
  } catch {
    // No pid yet: being taken right now, or left by a process that died in between.
    try {
      if (Date.now() - statSync(lock).mtimeMs > UNNAMED_LOCK_STALE_MS) rmSync(lock, { recursive: true, force: true });
    } catch {
      // released meanwhile
    }
  }
  return false;
}

/**
 * Runs `work` while holding a lock on `folder` shared by every process on the machine: creating a folder is atomic,
 * so one process at a time succeeds; it writes its pid inside, and a lock whose process has died is taken over.
 * `npm run dev` migrates and seeds its local database under it, so two dev servers started together on one state
 * folder do not apply the same migration twice.
 */
export async function withFolderLock<T>(folder: string, work: () => T | Promise<T>, onWait?: () => void): Promise<T> {
  mkdirSync(folder, { recursive: true });
  const lock = join(folder, LOCK_NAME);
  let waited = false;
  while (!tryTake(lock)) {
    if (!waited) onWait?.();
    waited = true;
    await sleep(500);
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * The last moment of activity in any tab of this browser, kept in localStorage, so that a tab left idle does not warn
 * or sign out a user who is busy in another tab. Storage may be unavailable (blocked, private mode): each tab then
 * goes by its own activity alone.
 */
const LAST_ACTIVITY_KEY = "session-last-activity";

export function readSharedActivity(): number {
  try {
    const stored = Number(window.localStorage.getItem(LAST_ACTIVITY_KEY));
    return Number.isFinite(stored) ? stored : 0;
  } catch {
    return 0;
  }
}

export function writeSharedActivity(at: number) {
  try {
    window.localStorage.setItem(LAST_ACTIVITY_KEY, String(at));
  } catch {
    // Storage refused: this tab still counts its own activity.
  }
}

/** The later of this tab's activity and the other tabs'; shares this tab's when it is the later one. */
export function latestActivity(ownActivity: number): number {
  const shared = readSharedActivity();
  if (ownActivity > shared) writeSharedActivity(ownActivity);
  return Math.max(ownActivity, shared);
}

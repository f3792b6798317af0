import { formSchema, text } from "~/lib/forms";

/** The sessions card's answers (shown as a toast on /account). */
export const SESSION_MESSAGES = {
  ended: "The session was ended: that browser is signed out.",
  alreadyEnded: "That session has already ended.",
  thisDevice: "This is the session you are using. To end it, sign out.",
  othersEnded: (count: number) => (count === 1 ? "1 other session was ended." : `${count} other sessions were ended.`),
  noOthers: "There were no other sessions to end.",
  unknownRequest: "That request could not be understood. Please try again.",
} as const;

/** A session's id as the list gives it: the stored id, a SHA-256 in hex (never the token the cookie holds). */
const SESSION_ID = /^[0-9a-f]{64}$/;

/** End one session (`intent=end` with its id) or every other session (`intent=end-others`). */
export const endSessionsSchema = formSchema(
  (v) => ({ intent: text(v.intent, 20), sessionId: text(v.sessionId, 64) }),
  [
    [(v) => v.intent === "end" || v.intent === "end-others", SESSION_MESSAGES.unknownRequest],
    [(v) => v.intent !== "end" || SESSION_ID.test(v.sessionId), SESSION_MESSAGES.alreadyEnded],
  ],
  (v) => (v.intent === "end" ? { intent: "end" as const, sessionId: v.sessionId } : { intent: "end-others" as const }),
);

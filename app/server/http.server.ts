/**
 * The HTTP errors a loader or an action throws. Thrown, they stop the route; the route's error boundary
 * (app/components/route-error.tsx) renders them inside the site's shell, with their status.
 */
import { PERMISSION_MESSAGES } from "~/lib/permissions";

export const HTTP_MESSAGES = {
  notFound: "Not Found",
  noFormData: "This request carries no form data. Please reload the page and send the form again.",
  unreadableForm: "This form could not be read. Please reload the page and send the form again.",
  duplicateField: "This form sent a field more than once. Please reload the page and send the form again.",
  unsupportedMediaType:
    "Forms are accepted as application/x-www-form-urlencoded or multipart/form-data, and nothing else.",
} as const;

function plain(message: string, status: number): Response {
  return new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

/** 404: there is nothing at this address (an unknown page, a client that does not exist). */
export function notFound(message: string = HTTP_MESSAGES.notFound): never {
  throw plain(message, 404);
}

/** 403: the admin's roles do not allow this (app/lib/permissions.ts); nothing was done. */
export function forbidden(message: string = PERMISSION_MESSAGES.forbidden): never {
  throw plain(message, 403);
}

/** 400: the request cannot be understood as sent; nothing was done. */
export function badRequest(message: string): never {
  throw plain(message, 400);
}

/** 415: the request's body is of a type this address does not take; nothing was done. */
export function unsupportedMediaType(message: string = HTTP_MESSAGES.unsupportedMediaType): never {
  throw plain(message, 415);
}

const LOOPBACK_HOSTS = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;
const LOOPBACK_IPS = /^(127(?:\.\d{1,3}){3}|::1|::ffff:127(?:\.\d{1,3}){3})$/;

/**
 * A request from this machine: addressed to a loopback host and, where the runtime says who connected, sent
 * from a loopback address. Development tools that show other people's data (the local mailbox) answer only
 * such requests.
 */
export function isLoopbackRequest(request: Request): boolean {
  const connectingIp = request.headers.get("CF-Connecting-IP");
  if (connectingIp && !LOOPBACK_IPS.test(connectingIp)) return false;
  return isLoopbackHost(new URL(request.url).hostname);
}

/** localhost, 127.x.x.x or [::1]: this machine's own names. */
export const isLoopbackHost = (hostname: string) => LOOPBACK_HOSTS.test(hostname);

/** Where links in mails point: the configured site address, or else the address this request came to. */
export function siteOrigin(env: { SITE_URL?: string }, request: Request): string {
  return new URL(env.SITE_URL ?? request.url).origin;
}

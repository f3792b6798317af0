import { type ReactNode, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { SubmitButton } from "~/components/form";
import { useNonce } from "~/lib/nonce";
import { CHALLENGE_FIELD } from "~/lib/schemas/auth";
import type { ChallengeAction, ChallengeWidget } from "~/server/turnstile.server";

/**
 * The security check (Cloudflare Turnstile) in a form: the standard `cf-turnstile` container, rendered by the
 * script once the page is interactive; the token goes into the form as `cf-turnstile-response`. Its space is
 * reserved from the first paint (65 px, or 140 px for the compact widget in a very narrow form), so nothing
 * moves when it appears. Nothing in the form waits for it: when its script cannot
 * load (offline, blocked), the form still submits and the server decides.
 */
const SCRIPT_URL = "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit";
/**
 * The normal widget is at least 300 px wide; it may reach 20 px into the padding around the form (the account
 * card's is 24 px), so most phones get it. A narrower form gets the compact one (150 x 140). The CSS below
 * reserves the height by the same width (a container query).
 */
const COMPACT_BELOW_PX = 280;

interface TurnstileApi {
  render(container: HTMLElement, options: Record<string, unknown>): string | null | undefined;
  reset(widgetId: string): void;
  remove(widgetId: string): void;
}

declare global {
  interface Window {
    turnstile?: TurnstileApi;
  }
}

/** With Cloudflare's test keys (local development, tests) no widget loads: the reserved space says why. */
const TEST_KEY_CLASS =
  "flex items-center justify-center rounded-md border border-dashed border-border px-3 text-center text-xs text-ink-muted";

let loading: Promise<TurnstileApi> | undefined;

/**
 * The script's API. On the first page load the server's script tag is already loading; after a client-side
 * navigation there is none that will run (React inserts script tags inert), so one is added, with the page's
 * nonce (the CSP allows the host too).
 */
function turnstileApi(serverTag: HTMLScriptElement | null): Promise<TurnstileApi> {
  if (window.turnstile) return Promise.resolve(window.turnstile);
  loading ??= new Promise<TurnstileApi>((resolve, reject) => {
    let tag = serverTag;
    if (!tag) {
      tag = document.createElement("script");
      tag.src = SCRIPT_URL;
      tag.async = true;
      tag.nonce = document.querySelector<HTMLScriptElement>("script[nonce]")?.nonce ?? "";
      document.head.appendChild(tag);
    }
    tag.addEventListener("load", () =>
      window.turnstile ? resolve(window.turnstile) : reject(new Error("Turnstile did not start")),
    );
    tag.addEventListener("error", () => {
      loading = undefined;
      reject(new Error("Turnstile could not be loaded"));
    });
  });
  return loading;
}

const noSubscription = () => () => {};
/** False while the server renders and the browser hydrates that markup; true for a component mounted later. */
const useHydrated = () =>
  useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );

export function Turnstile({
  widget,
  action,
  resetKey,
}: {
  widget: ChallengeWidget;
  action: ChallengeAction;
  /** Changes with each answer of the form's action: a token is good once, so the widget starts again. */
  resetKey?: unknown;
}) {
  const nonce = useNonce();
  const container = useRef<HTMLDivElement>(null);
  const serverTag = useRef<HTMLScriptElement>(null);
  const widgetId = useRef<string | null>(null);
  const hydrated = useHydrated();
  // Only markup the server sent carries the script tag: a tag React adds later would never run.
  const [fromServer] = useState(!hydrated);
  const { siteKey, loadScript } = widget;

  useEffect(() => {
    if (!loadScript) return;
    let unmounted = false;
    turnstileApi(serverTag.current)
      .then((api) => {
        const host = container.current;
        if (unmounted || !host) return;
        widgetId.current =
          api.render(host, {
            sitekey: siteKey,
            action,
            "response-field-name": CHALLENGE_FIELD,
            size: host.clientWidth < COMPACT_BELOW_PX ? "compact" : "flexible",
          }) ?? null;
      })
      .catch(() => {
        // No widget: the reserved space stays empty and the server refuses the form without a token.
      });
    return () => {
      unmounted = true;
      if (widgetId.current) window.turnstile?.remove(widgetId.current);
      widgetId.current = null;
    };
  }, [siteKey, action, loadScript]);

  useEffect(() => {
    if (resetKey !== undefined && widgetId.current) window.turnstile?.reset(widgetId.current);
  }, [resetKey]);

  return (
    <div className="@container">
      <div
        ref={container}
        className={`cf-turnstile min-h-[65px] @max-[280px]:min-h-[140px] ${loadScript ? "" : TEST_KEY_CLASS}`}
        data-sitekey={siteKey}
        data-action={action}
      >
        {loadScript ? null : "Security check: Cloudflare test key, no widget is loaded."}
      </div>
      {loadScript && fromServer ? <script ref={serverTag} src={SCRIPT_URL} async nonce={nonce} /> : null}
    </div>
  );
}

/**
 * The end of a form the security check protects: the widget (when the check is required) and the full-width
 * submit button under it, as the sign-in, registration and forgot-password forms end.
 */
export function CheckedSubmit({
  widget,
  action,
  resetKey,
  required = true,
  pendingText,
  children,
}: {
  widget: ChallengeWidget;
  action: ChallengeAction;
  resetKey?: unknown;
  required?: boolean;
  pendingText: string;
  children: ReactNode;
}) {
  return (
    <>
      {required ? <Turnstile widget={widget} action={action} resetKey={resetKey} /> : null}
      <SubmitButton pendingText={pendingText} className="w-full">
        {children}
      </SubmitButton>
    </>
  );
}

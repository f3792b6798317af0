import { useEffect } from "react";
import { useNavigate } from "react-router";

/** The product's timers, in one place (docs/product.md, "Constants"). */
export const REDIRECT_AFTER_SUCCESS_MS = 3_000;
export const SUCCESS_MESSAGE_MS = 3_000;
export const COPY_CONFIRMATION_MS = 2_000;
export const DELETE_ERROR_MS = 5_000;
export const WALLET_MODAL_CLOSE_MS = 1_500;
/** Signed out after this long without activity, checked this often (each second, so the warning's countdown runs). */
export const INACTIVITY_TIMEOUT_MS = 30 * 60 * 1_000;
export const INACTIVITY_CHECK_MS = 1_000;
/** The warning opens this long before the inactivity sign-out (WCAG 2.2.1, Timing adjustable). */
export const INACTIVITY_WARNING_MS = 2 * 60 * 1_000;

/** After a reset e-mail is sent or a password is updated, go to sign-in after 3 seconds. */
export function useRedirectAfterSuccess(done: boolean, to = "/login") {
  const navigate = useNavigate();
  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(() => navigate(to), REDIRECT_AFTER_SUCCESS_MS);
    return () => clearTimeout(timer);
  }, [done, to, navigate]);
}

import { useEffect } from "react";
import { toast as showToast, Toaster } from "sonner";
import { useThemeChoice } from "~/lib/theme";

/** At most 20 toasts at once (docs/product.md, "Constants"). */
export const MAX_VISIBLE_TOASTS = 20;

interface FlashToast {
  id: string;
  type: "success" | "error" | "info";
  title?: string;
  description: string;
}

export function Toasts({ flash }: { flash: FlashToast | null }) {
  // The page's theme ("system" is the library's too); toasts show only after hydration, so the server never has to
  // guess the system's.
  const theme = useThemeChoice();
  useEffect(() => {
    if (!flash) return;
    const show = flash.type === "success" ? showToast.success : flash.type === "error" ? showToast.error : showToast;
    // Deferred so that the Toaster has mounted on the first render after hydration.
    const timer = setTimeout(() => {
      show(flash.title ?? flash.description, {
        id: flash.id,
        description: flash.title ? flash.description : undefined,
      });
    }, 0);
    return () => clearTimeout(timer);
  }, [flash]);

  // Below the sticky header, so a toast never covers its links.
  return (
    <Toaster
      theme={theme}
      position="top-right"
      offset={{ top: "calc(var(--spacing-header) + 12px)" }}
      mobileOffset={{ top: "calc(var(--spacing-header) + 8px)" }}
      richColors
      closeButton
      visibleToasts={MAX_VISIBLE_TOASTS}
    />
  );
}

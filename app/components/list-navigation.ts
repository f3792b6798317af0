import type React from "react";
import { useNavigate } from "react-router";

/**
 * Client-side navigation for the plain links of a long list: one click handler on the list instead of a React Router
 * `<Link>` per row, each of which costs a dozen hooks to render on every request. Clicks that mean something else
 * (a new tab or window, a download, another site) are left to the browser.
 */
export function useListNavigation() {
  const navigate = useNavigate();
  return (event: React.MouseEvent<HTMLElement>) => {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = event.target instanceof Element ? event.target.closest("a") : null;
    if (!link || link.target || link.hasAttribute("download") || link.origin !== window.location.origin) return;
    event.preventDefault();
    navigate(`${link.pathname}${link.search}${link.hash}`);
  };
}

import { useRouteLoaderData } from "react-router";

/** The brand name from the root loader (configuration), for pages that put it into their copy. */
export function useBrand(): string {
  const root = useRouteLoaderData("root") as { brand?: { name: string } } | undefined;
  return root?.brand?.name ?? "";
}

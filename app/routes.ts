import type { RouteConfig } from "@react-router/dev/routes";
import { flatRoutes } from "@react-router/fs-routes";

/** Every file in app/routes is a route, named as before (flat routes); tests and dotfiles there are not. */
export default flatRoutes({ ignoredRouteFiles: ["**/.*", "**/*.test.*"] }) satisfies RouteConfig;

/// <reference types="vite/client" />
/// <reference types="@remix-run/cloudflare" />

declare module "@remix-run/server-runtime" {
  // Single fetch: loaders return `data()` / plain objects, typed end to end.
  interface Future {
    v3_singleFetch: true;
  }
}

export {};

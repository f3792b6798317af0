import { createContext, useContext } from "react";

/** The per-request CSP nonce, provided by entry.server; empty in the browser (it is not needed after hydration). */
export const NonceContext = createContext("");
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);

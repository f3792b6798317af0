/** React's Node renderer, imported by its own path (app/server/render/document.server.ts): the server's types. */
declare module "react-dom/server.node" {
  export { renderToPipeableStream } from "react-dom/server";
}

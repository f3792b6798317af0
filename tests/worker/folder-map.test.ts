import { describe, expect, it } from "vitest";
import architecture from "../../docs/architecture.md?raw";

/**
 * docs/architecture.md's folder map stays true: every folder under app/ and workers/ is named there (as
 * `app/server/auth/`), so a newcomer finds where a concern lives, and a new folder comes with its line.
 */
const files = Object.keys(
  import.meta.glob(["/app/**/*", "/workers/**/*", "!/app/**/+types/**"], { query: "?raw", import: "default" }),
);

function foldersOf(paths: string[]): string[] {
  const folders = new Set<string>();
  for (const path of paths) {
    const parts = path.slice(1).split("/");
    // Folders below the top one (app/, workers/): `app/server/`, `app/server/auth/`, …
    for (let depth = 2; depth < parts.length; depth++) folders.add(`${parts.slice(0, depth).join("/")}/`);
  }
  return [...folders].sort();
}

const folderMap = architecture.slice(
  architecture.indexOf("### Folder map"),
  architecture.indexOf("### The data model"),
);

/** The app's and the Worker's sources, to check that none reaches into spikes/ (measurements kept apart). */
const sources = import.meta.glob<string>(["/app/**/*.{ts,tsx}", "/workers/**/*.ts"], {
  query: "?raw",
  import: "default",
  eager: true,
});

describe("the folder map of docs/architecture.md", () => {
  it("reads the app's and the Worker's folders", () => {
    const folders = foldersOf(files);
    expect(folders).toContain("app/server/auth/");
    expect(folders).toContain("workers/middleware/");
  });

  it("names every folder under app/ and workers/", () => {
    const unnamed = foldersOf(files).filter((folder) => !folderMap.includes(`\`${folder}\``));
    expect(unnamed).toEqual([]);
  });

  it("keeps spikes/ out of the app and the Worker", () => {
    const reaching = Object.entries(sources)
      .filter(([, text]) => /from\s+["'][^"']*spikes\//.test(text))
      .map(([file]) => file);
    expect(reaching).toEqual([]);
  });
});

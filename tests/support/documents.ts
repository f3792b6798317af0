import { env, exports } from "cloudflare:workers";
import type { DocumentKind } from "../../db/enums";
import { ORIGIN } from "./fixtures";

/** Small files of each kind, real enough for their first bytes (what the server looks at). */
export const SAMPLE_FILES = {
  jpeg: new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]),
  png: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52]),
  pdf: new TextEncoder().encode("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"),
  /** A Windows executable's header ("MZ"), as a file renamed to passport.jpg carries it. */
  executable: new Uint8Array([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0xff, 0xff]),
  text: new TextEncoder().encode("This is my passport, honestly.\n"),
  /** A PDF's first line with a script after it: accepted as a PDF; the admin side serves it so that nothing runs. */
  htmlInPdf: new TextEncoder().encode("%PDF-1.4\n<html><script>alert(1)</script></html>\n"),
} as const;

/** A file of `bytes` bytes that begins like a JPEG. */
export function jpegOfSize(bytes: number): Uint8Array<ArrayBuffer> {
  const file = new Uint8Array(bytes);
  file.set(SAMPLE_FILES.jpeg.subarray(0, 4));
  return file;
}

/** The page's upload: the file itself as the body, its name in the address, as the browser's slot sends it. */
export function uploadDocument(
  cookie: string | undefined,
  kind: DocumentKind | string,
  body: Uint8Array<ArrayBuffer>,
  options: { fileName?: string; contentType?: string } = {},
) {
  return uploadTo(`/account/verification/documents/${kind}`, cookie, body, options);
}

/** A slot's upload to any upload address (identity documents, access-recovery photos), as the page sends it. */
export function uploadTo(
  path: string,
  cookie: string | undefined,
  body: Uint8Array<ArrayBuffer>,
  { fileName = "document.jpg", contentType = "application/octet-stream" } = {},
) {
  return exports.default.fetch(
    new Request(`${ORIGIN}${path}?name=${encodeURIComponent(fileName)}`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "Content-Type": contentType,
        "Content-Length": String(body.byteLength),
        "Sec-Fetch-Site": "same-origin",
        Origin: ORIGIN,
        ...(cookie ? { Cookie: cookie } : {}),
      },
      body,
    }),
  );
}

/** The same upload as a form without JavaScript posts it (multipart, field `file`). */
export function uploadDocumentAsForm(
  cookie: string,
  kind: DocumentKind,
  body: Uint8Array<ArrayBuffer>,
  fileName = "scan.png",
) {
  const form = new FormData();
  form.set("file", new File([body], fileName, { type: "image/png" }));
  return exports.default.fetch(
    new Request(`${ORIGIN}/account/verification/documents/${kind}`, {
      method: "POST",
      redirect: "manual",
      headers: { "Sec-Fetch-Site": "same-origin", Origin: ORIGIN, Cookie: cookie },
      body: form,
    }),
  );
}

/** Every object in the documents bucket (the local R2 of the test pool). */
export async function storedObjectKeys(): Promise<string[]> {
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await env.DOCUMENTS.list({ cursor });
    keys.push(...page.objects.map((object) => object.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return keys;
}

/** A verification form that passes every check; `fields` override any of it. */
export function verificationFields(fields: Record<string, string> = {}) {
  return {
    legalFirstName: "Jamie",
    legalLastName: "Rivera",
    dateOfBirth: "1990-05-17",
    country: "United Kingdom",
    address: "12 Harbour Street, Leith, Edinburgh EH6 6LA",
    documentType: "passport",
    documentNumber: "123456789",
    ...fields,
  };
}

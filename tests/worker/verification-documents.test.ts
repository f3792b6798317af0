import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MAX_DOCUMENT_BYTES, VERIFICATION_MESSAGES } from "~/lib/verification";
import { jpegOfSize, SAMPLE_FILES, storedObjectKeys, uploadDocument, uploadDocumentAsForm } from "../support/documents";
import { countRows, createUser, ORIGIN, sessionCookieFor } from "../support/fixtures";

async function signedInClient() {
  const client = await createUser();
  return { ...client, cookie: await sessionCookieFor(client.id) };
}

async function sha256Hex(bytes: Uint8Array<ArrayBuffer>) {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** What a refused upload must leave unchanged: the bucket, the client's rows. */
async function storedFor(userId: string) {
  return {
    objects: (await storedObjectKeys()).length,
    documents: await countRows("verification_documents", "user_id = ?", userId),
  };
}

describe("uploading a document", () => {
  it.each([
    ["jpeg", "passport.jpg", "image/jpeg"],
    ["png", "passport.png", "image/png"],
    ["pdf", "bank statement.pdf", "application/pdf"],
  ] as const)(
    "stores a %s under a random key with its name, type, size and SHA-256",
    async (sample, fileName, type) => {
      const client = await signedInClient();
      const bytes = SAMPLE_FILES[sample];
      const response = await uploadDocument(client.cookie, "identity_front", bytes, { fileName });
      expect(response.status).toBe(200);
      const { document } = (await response.json()) as { document: Record<string, unknown> };
      expect(document).toMatchObject({ kind: "identity_front", fileName, contentType: type, sizeBytes: bytes.length });

      const row = await env.DB.prepare("SELECT * FROM verification_documents WHERE user_id = ?")
        .bind(client.id)
        .first<Record<string, string | number>>();
      expect(row).toMatchObject({ file_name: fileName, content_type: type, size_bytes: bytes.length });
      expect(row?.sha256).toBe(await sha256Hex(bytes));
      // The key says nothing of the client: neither the file's name nor the e-mail.
      expect(String(row?.object_key)).toMatch(/^documents\/[0-9a-f-]{36}$/);
      const object = await env.DOCUMENTS.get(String(row?.object_key));
      expect(new Uint8Array((await object?.arrayBuffer()) ?? new ArrayBuffer(0))).toEqual(bytes);
      expect(object?.httpMetadata?.contentType).toBe(type);
      // The client's first file opened a draft case.
      expect(await countRows("verification_cases", "user_id = ? AND status = 'draft'", client.id)).toBe(1);
    },
  );

  it("decides the type by the first bytes, never by the name or the browser's claim", async () => {
    const client = await signedInClient();
    const response = await uploadDocument(client.cookie, "proof_of_address", SAMPLE_FILES.png, {
      fileName: "statement.pdf",
      contentType: "application/pdf",
    });
    expect(((await response.json()) as { document: { contentType: string } }).document.contentType).toBe("image/png");
  });

  it.each([
    ["a renamed executable", SAMPLE_FILES.executable, "passport.jpg", 415, VERIFICATION_MESSAGES.fileRefused],
    ["a text file", SAMPLE_FILES.text, "passport.pdf", 415, VERIFICATION_MESSAGES.fileRefused],
    ["an empty file", new Uint8Array(0), "empty.png", 415, VERIFICATION_MESSAGES.fileRefused],
    ["an 11 MB file", jpegOfSize(11 * 1024 * 1024), "big.jpg", 413, VERIFICATION_MESSAGES.fileTooLarge],
  ])("refuses %s and stores nothing in R2 or D1", async (_name, bytes, fileName, status, message) => {
    const client = await signedInClient();
    const before = await storedFor(client.id);
    const response = await uploadDocument(client.cookie, "identity_front", bytes, { fileName });
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual({ error: message });
    expect(await storedFor(client.id)).toEqual(before);
  });

  it("takes a file of exactly 10 MB", async () => {
    const client = await signedInClient();
    const response = await uploadDocument(client.cookie, "identity_front", jpegOfSize(MAX_DOCUMENT_BYTES));
    expect(response.status).toBe(200);
  });

  it("refuses a body shorter than its declared length and keeps nothing", async () => {
    const client = await signedInClient();
    const before = await storedFor(client.id);
    // The request promises 1,000 bytes; 14 arrive and the body ends.
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(SAMPLE_FILES.jpeg);
        controller.close();
      },
    });
    const response = await exports.default.fetch(
      new Request(`${ORIGIN}/account/verification/documents/identity_front?name=cut.jpg`, {
        method: "POST",
        headers: { "Content-Length": "1000", "Sec-Fetch-Site": "same-origin", Cookie: client.cookie },
        body,
      }),
    );
    expect(response.status).toBe(400);
    expect(await storedFor(client.id)).toEqual(before);
  });

  it("keeps nothing when the case is sent for review while the file travels", async () => {
    const client = await signedInClient();
    await uploadDocument(client.cookie, "proof_of_address", SAMPLE_FILES.pdf);
    const before = await storedFor(client.id);
    // The first bytes pass the checks; before the last chunk arrives, the case is sent (from another tab).
    const chunks = [jpegOfSize(64 * 1024), ...Array.from({ length: 5 }, () => new Uint8Array(64 * 1024))];
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent === chunks.length - 1)
          await env.DB.prepare("UPDATE verification_cases SET status = 'submitted' WHERE user_id = ?")
            .bind(client.id)
            .run();
        const chunk = chunks[sent++];
        if (chunk) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const response = await exports.default.fetch(
      new Request(`${ORIGIN}/account/verification/documents/identity_front?name=late.jpg`, {
        method: "POST",
        headers: { "Content-Length": String(6 * 64 * 1024), "Sec-Fetch-Site": "same-origin", Cookie: client.cookie },
        body,
      }),
    );
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ error: VERIFICATION_MESSAGES.caseLocked });
    expect(await storedFor(client.id)).toEqual(before);
  });

  it("replaces the current file of a kind and keeps the replaced one as evidence", async () => {
    const client = await signedInClient();
    await uploadDocument(client.cookie, "identity_front", SAMPLE_FILES.jpeg, { fileName: "first.jpg" });
    await uploadDocument(client.cookie, "identity_front", SAMPLE_FILES.png, { fileName: "second.png" });
    const rows = await env.DB.prepare(
      "SELECT file_name, replaced_at FROM verification_documents WHERE user_id = ? ORDER BY uploaded_at, rowid",
    )
      .bind(client.id)
      .all<{ file_name: string; replaced_at: number | null }>();
    expect(rows.results.map((row) => [row.file_name, row.replaced_at === null])).toEqual([
      ["first.jpg", false],
      ["second.png", true],
    ]);
  });

  it("keeps a file name as a name: its folders and control characters go, never into the key", async () => {
    const client = await signedInClient();
    const response = await uploadDocument(client.cookie, "identity_front", SAMPLE_FILES.jpeg, {
      fileName: "..\\..\\C:/secret/\u202Egpj.exe",
    });
    expect(((await response.json()) as { document: { fileName: string } }).document.fileName).toBe("gpj.exe");
    // Invisible and direction characters go too, as every form refuses them: the name shows what it stores.
    const hidden = await uploadDocument(client.cookie, "proof_of_address", SAMPLE_FILES.pdf, {
      fileName: "a\u061Cb\u200Bc\uFEFFd\u2028e\u2060f.pdf",
    });
    expect(((await hidden.json()) as { document: { fileName: string } }).document.fileName).toBe("abcdef.pdf");
  });

  it("refuses a form without a declared size before reading it, so a chunked body cannot be read whole", async () => {
    const client = await signedInClient();
    const before = await storedFor(client.id);
    const boundary = "chunked-boundary";
    const body = new TextEncoder().encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="scan.png"\r\nContent-Type: image/png\r\n\r\n`,
    );
    const chunked = new ReadableStream({
      start(controller) {
        controller.enqueue(body);
        controller.enqueue(SAMPLE_FILES.png);
        controller.enqueue(new TextEncoder().encode(`\r\n--${boundary}--\r\n`));
        controller.close();
      },
    });
    const response = await exports.default.fetch(
      new Request(`${ORIGIN}/account/verification/documents/proof_of_address`, {
        method: "POST",
        redirect: "manual",
        headers: {
          "Content-Type": `multipart/form-data; boundary=${boundary}`,
          "Sec-Fetch-Site": "same-origin",
          Origin: ORIGIN,
          Cookie: client.cookie,
        },
        body: chunked,
      }),
    );
    expect(response.status).toBe(302);
    expect(await storedFor(client.id)).toEqual(before);
  });

  it("works without JavaScript: the slot's multipart form stores the file and comes back to the page", async () => {
    const client = await signedInClient();
    const response = await uploadDocumentAsForm(client.cookie, "proof_of_address", SAMPLE_FILES.png);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/account/verification");
    expect(await countRows("verification_documents", "user_id = ? AND kind = 'proof_of_address'", client.id)).toBe(1);
  });

  it("refuses signed-out visitors, admins and unknown kinds", async () => {
    expect((await uploadDocument(undefined, "identity_front", SAMPLE_FILES.jpeg)).status).toBe(401);
    const admin = await createUser({ role: "admin" });
    expect((await uploadDocument(await sessionCookieFor(admin.id), "identity_front", SAMPLE_FILES.jpeg)).status).toBe(
      401,
    );
    const client = await signedInClient();
    expect((await uploadDocument(client.cookie, "selfie", SAMPLE_FILES.jpeg)).status).toBe(404);
    expect(await countRows("verification_documents", "user_id IN (?, ?)", admin.id, client.id)).toBe(0);
  });
});

import { describe, expect, it } from "vitest";
import { MAX_DOCUMENT_BYTES } from "~/lib/verification";
import { pipeHashed } from "~/server/verification/checked-upload.server";
import { peekStream } from "~/server/verification/file-check.server";

/**
 * How much of a 10 MB upload the Worker holds at once (docs/decisions/0033-identity-documents-on-r2.md). The body
 * is a stream that makes each 64 KiB chunk only when asked, as a network body arrives; the consumer takes each chunk
 * after a pause, slower than the body comes, as R2 may be. What the pipeline has pulled from the body but the
 * consumer has not taken yet is what the Worker holds.
 */
const CHUNK = 64 * 1024;

function measuredBody(total: number) {
  const counts = { produced: 0, consumed: 0, mostHeld: 0 };
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (counts.produced >= total) return controller.close();
        const size = Math.min(CHUNK, total - counts.produced);
        const chunk = new Uint8Array(size);
        if (counts.produced === 0) chunk.set([0xff, 0xd8, 0xff, 0xe0]);
        counts.produced += size;
        counts.mostHeld = Math.max(counts.mostHeld, counts.produced - counts.consumed);
        controller.enqueue(chunk);
      },
    },
    // Nothing is read ahead of demand at the source itself.
    { highWaterMark: 0 },
  );
  const slowConsumer = (readable: ReadableStream<Uint8Array>) =>
    readable.pipeTo(
      new WritableStream<Uint8Array>({
        async write(chunk) {
          await new Promise((resolve) => setTimeout(resolve, 1));
          counts.consumed += chunk.byteLength;
        },
      }),
    );
  return { body, counts, slowConsumer };
}

describe("a 10 MB upload's memory", () => {
  it("streams: at most a few chunks are held at once, never the file", async () => {
    const { body, counts, slowConsumer } = measuredBody(MAX_DOCUMENT_BYTES);
    const { head, stream } = await peekStream(body);
    expect(head[0]).toBe(0xff);
    const sha256 = await pipeHashed(stream, MAX_DOCUMENT_BYTES, slowConsumer);
    expect(sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(counts.consumed).toBe(MAX_DOCUMENT_BYTES);
    expect(counts.mostHeld).toBeLessThanOrEqual(8 * CHUNK);
  });

  it("the same file as a multipart form is read whole before the first byte can be looked at", async () => {
    const { body, counts } = measuredBody(MAX_DOCUMENT_BYTES);
    const boundary = "----measured";
    const encoder = new TextEncoder();
    const multipart = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(
          encoder.encode(
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="scan.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
          ),
        );
        const reader = body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          controller.enqueue(value);
        }
        controller.enqueue(encoder.encode(`\r\n--${boundary}--\r\n`));
        controller.close();
      },
    });
    const form = await new Request("http://localhost/", {
      method: "POST",
      headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` },
      body: multipart,
    }).formData();
    const file = form.get("file") as File;
    expect(file.size).toBe(MAX_DOCUMENT_BYTES);
    expect(counts.produced).toBe(MAX_DOCUMENT_BYTES);
  });
});

import { useBrand } from "~/lib/brand";

/**
 * The recovery codes, shown once after they are made (the database keeps only their hashes), with a download as a
 * text file, made in the page: the codes never travel again.
 */
export function RecoveryCodes({
  codes,
  factor = "authenticator app",
}: {
  codes: string[];
  /** The second factor they stand in for, as the account holds it. */
  factor?: "authenticator app" | "passkey";
}) {
  const brand = useBrand();
  const purpose = `Each code signs you in once when your ${factor} is not at hand.`;
  const download = () => {
    const text = [`${brand} recovery codes`, `${purpose} Keep them somewhere safe.`, "", ...codes, ""].join("\n");
    const url = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = `${brand.toLowerCase().replace(/[^a-z0-9]+/g, "-") || "account"}-recovery-codes.txt`;
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <article className="rounded-xl border border-pending/60 bg-surface p-6" aria-labelledby="recovery-codes-title">
      <h2 id="recovery-codes-title" className="text-lg font-semibold">
        Your recovery codes
      </h2>
      <p className="mt-2 text-sm text-ink-muted">
        {purpose} They are shown only now: download them or write them down, and keep them somewhere safe.
      </p>
      <ol aria-label="Recovery codes" className="mt-4 grid gap-2 font-mono text-base sm:grid-cols-2">
        {codes.map((code) => (
          <li key={code} className="rounded-md border border-border bg-canvas px-3 py-2 tracking-wider">
            {code}
          </li>
        ))}
      </ol>
      <button
        type="button"
        onClick={download}
        className="mt-4 inline-flex items-center justify-center rounded-md bg-brand-strong px-4 py-2 font-semibold text-white hover:bg-brand-hover focus:outline-none focus:ring-2 focus:ring-brand/60"
      >
        Download
      </button>
    </article>
  );
}

import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { CLIENT_LIST_MESSAGES } from "~/lib/client-list";
import { transactionReference } from "~/lib/reference";
import { renderStoredEmail } from "~/server/mail/templates.server";
import {
  appEnv,
  createUser,
  ensureDepositWallets,
  fundedClient,
  getPage,
  insertTransaction,
  postForm,
  requestWithdrawalAs,
  sessionCookieFor,
  signedInAdmin,
} from "../support/fixtures";
import { alerts, linkHref, replyToast } from "../support/places";

let admin: { id: string; cookie: string };

beforeAll(async () => {
  admin = await signedInAdmin();
});

const decodeEntities = (text: string) =>
  text
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, "<");

async function html(path: string, cookie = admin.cookie) {
  const response = await getPage(path, cookie);
  expect(response.status, path).toBe(200);
  return response.text();
}

/** The target of the page's link with this rel (next, prev), whatever the attributes' order. */
function linkOf(page: string, rel: string): string | null {
  const tag = new RegExp(`<a [^>]*rel="${rel}"[^>]*>`).exec(page)?.[0];
  const href = tag ? /href="([^"]*)"/.exec(tag)?.[1] : undefined;
  return href === undefined ? null : decodeEntities(href);
}

/** The client ids the User Management table lists, in order, and its page links. */
async function clientList(query: string) {
  const page = await html(query.startsWith("/") ? query : `/admin${query}`);
  const table = page.slice(page.indexOf("User Management"));
  const ids = [...table.matchAll(/href="\/user\/([0-9a-f-]{36})"/g)].map((m) => m[1] as string);
  const link = (rel: string) => {
    return linkOf(table, rel);
  };
  return { ids, next: link("next"), previous: link("prev"), page };
}

/** The references and client ids /admin/transactions lists, in order, and its page links. */
async function transactionList(query: string, cookie = admin.cookie) {
  const page = await html(query.startsWith("/") ? query : `/admin/transactions${query}`, cookie);
  const references = [...page.matchAll(/>(TX-[0-9A-Z]{6})</g)].map((m) => m[1] as string);
  const owners = [...page.matchAll(/href="\/user\/([0-9a-f-]{36})"/g)].map((m) => m[1] as string);
  const link = (rel: string) => {
    return linkOf(page, rel);
  };
  return { references, owners, next: link("next"), previous: link("prev"), page };
}

async function setClient(
  id: string,
  values: { balance?: number; lastLogin?: number | null; confirmed?: boolean; suspended?: boolean; joined?: number },
) {
  if (values.balance !== undefined)
    await env.DB.prepare("UPDATE profiles SET balance_cents = ? WHERE user_id = ?").bind(values.balance, id).run();
  if (values.suspended)
    await env.DB.prepare("UPDATE profiles SET status = 'suspended' WHERE user_id = ?").bind(id).run();
  if (values.lastLogin !== undefined)
    await env.DB.prepare("UPDATE users SET last_login_at = ? WHERE id = ?").bind(values.lastLogin, id).run();
  if (values.joined !== undefined)
    await env.DB.prepare("UPDATE users SET created_at = ? WHERE id = ?").bind(values.joined, id).run();
  await env.DB.prepare("UPDATE users SET email_confirmed_at = ? WHERE id = ?")
    .bind(values.confirmed === false ? null : Date.now(), id)
    .run();
}

describe("User Management", () => {
  const tag = "sortq";
  let clients: Array<{ id: string; name: string; balance: number; lastLogin: number | null; joined: number }>;

  beforeAll(async () => {
    clients = [];
    // Names, balances, activity and joining dates in different orders, so each sort is told apart.
    const spec = [
      { first: "Delta", balance: 500, lastLogin: 3_000, joined: 1_000, confirmed: true },
      { first: "alpha", balance: 9_000, lastLogin: null, joined: 4_000, confirmed: false },
      { first: "Charlie", balance: 100, lastLogin: 9_000, joined: 2_000, confirmed: true, suspended: true },
      { first: "bravo", balance: 2_500, lastLogin: 1_000, joined: 3_000, confirmed: true },
    ];
    for (const s of spec) {
      const user = await createUser({
        firstName: `${s.first} ${tag}`,
        email: `${s.first.toLowerCase()}.${tag}@example.com`,
      });
      await setClient(user.id, s);
      clients.push({
        id: user.id,
        name: s.first.toLowerCase(),
        balance: s.balance,
        lastLogin: s.lastLogin,
        joined: s.joined,
      });
    }
  });

  const idsBy = (compare: (a: (typeof clients)[number], b: (typeof clients)[number]) => number) =>
    [...clients].sort(compare).map((c) => c.id);

  it("sorts by name, joined, last activity and balance, both ways", async () => {
    const byName = idsBy((a, b) => a.name.localeCompare(b.name));
    const byJoined = idsBy((a, b) => a.joined - b.joined);
    const byActivity = idsBy((a, b) => (a.lastLogin ?? 0) - (b.lastLogin ?? 0));
    const byBalance = idsBy((a, b) => a.balance - b.balance);
    for (const [sort, ascending] of [
      ["name", byName],
      ["joined", byJoined],
      ["activity", byActivity],
      ["balance", byBalance],
    ] as const) {
      expect((await clientList(`?q=${tag}&sort=${sort}&dir=asc`)).ids, sort).toEqual(ascending);
      expect((await clientList(`?q=${tag}&sort=${sort}&dir=desc`)).ids, sort).toEqual([...ascending].reverse());
    }
    // Without a sort: newest first, as before.
    expect((await clientList(`?q=${tag}`)).ids).toEqual([...byJoined].reverse());
  });

  it("filters by status, alone and with a sort and a search", async () => {
    const [delta, alpha, charlie, bravo] = clients.map((c) => c.id);
    expect(new Set((await clientList(`?q=${tag}&status=active`)).ids)).toEqual(new Set([delta, bravo]));
    expect((await clientList(`?q=${tag}&status=suspended`)).ids).toEqual([charlie]);
    expect((await clientList(`?q=${tag}&status=unconfirmed`)).ids).toEqual([alpha]);
    expect((await clientList(`?q=${tag}&status=active&sort=balance&dir=desc`)).ids).toEqual([bravo, delta]);
    expect((await clientList(`?q=bravo.${tag}&status=active`)).ids).toEqual([bravo]);
    expect((await clientList(`?q=bravo.${tag}&status=suspended`)).ids).toEqual([]);
  });

  it("names a bad parameter and still lists the clients", async () => {
    const { ids, page } = await clientList(`?q=${tag}&sort=height&status=asleep&dir=sideways`);
    for (const message of [CLIENT_LIST_MESSAGES.sort, CLIENT_LIST_MESSAGES.status, CLIENT_LIST_MESSAGES.dir])
      expect(alerts(page)).toContainEqual(expect.stringContaining(message));
    expect(ids).toHaveLength(4);
    const broken = await clientList(`?q=${tag}&sort=balance&after=garbage`);
    expect(alerts(broken.page)).toContainEqual(expect.stringContaining(CLIENT_LIST_MESSAGES.cursor));
    expect(broken.ids).toHaveLength(4);
  });

  it("pages 50 at a time, forwards and back, every client exactly once, whatever the sort", async () => {
    const many = "pagingq";
    const made: string[] = [];
    for (let i = 0; i < 120; i++) {
      const user = await createUser({ firstName: `P${String(i % 7)} ${many}`, email: `p${i}.${many}@example.com` });
      // Ties on purpose (7 names, 10 balances, 5 dates): the id breaks them.
      await setClient(user.id, { balance: (i % 10) * 100, lastLogin: (i % 5) * 1000, joined: 10_000 + (i % 5) });
      made.push(user.id);
    }
    for (const sort of ["name", "joined", "activity", "balance"]) {
      for (const dir of ["asc", "desc"]) {
        const pages: string[][] = [];
        let query: string | null = `?q=${many}&sort=${sort}&dir=${dir}`;
        let list = await clientList(query);
        pages.push(list.ids);
        while (list.next) {
          list = await clientList(list.next);
          pages.push(list.ids);
        }
        expect(pages.map((p) => p.length)).toEqual([50, 50, 20]);
        const all = pages.flat();
        expect(new Set(all).size).toBe(120);
        expect(new Set(all)).toEqual(new Set(made));
        // And back: each Previous shows the page that was shown before.
        for (let i = pages.length - 1; i > 0; i--) {
          query = list.previous;
          expect(query, `${sort} ${dir} page ${i}`).not.toBeNull();
          list = await clientList(query ?? "");
          expect(list.ids).toEqual(pages[i - 1]);
        }
        expect(list.previous).toBeNull();
      }
    }
  }, 120_000);
});

describe("/admin/transactions", () => {
  let ana: { id: string };
  let ben: { id: string };
  const ids: Record<string, number> = {};
  const day = (iso: string) => Date.parse(`${iso}T12:00:00Z`);

  beforeAll(async () => {
    ana = await createUser({ firstName: "Ana Filterq", email: "ana.filterq@example.com" });
    ben = await createUser({ firstName: "Ben Otherq", email: "ben.otherq@example.com" });
    ids.anaDeposit = await insertTransaction(ana.id, {
      transactionType: "deposit",
      status: "approved",
      amountCents: 10_000,
      createdAt: day("2026-01-10"),
    });
    ids.anaWithdraw = await insertTransaction(ana.id, {
      transactionType: "withdraw",
      status: "pending",
      amountCents: 25_050,
      createdAt: day("2026-02-10"),
    });
    ids.anaProfit = await insertTransaction(ana.id, {
      transactionType: "profit",
      status: "approved",
      amountCents: 700,
      tradingPair: "EUR/USD",
      createdAt: day("2026-03-10"),
    });
    ids.benWithdraw = await insertTransaction(ben.id, {
      transactionType: "withdraw",
      status: "pending",
      amountCents: 99_900,
      createdAt: day("2026-02-11"),
    });
    ids.benDeposit = await insertTransaction(ben.id, {
      transactionType: "deposit",
      status: "rejected",
      amountCents: 5_000,
      createdAt: day("2026-03-11"),
    });
  });

  const refs = (...names: string[]) => names.map((name) => transactionReference(ids[name] as number));
  const scoped = "&from=2026-01-01&to=2026-03-31";

  it("refuses clients, on the page and its CSV", async () => {
    const client = await createUser();
    const cookie = await sessionCookieFor(client.id);
    for (const path of ["/admin/transactions", "/admin/transactions.csv", "/admin/transactions?status=pending"]) {
      const response = await getPage(path, cookie);
      expect(response.status, path).toBe(302);
      expect(response.headers.get("Location"), path).not.toContain("/admin/transactions");
      expect(await getPage(path).then((r) => r.status), path).toBe(302);
    }
  });

  it("lists every client's rows newest first, each with its reference and a link to the client", async () => {
    const { references, owners } = await transactionList(`?client=q%40example.com${scoped}`);
    expect(references).toEqual(refs("benDeposit", "anaProfit", "benWithdraw", "anaWithdraw", "anaDeposit"));
    expect(owners).toEqual([ben.id, ana.id, ben.id, ana.id, ana.id]);
  });

  it("filters by each filter alone and combined", async () => {
    const cases: Array<[string, string[]]> = [
      ["?type=withdraw", ["benWithdraw", "anaWithdraw"]],
      ["?status=pending", ["benWithdraw", "anaWithdraw"]],
      ["?from=2026-03-01", ["benDeposit", "anaProfit"]],
      ["?to=2026-01-31", ["anaDeposit"]],
      [`?reference=${transactionReference(ids.anaProfit as number).toLowerCase()}`, ["anaProfit"]],
      ["?client=filterq", ["anaProfit", "anaWithdraw", "anaDeposit"]],
      ["?client=BEN%20OTHERQ", ["benDeposit", "benWithdraw"]],
      ["?min=250.50", ["benWithdraw", "anaWithdraw"]],
      ["?max=100", ["benDeposit", "anaProfit", "anaDeposit"]],
      ["?min=50&max=100", ["benDeposit", "anaDeposit"]],
      ["?type=withdraw&status=pending&client=ana.filterq", ["anaWithdraw"]],
      ["?type=deposit&status=approved&from=2026-01-01&to=2026-01-31", ["anaDeposit"]],
      ["?status=pending&min=500", ["benWithdraw"]],
    ];
    for (const [query, expected] of cases) {
      const filter = query.includes("client=") ? query : `${query}&client=q%40example.com`;
      const { references } = await transactionList(
        `${filter}${query.includes("from=") || query.includes("to=") ? "" : scoped}`,
      );
      expect(references, query).toEqual(refs(...expected));
    }
  });

  it("names a bad filter and shows the unfiltered first page", async () => {
    for (const [query, message] of [
      ["?min=abc", '"abc" is not an amount for the minimum'],
      ["?max=1,50", '"1,50" is not an amount for the maximum'],
      ["?min=10&max=5", "The minimum amount is above the maximum."],
      ["?type=gift", 'Unknown type "gift"'],
      ["?from=2026-02-30", '"2026-02-30" is not a date'],
    ] as const) {
      const { page, references } = await transactionList(`${query}&client=filterq`);
      expect(alerts(page), query).toContainEqual(expect.stringContaining(message));
      // Unfiltered: more than Ana's three rows.
      expect(references.length, query).toBeGreaterThan(3);
    }
    const csv = await getPage("/admin/transactions.csv?min=abc", admin.cookie);
    expect(csv.status).toBe(400);
    expect(await csv.text()).toContain('"abc" is not an amount');
  });

  it("pages forwards and back, every row exactly once, with rows added between loads", async () => {
    const carl = await createUser({ firstName: "Carl Pagerq", email: "carl.pagerq@example.com" });
    const made: number[] = [];
    const base = Date.parse("2025-06-01T00:00:00Z");
    // 130 rows, in pairs sharing a timestamp so the id breaks ties across page boundaries.
    for (let i = 0; i < 130; i++) {
      made.push(
        await insertTransaction(carl.id, {
          status: i % 3 ? "approved" : "pending",
          amountCents: 100 + i,
          createdAt: base + Math.floor(i / 2) * 1000,
        }),
      );
    }
    let list = await transactionList("?client=pagerq");
    const pages = [list.references];
    // A newer row arrives after page 1 was read: later pages neither repeat nor skip anything.
    const newest = await insertTransaction(carl.id, { amountCents: 999, createdAt: Date.now() });
    while (list.next) {
      list = await transactionList(list.next);
      pages.push(list.references);
    }
    expect(pages.map((p) => p.length)).toEqual([50, 50, 30]);
    expect(pages.flat()).toEqual([...made].reverse().map(transactionReference));
    for (let i = pages.length - 1; i > 0; i--) {
      list = await transactionList(list.previous ?? "");
      expect(list.references).toEqual(pages[i - 1]);
    }
    // Back on the first page read, Previous now leads to the row that arrived meanwhile, and stops there.
    list = await transactionList(list.previous ?? "");
    expect(list.references).toEqual([transactionReference(newest)]);
    expect(list.previous).toBeNull();
    // 'Pending only' is one click from any view, and shows only pending rows.
    expect(linkHref(list.page, "Pending only")).toBe("/admin/transactions?status=pending");
    const pending = await transactionList("?status=pending&client=pagerq");
    expect(pending.references).toHaveLength(45);
  }, 60_000);

  it("downloads the filtered view as CSV, quoted and defused", async () => {
    const eve = await createUser({ firstName: '=HYPERLINK("x") "Eve", Csvq', email: "eve.csvq@example.com" });
    const one = await insertTransaction(eve.id, {
      transactionType: "withdraw",
      status: "pending",
      amountCents: 123_456,
      createdAt: day("2026-04-01"),
    });
    await insertTransaction(eve.id, {
      transactionType: "deposit",
      status: "approved",
      amountCents: 100,
      createdAt: day("2026-04-02"),
    });
    const response = await getPage("/admin/transactions.csv?client=csvq&type=withdraw", admin.cookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toContain("text/csv");
    expect(response.headers.get("Content-Disposition")).toContain("attachment");
    const lines = (await response.text()).split("\r\n");
    expect(lines[0]).toBe("Reference,Date (UTC),Client,E-mail,Type,Pair/Stock,Direction,Amount (USD),Status");
    expect(lines[1]).toBe(
      `${transactionReference(one)},2026-04-01T12:00:00.000Z,"'=HYPERLINK(""x"") ""Eve"", Csvq Tester",eve.csvq@example.com,Withdrawal,,out,1234.56,pending`,
    );
    expect(lines.slice(2)).toEqual([""]);
  });

  it("is linked from the Admin Panel's header", async () => {
    expect(await html("/admin")).toContain('href="/admin/transactions"');
  });
});

describe("/user/{id} Transactions", () => {
  it("filters and pages the client's rows, with their references, and never another client's", async () => {
    const owner = await createUser({ firstName: "Olga Ownerq" });
    const other = await createUser({ firstName: "Oscar Otherq" });
    const base = Date.parse("2025-01-01T00:00:00Z");
    const made: number[] = [];
    for (let i = 0; i < 60; i++) {
      made.push(
        await insertTransaction(owner.id, {
          transactionType: i % 2 ? "withdraw" : "deposit",
          status: i % 4 === 1 ? "pending" : "approved",
          amountCents: 1_000 + i,
          createdAt: base + i * 60_000,
        }),
      );
    }
    const foreign = await insertTransaction(other.id, { transactionType: "withdraw", createdAt: base });
    const refsOf = (page: string) => [...page.matchAll(/>(TX-[0-9A-Z]{6})</g)].map((m) => m[1] as string);
    const newestFirst = [...made].reverse().map(transactionReference);

    const first = await html(`/user/${owner.id}`);
    expect(refsOf(first)).toEqual(newestFirst.slice(0, 50));
    const next = linkOf(first, "next");
    expect(next).not.toBeNull();
    const second = await html(next ?? "");
    expect(refsOf(second)).toEqual(newestFirst.slice(50));
    expect(refsOf(await html(linkOf(second, "prev") ?? ""))).toEqual(newestFirst.slice(0, 50));

    const pendingWithdrawals = made
      .filter((_, i) => i % 4 === 1)
      .reverse()
      .map(transactionReference);
    const filtered = await html(`/user/${owner.id}?type=withdraw&status=pending`);
    expect(refsOf(filtered)).toEqual(pendingWithdrawals);
    // Approve and Reject stay on a filtered view.
    expect(filtered).toContain(`aria-label="Approve withdrawal of $10.01"`);
    expect(refsOf(await html(`/user/${owner.id}?reference=${transactionReference(made[7] as number)}`))).toEqual([
      transactionReference(made[7] as number),
    ]);
    // Another client's reference finds nothing here.
    expect(refsOf(await html(`/user/${owner.id}?reference=${transactionReference(foreign)}`))).toEqual([]);
    const bad = await html(`/user/${owner.id}?status=lost`);
    expect(bad).toContain("Unknown status &quot;lost&quot;");
    expect(refsOf(bad)).toEqual(newestFirst.slice(0, 50));
  }, 60_000);
});

describe("the back office's long tables", () => {
  /** The attributes of an HTML start tag, entities decoded. */
  const attributesOf = (tag: string) =>
    Object.fromEntries([...tag.matchAll(/([\w-]+)="([^"]*)"/g)].map((m) => [m[1], decodeEntities(m[2] as string)]));

  it("approve a row through the page's one Approve form: the browser sends that row's id and nothing else", async () => {
    const client = await createUser({ firstName: "Petra Pendingq" });
    const first = await insertTransaction(client.id, { amountCents: 1_111 });
    const second = await insertTransaction(client.id, { amountCents: 2_222 });
    const page = await html(`/user/${client.id}`);
    const button = /<button [^>]*aria-label="Approve deposit of \$22\.22"[^>]*>/.exec(page)?.[0] ?? "";
    const { form: formId, name, value, type } = attributesOf(button);
    expect(type).toBe("submit");
    const form = new RegExp(`<form [^>]*id="${formId}"[^>]*>([\\s\\S]*?)</form>`).exec(page);
    expect(form, "the form the button submits").not.toBeNull();
    const { action, method } = attributesOf(form?.[0] ?? "");
    expect(method).toBe("post");
    // What a browser submits: the form's own fields, then the pressed button's name and value.
    const fields: Array<[string, string]> = [...(form?.[1] ?? "").matchAll(/<input [^>]*>/g)].map((input) => {
      const field = attributesOf(input[0]);
      return [field.name ?? "", field.value ?? ""];
    });
    fields.push([name ?? "", value ?? ""]);
    const response = await postForm(action ?? "", fields, { cookie: admin.cookie });
    expect(await replyToast(await response.text())).toEqual({ type: "success", text: "Transaction approved" });
    const status = (id: number) =>
      env.DB.prepare("SELECT status FROM transactions WHERE id = ?").bind(id).first<string>("status");
    expect(await status(second)).toBe("approved");
    expect(await status(first)).toBe("pending");
  });
});

describe("the desk's mails about one request", () => {
  it("name the deposit and the withdrawal by their reference", async () => {
    await ensureDepositWallets();
    const client = await fundedClient(50_000, "Mia Mailq");
    const withdrawal = await requestWithdrawalAs(client, { amount: "25.00" });
    const deposited = await postForm(
      "/deposit",
      { amount: "40.00", walletType: "BTC", idempotencyKey: crypto.randomUUID() },
      { cookie: client.cookie },
    );
    expect(deposited.status).toBe(302);
    const deposit = await env.DB.prepare(
      "SELECT id FROM transactions WHERE user_id = ? AND transaction_type = 'deposit' AND status = 'pending'",
    )
      .bind(client.id)
      .first<{ id: number }>();
    for (const [template, id] of [
      ["withdrawal_request", withdrawal],
      ["deposit_request", deposit?.id ?? 0],
    ] as const) {
      const row = await env.DB.prepare("SELECT payload FROM email_outbox WHERE dedupe_key = ?")
        .bind(`${template}:tx:${id}`)
        .first<{ payload: string }>();
      expect(row, template).not.toBeNull();
      const mail = renderStoredEmail(template, JSON.parse(row?.payload ?? "{}"), appEnv);
      expect(mail.text, template).toContain(transactionReference(id));
    }
  });
});

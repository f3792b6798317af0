import { describe, expect, it } from "vitest";
import { appEnv, getPage } from "../support/fixtures";
import { elementsWith, elementTexts, headLinkHref, metaContent, readText } from "../support/places";

/** The text of the page's own content, its `<main>`: not the header, the footer or the document's head. */
const mainText = (html: string) => readText(elementsWith(html, "id", "main")[0] ?? "");
/** Whether the page has a link to `href`. */
const linksTo = (html: string, href: string) => elementsWith(html, "href", href).some((tag) => tag.startsWith("<a"));

/** Each page: its path, its title, words of its content, and the links it has. */
const pages: Array<[string, string, string[], string[]]> = [
  [
    "/",
    "Trade forex, crypto and stocks",
    ["Start Trading", "Frequently asked questions", "Bitcoin or USDT", "1:500"],
    ["/trading-plan"],
  ],
  ["/about-us", "About Us", ["Copy Trading", "Stock Trading", "Crypto Trading", "Forex Trading"], []],
  [
    "/privacy",
    "Privacy Policy",
    [
      "Sharing of Information",
      "Retention",
      "Protection",
      "Advertisements",
      "Advertising Identifiers",
      "Amendments",
      "5 years",
    ],
    [],
  ],
  ["/contact-us", "Contact Us", ["as soon as possible"], appEnv.CONTACT_EMAILS.map((address) => `mailto:${address}`)],
  ["/trading-plan", "Trading Plans", ["Select Your Trading Plan"], []],
  ["/stocks", "Stock market watchlist", ["Search stocks"], []],
  ["/login", "Sign In", ["Forgot your password?"], []],
  ["/register", "Register", ["Create Account"], []],
];

describe("public pages", () => {
  it.each(pages)("%s answers 200 with its title, one h1 and its sections", async (path, title, texts, links) => {
    const response = await getPage(path);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(elementTexts(html, "title")).toEqual([
      expect.stringMatching(new RegExp(`^${title.replace(/[()]/g, "\\$&")}`)),
    ]);
    expect(elementTexts(html, "h1")).toHaveLength(1);
    expect(headLinkHref(html, "canonical")).toBe(`http://localhost${path}`);
    expect(metaContent(html, "og:title")).toBeTruthy();
    expect(metaContent(html, "description")).toMatch(/^.{20,}$/);
    const content = mainText(html);
    for (const text of texts) expect(content, text).toContain(text);
    for (const href of links) expect(linksTo(html, href), href).toBe(true);
  });

  it("offers four support addresses from configuration", () => {
    expect(appEnv.CONTACT_EMAILS).toHaveLength(4);
  });

  const termsStatements = [
    "within 14 days of acceptance",
    "within 3 seconds",
    "5 years after termination",
    "(Bid+Ask)/2",
    "only if the available funds are sufficient",
    "serial number",
    "current server price",
  ];
  it.each(termsStatements)("the terms state %j", async (statement) => {
    const html = await (await getPage("/terms-of-service")).text();
    expect(mainText(html)).toContain(statement);
  });

  it("the terms have the product's sections and a risk warning on crypto and virtual currencies", async () => {
    const html = await (await getPage("/terms-of-service")).text();
    const headings = elementTexts(html, "h2");
    for (const heading of [
      "Risk Warning",
      "Financial Information",
      "Quotes",
      "Copyright",
      "Content and Third Parties' Websites",
      "Processing of Client Orders to Open Positions",
      "Processing of Client Orders to Close Positions",
      "OTC Assets",
      "Benefits",
    ]) {
      expect(headings).toContain(heading);
    }
    expect(mainText(html)).toMatch(/virtual currenc/i);
  });

  it("say nothing about a number of traders unless one is configured", async () => {
    const html = await (await getPage("/")).text();
    expect(mainText(html)).not.toMatch(/Join .* traders/);
  });
});

describe("crawlers", () => {
  it("robots.txt allows the public pages, keeps out the private ones and names the sitemap", async () => {
    const text = await (await getPage("/robots.txt")).text();
    expect(text).toContain("Allow: /");
    for (const path of [
      "/admin",
      "/user/",
      "/dashboard",
      "/portfolio",
      "/transactions",
      "/statements",
      "/cancel-request",
      "/api/",
    ])
      expect(text).toContain(`Disallow: ${path}`);
    expect(text).toContain("Sitemap: http://localhost/sitemap.xml");
  });

  it("sitemap.xml lists the public routes and the stock pages", async () => {
    const response = await getPage("/sitemap.xml");
    expect(response.headers.get("Content-Type")).toContain("application/xml");
    const xml = await response.text();
    for (const path of [
      "/",
      "/about-us",
      "/privacy",
      "/terms-of-service",
      "/contact-us",
      "/trading-plan",
      "/stocks",
      "/stocks/AAPL",
    ]) {
      expect(xml).toContain(`<loc>http://localhost${path}</loc>`);
    }
    expect(xml).not.toContain("/admin");
  });

  it("serve a favicon and a web manifest", async () => {
    const html = await (await getPage("/")).text();
    expect(headLinkHref(html, "icon")).toBe("/favicon.svg");
    expect(headLinkHref(html, "manifest")).toBe("/site.webmanifest");
  });
});

describe("content security policy", () => {
  it("allows our origin and the named widget hosts, and nothing else third-party", async () => {
    const csp = (await getPage("/")).headers.get("Content-Security-Policy") ?? "";
    const hosts = new Set([...csp.matchAll(/(?:https|wss):\/\/([^\s;]+)/g)].map((m) => m[1]));
    const allowed = [
      /^s3\.tradingview\.com$/,
      /^(s|www)\.tradingview\.com$/,
      /^www\.tradingview-widget\.com$/,
      /^translate(-pa)?\.googleapis\.com$/,
      /^translate\.google\.com$/,
      /^www\.gstatic\.com$/,
      /^fonts\.gstatic\.com$/,
      /^(embed\.)?tawk\.to$/,
      /^\*\.tawk\.to$/,
      /^logo\.clearbit\.com$/,
    ];
    for (const host of hosts)
      expect(
        allowed.some((pattern) => pattern.test(host ?? "")),
        `${host} is allowed`,
      ).toBe(true);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toMatch(/script-src 'self' 'nonce-[^']+'/);
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  });
});

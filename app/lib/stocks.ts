/**
 * Fixed reference data for the stocks and trading pairs shown in the portal. Prices, daily changes and market caps
 * are illustrative display values, not live quotes. This module has no imports so it is safe to bundle for the browser.
 */

export const SECTORS = [
  "Technology",
  "Consumer Cyclical",
  "Consumer Defensive",
  "Financial Services",
  "Healthcare",
  "Communication Services",
  "Industrials",
  "Energy",
  "Real Estate",
] as const;

type Sector = (typeof SECTORS)[number];

export interface Stock {
  /** Upper-case ticker; class shares use a dot, e.g. "BRK.B". */
  symbol: string;
  name: string;
  /** Illustrative price in USD. */
  price: number;
  /** Illustrative daily change in percent. */
  change: number;
  sector: Sector;
  /** Display string such as "3.4T" or "182.5B". */
  marketCap: string;
  /** The company's primary web domain, e.g. "apple.com" (used for logos and links). */
  domain: string;
  description: string;
}

/** One table row: symbol, company name, illustrative price (USD), daily change (%), market cap, web domain. */
type Row = readonly [symbol: string, name: string, price: number, change: number, marketCap: string, domain: string];

/**
 * Rows grouped by sector; `satisfies` makes the compiler insist on every sector, and `as const` keeps the symbols
 * as literal types so that DESCRIPTIONS below must cover exactly these symbols.
 */
const ROWS = {
  Technology: [
    ["AAPL", "Apple Inc.", 229.87, 1.12, "3.4T", "apple.com"],
    ["MSFT", "Microsoft Corporation", 415.32, -0.48, "3.1T", "microsoft.com"],
    ["NVDA", "NVIDIA Corporation", 135.58, 2.34, "3.3T", "nvidia.com"],
    ["AVGO", "Broadcom Inc.", 172.45, -1.27, "805.6B", "broadcom.com"],
    ["ORCL", "Oracle Corporation", 168.72, 0.86, "470.3B", "oracle.com"],
    ["CRM", "Salesforce, Inc.", 289.14, -0.63, "278.2B", "salesforce.com"],
    ["ADBE", "Adobe Inc.", 512.36, 0.41, "226.8B", "adobe.com"],
    ["AMD", "Advanced Micro Devices, Inc.", 156.23, -2.05, "252.9B", "amd.com"],
    ["INTC", "Intel Corporation", 22.67, -1.38, "97.8B", "intel.com"],
    ["CSCO", "Cisco Systems, Inc.", 58.41, 0.27, "233.1B", "cisco.com"],
    ["IBM", "International Business Machines Corporation", 221.05, 0.74, "204.3B", "ibm.com"],
    ["QCOM", "QUALCOMM Incorporated", 163.89, -0.92, "182.5B", "qualcomm.com"],
    ["TXN", "Texas Instruments Incorporated", 197.54, 0.18, "180.2B", "ti.com"],
    ["NOW", "ServiceNow, Inc.", 964.21, 1.45, "198.7B", "servicenow.com"],
    ["INTU", "Intuit Inc.", 642.8, -0.36, "180.1B", "intuit.com"],
    ["AMAT", "Applied Materials, Inc.", 178.36, -1.71, "147.6B", "appliedmaterials.com"],
    ["MU", "Micron Technology, Inc.", 98.52, 3.06, "109.3B", "micron.com"],
    ["LRCX", "Lam Research Corporation", 73.18, -1.94, "94.2B", "lamresearch.com"],
    ["ADI", "Analog Devices, Inc.", 221.47, 0.52, "109.9B", "analog.com"],
    ["PANW", "Palo Alto Networks, Inc.", 188.63, 0.95, "123.4B", "paloaltonetworks.com"],
    ["PLTR", "Palantir Technologies Inc.", 67.42, 4.18, "153.6B", "palantir.com"],
    ["SNOW", "Snowflake Inc.", 165.27, -2.42, "55.1B", "snowflake.com"],
  ],
  "Consumer Cyclical": [
    ["AMZN", "Amazon.com, Inc.", 197.12, 0.88, "2.1T", "amazon.com"],
    ["TSLA", "Tesla, Inc.", 248.5, -3.21, "797.4B", "tesla.com"],
    ["HD", "The Home Depot, Inc.", 402.64, 0.33, "399.8B", "homedepot.com"],
    ["MCD", "McDonald's Corporation", 295.71, -0.21, "212.0B", "mcdonalds.com"],
    ["NKE", "NIKE, Inc.", 76.34, -1.46, "114.5B", "nike.com"],
    ["SBUX", "Starbucks Corporation", 98.27, 0.62, "111.4B", "starbucks.com"],
    ["LOW", "Lowe's Companies, Inc.", 262.18, 0.47, "148.3B", "lowes.com"],
    ["BKNG", "Booking Holdings Inc.", 4985.3, 1.08, "164.9B", "bookingholdings.com"],
    ["TJX", "The TJX Companies, Inc.", 121.35, 0.29, "136.7B", "tjx.com"],
    ["GM", "General Motors Company", 53.42, -0.84, "58.6B", "gm.com"],
    ["F", "Ford Motor Company", 10.87, -1.09, "43.2B", "ford.com"],
    ["ABNB", "Airbnb, Inc.", 134.56, 1.73, "85.3B", "airbnb.com"],
    ["CMG", "Chipotle Mexican Grill, Inc.", 58.93, -0.57, "80.1B", "chipotle.com"],
    ["MAR", "Marriott International, Inc.", 271.4, 0.36, "75.6B", "marriott.com"],
    ["EBAY", "eBay Inc.", 64.18, 0.92, "31.2B", "ebay.com"],
  ],
  "Consumer Defensive": [
    ["PG", "The Procter & Gamble Company", 167.42, 0.14, "394.5B", "pg.com"],
    ["KO", "The Coca-Cola Company", 62.85, -0.32, "270.8B", "coca-colacompany.com"],
    ["PEP", "PepsiCo, Inc.", 154.36, -0.58, "211.9B", "pepsico.com"],
    ["WMT", "Walmart Inc.", 91.27, 0.76, "733.4B", "walmart.com"],
    ["COST", "Costco Wholesale Corporation", 912.44, 1.02, "404.6B", "costco.com"],
    ["PM", "Philip Morris International Inc.", 131.58, 0.47, "204.6B", "pmi.com"],
    ["MO", "Altria Group, Inc.", 55.12, 0.23, "93.7B", "altria.com"],
    ["MDLZ", "Mondelez International, Inc.", 61.93, -0.65, "82.8B", "mondelezinternational.com"],
    ["CL", "Colgate-Palmolive Company", 89.74, -0.18, "73.4B", "colgatepalmolive.com"],
    ["KMB", "Kimberly-Clark Corporation", 132.06, 0.11, "44.1B", "kimberly-clark.com"],
    ["TGT", "Target Corporation", 131.89, -2.14, "60.7B", "target.com"],
    ["GIS", "General Mills, Inc.", 63.47, -0.39, "34.9B", "generalmills.com"],
  ],
  "Financial Services": [
    ["JPM", "JPMorgan Chase & Co.", 241.63, 0.58, "680.2B", "jpmorganchase.com"],
    ["V", "Visa Inc.", 312.47, 0.34, "612.9B", "visa.com"],
    ["MA", "Mastercard Incorporated", 521.66, 0.41, "481.3B", "mastercard.com"],
    ["BAC", "Bank of America Corporation", 44.21, -0.27, "339.7B", "bankofamerica.com"],
    ["WFC", "Wells Fargo & Company", 73.95, 0.66, "246.2B", "wellsfargo.com"],
    ["GS", "The Goldman Sachs Group, Inc.", 592.18, 1.14, "184.5B", "goldmansachs.com"],
    ["MS", "Morgan Stanley", 128.36, 0.93, "207.4B", "morganstanley.com"],
    ["C", "Citigroup Inc.", 70.42, -0.45, "133.2B", "citigroup.com"],
    ["AXP", "American Express Company", 298.74, 0.71, "210.6B", "americanexpress.com"],
    ["BLK", "BlackRock, Inc.", 1012.35, 0.28, "156.8B", "blackrock.com"],
    ["SCHW", "The Charles Schwab Corporation", 79.58, -0.36, "141.7B", "schwab.com"],
    ["PYPL", "PayPal Holdings, Inc.", 86.21, 1.89, "86.4B", "paypal.com"],
    ["BRK.B", "Berkshire Hathaway Inc.", 468.92, 0.07, "1.0T", "berkshirehathaway.com"],
    ["SPGI", "S&P Global Inc.", 508.13, -0.22, "157.6B", "spglobal.com"],
  ],
  Healthcare: [
    ["JNJ", "Johnson & Johnson", 155.48, -0.16, "374.3B", "jnj.com"],
    ["UNH", "UnitedHealth Group Incorporated", 512.37, -1.84, "471.5B", "unitedhealthgroup.com"],
    ["LLY", "Eli Lilly and Company", 798.62, 1.37, "758.1B", "lilly.com"],
    ["PFE", "Pfizer Inc.", 26.14, -0.72, "148.2B", "pfizer.com"],
    ["MRK", "Merck & Co., Inc.", 99.85, -0.44, "252.6B", "merck.com"],
    ["ABBV", "AbbVie Inc.", 181.27, 0.53, "320.4B", "abbvie.com"],
    ["TMO", "Thermo Fisher Scientific Inc.", 532.19, -0.61, "203.5B", "thermofisher.com"],
    ["ABT", "Abbott Laboratories", 118.46, 0.38, "205.4B", "abbott.com"],
    ["AMGN", "Amgen Inc.", 284.73, -0.29, "153.0B", "amgen.com"],
    ["GILD", "Gilead Sciences, Inc.", 93.58, 0.82, "116.6B", "gilead.com"],
    ["BMY", "Bristol-Myers Squibb Company", 58.21, 0.46, "118.1B", "bms.com"],
    ["CVS", "CVS Health Corporation", 56.94, -1.23, "71.7B", "cvshealth.com"],
    ["MDT", "Medtronic plc", 86.37, 0.19, "110.8B", "medtronic.com"],
    ["ISRG", "Intuitive Surgical, Inc.", 548.62, 1.21, "195.4B", "intuitive.com"],
  ],
  "Communication Services": [
    ["GOOGL", "Alphabet Inc.", 176.49, 0.97, "2.2T", "google.com"],
    ["META", "Meta Platforms, Inc.", 589.34, 1.58, "1.5T", "meta.com"],
    ["NFLX", "Netflix, Inc.", 886.12, 2.11, "379.2B", "netflix.com"],
    ["DIS", "The Walt Disney Company", 112.58, -0.53, "203.9B", "disney.com"],
    ["T", "AT&T Inc.", 22.71, 0.35, "163.0B", "att.com"],
    ["VZ", "Verizon Communications Inc.", 40.15, -0.25, "169.0B", "verizon.com"],
    ["CMCSA", "Comcast Corporation", 37.82, -0.81, "144.6B", "comcast.com"],
    ["TMUS", "T-Mobile US, Inc.", 236.47, 0.64, "274.4B", "t-mobile.com"],
    ["SPOT", "Spotify Technology S.A.", 452.3, 2.67, "91.5B", "spotify.com"],
    ["EA", "Electronic Arts Inc.", 146.92, -0.12, "38.5B", "ea.com"],
  ],
  Industrials: [
    ["BA", "The Boeing Company", 158.26, -1.52, "118.4B", "boeing.com"],
    ["CAT", "Caterpillar Inc.", 384.71, 0.87, "185.6B", "caterpillar.com"],
    ["GE", "GE Aerospace", 181.35, 1.09, "196.3B", "geaerospace.com"],
    ["HON", "Honeywell International Inc.", 215.42, -0.14, "140.1B", "honeywell.com"],
    ["UPS", "United Parcel Service, Inc.", 128.63, -0.68, "109.8B", "ups.com"],
    ["LMT", "Lockheed Martin Corporation", 527.8, 0.22, "125.1B", "lockheedmartin.com"],
    ["RTX", "RTX Corporation", 120.54, 0.31, "160.4B", "rtx.com"],
    ["DE", "Deere & Company", 412.93, -0.49, "112.2B", "deere.com"],
    ["UNP", "Union Pacific Corporation", 236.18, 0.15, "143.7B", "up.com"],
    ["MMM", "3M Company", 131.25, -0.37, "71.6B", "3m.com"],
    ["FDX", "FedEx Corporation", 276.44, 1.26, "67.3B", "fedex.com"],
  ],
  Energy: [
    ["XOM", "Exxon Mobil Corporation", 118.62, -0.74, "521.3B", "exxonmobil.com"],
    ["CVX", "Chevron Corporation", 155.39, -0.58, "279.1B", "chevron.com"],
    ["COP", "ConocoPhillips", 105.87, -1.03, "136.9B", "conocophillips.com"],
    ["SLB", "SLB N.V.", 41.26, -1.45, "58.3B", "slb.com"],
    ["EOG", "EOG Resources, Inc.", 128.74, -0.66, "72.4B", "eogresources.com"],
    ["OXY", "Occidental Petroleum Corporation", 50.13, -1.18, "47.5B", "oxy.com"],
    ["PSX", "Phillips 66", 129.55, 0.44, "53.6B", "phillips66.com"],
    ["MPC", "Marathon Petroleum Corporation", 152.81, 0.69, "49.2B", "marathonpetroleum.com"],
  ],
  "Real Estate": [
    ["AMT", "American Tower Corporation", 198.42, -0.41, "92.7B", "americantower.com"],
    ["PLD", "Prologis, Inc.", 112.36, 0.27, "104.0B", "prologis.com"],
    ["EQIX", "Equinix, Inc.", 912.58, 0.53, "88.3B", "equinix.com"],
    ["SPG", "Simon Property Group, Inc.", 176.29, 0.61, "57.5B", "simon.com"],
    ["O", "Realty Income Corporation", 55.84, -0.19, "48.9B", "realtyincome.com"],
    ["PSA", "Public Storage", 312.47, 0.08, "54.8B", "publicstorage.com"],
  ],
} as const satisfies Record<Sector, readonly Row[]>;

type StockSymbol = (typeof ROWS)[Sector][number][0];

/** Kept apart from ROWS so each table stays one line per stock; the Record type rejects missing or extra symbols. */
const DESCRIPTIONS: Record<StockSymbol, string> = {
  AAPL: "Designs smartphones, computers, tablets and wearables, plus services such as the App Store and iCloud.",
  MSFT: "Develops software, cloud services and devices, including Windows, Microsoft 365, Azure and Xbox.",
  NVDA: "Designs graphics processors, data center accelerators and software for gaming and artificial intelligence.",
  AVGO: "Designs semiconductors for networking, broadband, wireless and storage, and sells infrastructure software.",
  ORCL: "Provides database software, enterprise applications and cloud infrastructure services.",
  CRM: "Provides cloud-based customer relationship management software for sales, service, marketing and analytics.",
  ADBE: "Develops software for creative work, documents and digital marketing, including Photoshop and Acrobat.",
  AMD: "Designs processors, graphics chips and adaptive computing products for PCs, game consoles and data centers.",
  INTC: "Designs and manufactures processors and other semiconductors for PCs, servers and networking equipment.",
  CSCO: "Makes networking hardware and software, including routers and switches, and security products.",
  IBM: "Provides hybrid cloud software, consulting services and mainframe computing systems to enterprises.",
  QCOM: "Develops wireless technologies and chips for smartphones, cars and connected devices, and licenses patents.",
  TXN: "Designs and manufactures analog and embedded processing chips for industrial and automotive uses.",
  NOW: "Provides a cloud platform for automating IT service management, customer service and other business workflows.",
  INTU: "Develops financial software for consumers and small businesses, including TurboTax and QuickBooks.",
  AMAT: "Supplies equipment, services and software used to manufacture semiconductors and displays.",
  MU: "Designs and manufactures memory and storage chips, including DRAM and NAND flash.",
  LRCX: "Supplies wafer fabrication equipment and services used by semiconductor manufacturers.",
  ADI: "Designs analog, mixed-signal and signal processing chips for industrial, automotive and telecom uses.",
  PANW: "Provides cybersecurity products, including firewalls, cloud security and security operations software.",
  PLTR: "Builds data integration and analysis software used by government agencies and businesses.",
  SNOW: "Provides a cloud-based data platform for storing, processing and sharing data across organizations.",
  AMZN: "Operates an online marketplace and retail business, and cloud computing services through AWS.",
  TSLA: "Designs, manufactures and sells electric vehicles, battery energy storage and solar energy products.",
  HD: "Operates home improvement stores selling building materials, tools, appliances and garden products.",
  MCD: "Operates and franchises fast-food restaurants serving burgers, fries and breakfast items in many countries.",
  NKE: "Designs and sells athletic footwear, apparel and equipment under brands including Nike, Jordan and Converse.",
  SBUX: "Operates and licenses coffeehouses, and sells packaged coffee and ready-to-drink beverages.",
  LOW: "Operates home improvement stores offering building materials, appliances, tools and installation services.",
  BKNG: "Operates online travel services for booking stays, flights and rental cars, including Booking.com.",
  TJX: "Operates off-price apparel and home fashion stores, including T.J. Maxx, Marshalls and HomeGoods.",
  GM: "Designs, builds and sells cars, trucks and SUVs under brands including Chevrolet, GMC, Buick and Cadillac.",
  F: "Designs, manufactures and sells cars, trucks and commercial vehicles under the Ford and Lincoln brands.",
  ABNB: "Operates an online marketplace connecting hosts who offer accommodation and experiences with travelers.",
  CMG: "Operates fast-casual restaurants serving burritos, bowls, tacos and salads.",
  MAR: "Operates, franchises and licenses hotels under brands including Marriott, Sheraton and Ritz-Carlton.",
  EBAY: "Operates an online marketplace where individuals and businesses buy and sell new and used goods.",
  PG: "Makes household and personal care products under brands including Tide, Pampers, Gillette and Crest.",
  KO: "Produces and markets soft drinks, water, juices and other beverages, including Coca-Cola, Sprite and Fanta.",
  PEP: "Makes and sells beverages and snack foods under brands including Pepsi, Gatorade, Lay's and Quaker.",
  WMT: "Operates discount stores, supercenters, Sam's Club warehouses and online stores.",
  COST: "Operates membership warehouse clubs selling groceries, household goods and other merchandise in bulk.",
  PM: "Makes and sells cigarettes and smoke-free nicotine products, including IQOS and ZYN, worldwide.",
  MO: "Makes and sells cigarettes, cigars and oral nicotine products in the United States, including Marlboro.",
  MDLZ: "Makes snack foods including biscuits, chocolate and candy under brands such as Oreo, Cadbury and Toblerone.",
  CL: "Makes oral, personal and home care products and pet food, including Colgate and Hill's Pet Nutrition.",
  KMB: "Makes personal care and tissue products under brands including Huggies, Kleenex, Scott and Cottonelle.",
  TGT: "Operates general merchandise stores and an online store selling groceries, apparel and home goods.",
  GIS: "Makes packaged foods, including cereals, snacks and pet food, under brands such as Cheerios.",
  JPM: "Provides consumer and commercial banking, investment banking, asset management and payment services.",
  V: "Operates a global electronic payments network that processes card transactions.",
  MA: "Operates a global payments network connecting consumers, merchants, banks and governments.",
  BAC: "Provides consumer banking, lending, wealth management through Merrill, and investment banking.",
  WFC: "Provides consumer and commercial banking, mortgage lending, wealth management and investment banking services.",
  GS: "Provides investment banking, securities trading, asset management and wealth management services.",
  MS: "Provides investment banking, securities trading, wealth management and investment management services.",
  C: "Provides banking, credit cards, treasury and trade services, and investment banking worldwide.",
  AXP: "Issues charge and credit cards, operates a card payments network and provides travel-related services.",
  BLK: "Provides investment management, including iShares exchange-traded funds, and the Aladdin platform.",
  SCHW: "Provides brokerage, banking, wealth management and custody services to individual investors and advisors.",
  PYPL: "Operates digital payment platforms for consumers and merchants, including PayPal, Venmo and Braintree.",
  "BRK.B": "A holding company owning insurance, railroad, energy, manufacturing and retail businesses.",
  SPGI: "Provides credit ratings, market indices, benchmarks and financial data and analytics.",
  JNJ: "Develops and sells prescription medicines and medical devices for surgery and orthopaedics.",
  UNH: "Provides health insurance through UnitedHealthcare and health services, pharmacy care and data through Optum.",
  LLY: "Discovers, develops and sells medicines for diabetes, obesity, cancer, immunology and neuroscience.",
  PFE: "Discovers, develops and sells medicines and vaccines, including for cancer and infectious diseases.",
  MRK: "Develops and sells prescription medicines, vaccines and animal health products.",
  ABBV: "Develops and sells medicines for immunology, oncology and neuroscience, and aesthetics products.",
  TMO: "Supplies laboratory instruments, reagents and services for research, diagnostics and drug making.",
  ABT: "Makes medical devices, diagnostic tests, nutrition products and branded generic medicines.",
  AMGN: "Discovers, develops and manufactures biotechnology medicines, including for cancer and heart disease.",
  GILD: "Develops and sells medicines for HIV, viral hepatitis, cancer and other serious diseases.",
  BMY: "Develops and sells prescription medicines for cancer, cardiovascular, immunology and neuroscience conditions.",
  CVS: "Operates retail pharmacies, a pharmacy benefit manager and Aetna health insurance.",
  MDT: "Develops and manufactures medical devices and therapies for cardiac, surgical, neurological and diabetes care.",
  ISRG: "Develops and manufactures robotic-assisted surgical systems, including the da Vinci system.",
  GOOGL: "The parent company of Google, providing search, advertising, YouTube, Android and Google Cloud services.",
  META: "Operates Facebook, Instagram and WhatsApp, and develops virtual and augmented reality devices.",
  NFLX: "Operates a subscription streaming service offering films, television series and games.",
  DIS: "Produces films and television, operates streaming services and networks, and runs theme parks and resorts.",
  T: "Provides wireless, broadband and fiber internet services to consumers and businesses in the United States.",
  VZ: "Provides wireless, broadband and network services to consumers, businesses and governments.",
  CMCSA: "Provides broadband, video and wireless services through Xfinity, and owns NBCUniversal.",
  TMUS: "Provides mobile phone and home internet services in the United States under the T-Mobile and Metro brands.",
  SPOT: "Operates an audio streaming service offering music, podcasts and audiobooks.",
  EA: "Develops and publishes video games for consoles, PCs and mobile devices.",
  BA: "Designs and manufactures commercial airplanes, defense systems and space equipment.",
  CAT: "Manufactures construction and mining equipment, engines and turbines, and provides financing for its products.",
  GE: "Designs and manufactures jet engines and components for commercial and military aircraft.",
  HON: "Makes aerospace products, building automation systems and industrial automation equipment.",
  UPS: "Provides package delivery, freight and supply chain logistics services in many countries.",
  LMT: "Designs and manufactures military aircraft, missiles, space systems and defense technology.",
  RTX: "Makes aircraft engines, avionics and defense systems through Pratt & Whitney, Collins and Raytheon.",
  DE: "Manufactures agricultural, construction and forestry machinery under the John Deere brand.",
  UNP: "Operates a freight railroad network across the western two-thirds of the United States.",
  MMM: "Makes industrial, safety, electronics and consumer products, including adhesives, abrasives and Post-it notes.",
  FDX: "Provides express parcel delivery, ground shipping, freight and logistics services.",
  XOM: "Explores for and produces oil and natural gas, and refines and sells fuels, lubricants and chemicals.",
  CVX: "Explores for, produces and refines oil and natural gas, and markets fuels and lubricants.",
  COP: "Explores for, develops and produces crude oil, natural gas and liquefied natural gas.",
  SLB: "Provides technology, equipment and services for oil and gas exploration, drilling and production.",
  EOG: "Explores for, develops and produces crude oil and natural gas, mainly in the United States.",
  OXY: "Produces oil and natural gas, manufactures chemicals through OxyChem, and develops carbon capture projects.",
  PSX: "Refines crude oil, markets fuels and lubricants, and operates pipelines and chemical businesses.",
  MPC: "Refines crude oil and markets transportation fuels, and operates pipelines and terminals through MPLX.",
  AMT: "A real estate investment trust that owns and leases wireless towers and data centers.",
  PLD: "A real estate investment trust that owns and leases logistics facilities and warehouses.",
  EQIX: "A real estate investment trust that operates data centers and interconnection services.",
  SPG: "A real estate investment trust that owns and operates shopping malls, outlet centers and mixed-use properties.",
  O: "A real estate investment trust that owns commercial properties leased to tenants under long-term net leases.",
  PSA: "A real estate investment trust that owns and operates self-storage facilities.",
};

export const STOCKS: readonly Stock[] = SECTORS.flatMap((sector) =>
  ROWS[sector].map(
    ([symbol, name, price, change, marketCap, domain]): Stock => ({
      symbol,
      name,
      price,
      change,
      sector,
      marketCap,
      domain,
      description: DESCRIPTIONS[symbol],
    }),
  ),
);

/** Instruments offered on the trading screens, grouped as forex (incl. gold), then crypto, then stock tickers. */
export const TRADING_PAIRS: readonly string[] = [
  // Forex and gold
  "EUR/USD",
  "USD/JPY",
  "GBP/JPY",
  "XAU/USD",
  "GBP/USD",
  "AUD/USD",
  "USD/CHF",
  "USD/CAD",
  // Crypto
  "BTC/USD",
  "ETH/USD",
  "SOL/USD",
  "ADA/USD",
  "USDT/BTC",
  "ETH/USDT",
  // Stocks
  "AAPL",
  "TSLA",
  "MSFT",
  "AMZN",
  "GOOGL",
  "NVDA",
  "META",
  "NFLX",
  "AMD",
];

const BY_SYMBOL: ReadonlyMap<string, Stock> = new Map(STOCKS.map((stock) => [stock.symbol, stock]));

/** Symbols come from URLs and user input, so lookups ignore case and surrounding whitespace. */
function normalizeSymbol(symbol: string): string {
  return symbol.trim().toUpperCase();
}

export function findStock(symbol: string): Stock | undefined {
  return BY_SYMBOL.get(normalizeSymbol(symbol));
}

export function isKnownStock(symbol: string): boolean {
  return BY_SYMBOL.has(normalizeSymbol(symbol));
}

/** Case-insensitive substring match on symbol or name; a blank query matches everything. */
export function filterStocks(query: string, stocks: readonly Stock[] = STOCKS): Stock[] {
  const needle = query.trim().toLowerCase();
  if (needle === "") return [...stocks];
  return stocks.filter(
    (stock) => stock.symbol.toLowerCase().includes(needle) || stock.name.toLowerCase().includes(needle),
  );
}

/** Other stocks of the same sector, in list order, excluding `stock` itself. */
export function similarStocks(stock: Stock, limit = 5): Stock[] {
  const peers = STOCKS.filter((other) => other.sector === stock.sector && other.symbol !== stock.symbol);
  return peers.slice(0, Math.max(0, limit));
}

/** A stock as shown on its detail page; "Unknown" exists only here so that `Sector` stays the closed list. */
interface StockView extends Omit<Stock, "sector"> {
  sector: Sector | "Unknown";
  known: boolean;
}

/** The known stock for `symbol`, or a placeholder so that an unknown symbol still renders a page. */
export function stockView(symbol: string): StockView {
  const stock = findStock(symbol);
  if (stock) return { ...stock, known: true };
  const upper = normalizeSymbol(symbol);
  return {
    symbol: upper,
    name: upper,
    price: 0,
    change: 0,
    sector: "Unknown",
    marketCap: "N/A",
    domain: "",
    description: "No detailed information available.",
    known: false,
  };
}

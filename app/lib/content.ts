/**
 * Marketing and legal copy for the public pages (landing, about, privacy, terms, contact).
 * Browser-safe: nothing from the server. The brand name is always passed in, never hard-coded.
 */
import { formatWholeUsd } from "./format";

export interface Section {
  heading: string;
  paragraphs: string[];
  bullets?: string[];
}

interface Faq {
  question: string;
  answer: string;
}

interface Feature {
  title: string;
  text: string;
}

/**
 * What the landing page promises about withdrawals, from the firm's four-eyes threshold (FOUR_EYES_THRESHOLD, whole
 * US dollars; 0 means every withdrawal): an approval at or above it waits for a second admin.
 */
export function moneyReviewText(fourEyesThresholdDollars: number): string {
  if (fourEyesThresholdDollars <= 0)
    return "Every deposit and withdrawal is approved by two members of our desk before it moves your balance.";
  return (
    `Deposits and withdrawals of ${formatWholeUsd(fourEyesThresholdDollars)} or more are approved by two members ` +
    "of our desk before they move your balance; smaller ones are reviewed by one."
  );
}

export function landingContent(
  brand: string,
  stats: { traders: string; maxLeverage: string; fourEyesThreshold: number },
): {
  heroTitle: string;
  heroText: string;
  features: Feature[];
  securityTitle: string;
  securityPoints: Feature[];
  faqs: Faq[];
  communityText: string;
} {
  return {
    heroTitle: "Trade forex, crypto and stocks from one account",
    heroText:
      `${brand} gives you access to forex, crypto and stock markets from a single client portal. ` +
      "Trading carries risk, so please only invest money you can afford to lose.",
    features: [
      {
        title: "Forex Trading",
        text: "Trade major, minor and exotic currency pairs with live prices and clear costs.",
      },
      {
        title: "Crypto Trading",
        text: "Take positions on popular crypto assets such as Bitcoin and Ethereum, at any time of day.",
      },
      {
        title: "Stocks Trading",
        text: "Trade shares of well-known listed companies without leaving your portal.",
      },
      {
        title: "Copy Trading",
        text: "Follow the positions of other traders and decide for yourself how much to allocate.",
      },
      {
        title: "Flexible Leverage",
        text:
          `Choose the leverage that suits you, up to ${stats.maxLeverage}. ` +
          "Higher leverage increases both potential gains and potential losses.",
      },
      {
        title: "24/7 Support",
        text: "Our support team is available around the clock to help with your account.",
      },
    ],
    securityTitle: "How we protect your account",
    securityPoints: [
      {
        title: "Verified deposit wallets",
        text: "Deposits are made to dedicated wallet addresses that we check before crediting your account.",
      },
      {
        title: "Server-side checks",
        text: "Balances and orders are validated on our servers, and every change is recorded in an audit trail.",
      },
      {
        title: "Encrypted connections",
        text: "All traffic to the portal uses encrypted connections, and sessions are protected and expire.",
      },
      {
        title: "Reviewed deposits and withdrawals",
        text: moneyReviewText(stats.fourEyesThreshold),
      },
    ],
    faqs: [
      {
        question: "How do I fund my account?",
        answer:
          "Accounts are funded with Bitcoin or USDT. " +
          "After you send a deposit to the address shown in your portal, it is credited once it has been confirmed.",
      },
      {
        question: "How do withdrawals work?",
        answer:
          "You submit a withdrawal request from your portal, and our desk reviews it. " +
          "Once approved, the funds are paid to the address you give in your request.",
      },
      {
        question: "What are trading plans?",
        answer:
          "Trading plans are account levels with different minimum amounts. " +
          "You can compare them on the plans page and choose the one that fits your budget.",
      },
      {
        question: "How is my account kept secure?",
        answer:
          "Your account is protected by your password, encrypted connections and server-side checks on every action. " +
          "We recommend using a strong, unique password and never sharing it.",
      },
      {
        question: "When can I contact support?",
        answer: "Support is available 24/7, including weekends and holidays.",
      },
      {
        question: `Is trading with ${brand} risky?`,
        answer:
          "Yes. Prices of forex, crypto and stocks can move quickly, " +
          "and you may lose some or all of the money you invest.",
      },
    ],
    communityText: `Join ${stats.traders} traders who use ${brand} to access the markets.`,
  };
}

export function aboutContent(brand: string): { intro: string; sections: Section[] } {
  return {
    intro:
      `${brand} is an online brokerage that lets clients trade several markets from one account. ` +
      "Below is a short overview of the services we offer.",
    sections: [
      {
        heading: "Copy Trading",
        paragraphs: [
          "Copy trading lets you follow the positions of other traders automatically. " +
            "You choose whom to follow and how much of your balance to allocate.",
          "Past results of any trader do not guarantee future results. " +
            "You can stop copying at any time, and you remain responsible for the positions in your account.",
        ],
      },
      {
        heading: "Stock Trading",
        paragraphs: [
          `With ${brand} you can trade shares of listed companies from different sectors. ` +
            "Prices follow the underlying markets during their trading hours.",
          "Share prices can rise or fall for many reasons, including company news and wider economic events. " +
            "Please make sure you understand these risks before you trade.",
        ],
      },
      {
        heading: "Crypto Trading",
        paragraphs: [
          "You can take positions on popular crypto assets such as Bitcoin and Ethereum. " +
            "Crypto markets are open around the clock, every day of the week.",
          "Crypto assets are highly volatile, and their prices can change sharply in a short time. " +
            "Only trade with money you can afford to lose.",
        ],
      },
      {
        heading: "Forex Trading",
        paragraphs: [
          "Forex trading means buying one currency while selling another, for example EUR against USD. " +
            "You can trade major, minor and exotic currency pairs.",
          "Leverage is available on forex positions, which increases both potential gains and potential losses. " +
            "Choose your leverage with care.",
        ],
      },
    ],
  };
}

export function privacyContent(brand: string): { updated: string; intro: string; sections: Section[] } {
  return {
    updated: "November 2026",
    intro:
      `This policy explains how ${brand} collects, uses and protects your personal data. ` +
      "By using our services, you agree to the practices described here.",
    sections: [
      {
        heading: "Sharing of Information",
        paragraphs: [
          "We do not sell your personal data. " +
            "We share it only with service providers who help us run our services, and only as far as needed.",
          "We may also disclose personal data when the law requires it, for example to regulators or law enforcement.",
        ],
      },
      {
        heading: "Retention",
        paragraphs: [
          "We keep personal data for 5 years after the end of the client relationship. " +
            "This allows us to meet our legal and record-keeping obligations.",
          "After this period, the data is deleted or anonymised.",
        ],
      },
      {
        heading: "Protection",
        paragraphs: [
          "We use technical and organisational measures to protect your data, including encrypted connections. " +
            "Access to personal data is limited to staff who need it for their work.",
          "No system is completely secure, so please keep your login details private.",
        ],
      },
      {
        heading: "Advertisements",
        paragraphs: [
          "We may show advertisements about our own services on our website and in other places online. " +
            "These advertisements do not give advertisers access to your account data.",
        ],
      },
      {
        heading: "Advertising Identifiers",
        paragraphs: [
          "Some advertising partners may use cookies or device identifiers to measure how well advertisements work. " +
            "You can limit or reset these identifiers in your browser or device settings.",
        ],
      },
      {
        heading: "Amendments",
        paragraphs: [
          "We may update this policy from time to time. " +
            "The date at the top of this page shows when it was last changed.",
          "If we make significant changes, we will let you know through the portal or by email.",
        ],
      },
    ],
  };
}

export function termsContent(brand: string): {
  updated: string;
  intro: string;
  riskWarning: Section;
  sections: Section[];
} {
  return {
    updated: "November 2026",
    intro:
      `By opening an account with ${brand} or using our services, you agree to these terms. ` +
      "Please read them carefully and do not use our services if you do not agree.",
    riskWarning: {
      heading: "Risk Warning",
      paragraphs: [
        "Crypto assets and virtual currencies are highly volatile, and their prices can change sharply and quickly. " +
          "You may lose all of the money you invest.",
        "These products are not suitable for everyone. " +
          "Leverage magnifies losses as well as gains, so make sure you understand the risks before you trade.",
      ],
    },
    sections: [
      {
        heading: "Financial Information",
        paragraphs: [
          "You must provide accurate and complete information when you open an account. " +
            "Identity and address (KYC) documents are due within 14 days of acceptance of your application.",
          `If the documents are not received in time, ${brand} may restrict or close the account.`,
          "Personal data is kept for 5 years after termination of the client relationship, as required by law.",
        ],
      },
      {
        heading: "Quotes",
        paragraphs: [
          "Quotes are based on prices from our liquidity sources and may differ from prices elsewhere. " +
            "The displayed price is calculated as (Bid+Ask)/2.",
          "Prices can change between the moment they are displayed and the moment an order is executed.",
        ],
      },
      {
        heading: "Copyright",
        paragraphs: [
          `All content on the ${brand} website and portal is protected by copyright. ` +
            "You may not copy, change or distribute it without our written permission.",
        ],
      },
      {
        heading: "Content and Third Parties' Websites",
        paragraphs: [
          "Our website may contain links to websites run by third parties. " +
            "We do not control those websites and are not responsible for their content.",
          "Market news and analysis are provided for information only and are not investment advice.",
        ],
      },
      {
        heading: "Processing of Client Orders to Open Positions",
        paragraphs: [
          "A position is opened only if the available funds are sufficient to cover the required margin. " +
            "Each opened position receives a serial number that you can use to track it.",
          "A client may cancel an order within 3 seconds of placing it, provided it has not yet been executed.",
        ],
      },
      {
        heading: "Processing of Client Orders to Close Positions",
        paragraphs: [
          "When you close a position, it is closed at the current server price at the time the order is processed. " +
            "The result is then added to or deducted from your balance.",
          "In fast markets, the closing price may differ from the price you saw when you placed the order.",
        ],
      },
      {
        heading: "OTC Assets",
        paragraphs: [
          "Some assets are traded over the counter (OTC), which means they are not traded on a regulated exchange. " +
            `Prices for OTC assets are set by ${brand} based on available market data.`,
          "OTC assets may have lower liquidity and wider spreads than exchange-traded assets.",
        ],
      },
      {
        heading: "Benefits",
        paragraphs: [
          `${brand} may offer bonuses or other benefits from time to time, each with its own conditions. ` +
            "Benefits may be changed or withdrawn at any time.",
          "Any benefit is subject to these terms and does not reduce the risks of trading.",
        ],
      },
    ],
  };
}

export function contactContent(brand: string): { intro: string; responseText: string } {
  return {
    intro:
      `Have a question about your account or our services? Write to the ${brand} team at the address below that ` +
      "fits your question.",
    responseText: "Our support team is available 24/7, and we reply to every message as soon as possible.",
  };
}

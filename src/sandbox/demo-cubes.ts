/**
 * The demo's cubes: what the demo reports' queries read through the data API. Rows are made by the
 * seeded generator (cubes.ts) when the sandbox starts, so the seed stays small and every run serves
 * the same numbers. Plain data only: this runs in the preview's browser page as well as in Node.
 *
 * Deployment 1 ("Production"): orders (60,000 order lines over 2023-2024), customers, pipeline,
 * refunds, forecast (slow: 2.5 s per query). Deployment 2 ("Staging"): stock, tickets.
 */
import type { CubeSeed } from "./cubes.js";

type CubeInput = Omit<CubeSeed, "measures"> & { measures: CubeSeed["measures"] };

export const REGIONS = [
  "Asia Pacific",
  "Europe",
  "Latin America",
  "Middle East & Africa",
  "North America",
  "Oceania",
] as const;

const COUNTRIES: Record<(typeof REGIONS)[number], string[]> = {
  "North America": ["United States", "Canada", "Mexico"],
  Europe: ["Germany", "France", "United Kingdom", "Spain", "Italy", "Netherlands", "Sweden", "Poland"],
  "Asia Pacific": ["Japan", "China", "India", "South Korea", "Singapore", "Indonesia"],
  "Latin America": ["Brazil", "Argentina", "Chile", "Colombia", "Peru"],
  "Middle East & Africa": ["United Arab Emirates", "Saudi Arabia", "South Africa", "Nigeria"],
  Oceania: ["Australia", "New Zealand"],
};

/** Thirteen categories of two products each: [product, unit price, unit cost]. */
const CATALOGUE: Record<string, [string, number, number][]> = {
  Laptops: [
    ["Aero 14 Laptop", 1299, 910],
    ["Aero 16 Pro Laptop", 2199, 1490],
  ],
  Monitors: [
    ["View 27 4K Monitor", 449, 290],
    ["View 34 Curved Monitor", 699, 470],
  ],
  Phones: [
    ["Pulse 6 Phone", 799, 520],
    ["Pulse 6 Mini Phone", 599, 400],
  ],
  Tablets: [
    ["Slate 11 Tablet", 549, 360],
    ["Slate 13 Tablet", 899, 610],
  ],
  Accessories: [
    ["Travel Charger 65W", 49, 19],
    ["USB-C Hub 7-in-1", 79, 31],
  ],
  Audio: [
    ["Quiet ANC Headphones", 329, 170],
    ["Buds Pro Earphones", 199, 96],
  ],
  Cameras: [
    ["Frame Z Mirrorless", 1599, 1120],
    ["Action Cam 5", 349, 210],
  ],
  Networking: [
    ["Mesh Wi-Fi 3-Pack", 379, 230],
    ["Switch 16-Port", 259, 150],
  ],
  Printers: [
    ["Laser Pro 400", 429, 280],
    ["Inkjet Home 120", 129, 70],
  ],
  Storage: [
    ["SSD 2TB Portable", 219, 120],
    ["NAS 4-Bay", 599, 390],
  ],
  Software: [
    ["Office Suite Annual", 99, 12],
    ["Security Plus Annual", 59, 8],
  ],
  Wearables: [
    ["Stride Watch 3", 399, 240],
    ["Band Fit 2", 99, 48],
  ],
  Gaming: [
    ["Arc Controller", 69, 32],
    ["Arc Console", 499, 410],
  ],
};

const products = Object.values(CATALOGUE).flat();
const byProduct = (pick: (entry: [string, number, number]) => number) =>
  Object.fromEntries(products.map((p) => [p[0], pick(p)]));

export const SALES_REPS = [
  "Ava Brooks",
  "Ben Carter",
  "Chloe Diaz",
  "Daniel Evans",
  "Emma Fischer",
  "Felix Garcia",
  "Grace Huang",
  "Hugo Ivanov",
  "Isla Jensen",
  "Jonas Kim",
  "Lena Moreau",
  "Marco Rossi",
];

export const CHANNELS = ["Online", "Retail", "Partner", "Marketplace", "Phone", "Wholesale", "Events"];

const ORDERS: CubeInput = {
  name: "orders",
  deploymentId: 1,
  title: "Orders",
  rowLevelSecurity: { region: "region" },
  dimensions: [
    { name: "line_id", title: "Line", type: "string" },
    { name: "order_id", title: "Order", type: "string" },
    { name: "created_at", title: "Order date", shortTitle: "Date", type: "time" },
    { name: "region", title: "Region", type: "string" },
    { name: "country", title: "Country", type: "string" },
    { name: "channel", title: "Channel", type: "string" },
    { name: "sales_rep", title: "Sales rep", type: "string" },
    { name: "category", title: "Category", type: "string" },
    { name: "product", title: "Product", type: "string" },
    { name: "customer_id", title: "Customer id", type: "number" },
    { name: "quantity", title: "Quantity", type: "number" },
    { name: "unit_price", title: "Unit price", type: "number" },
    { name: "unit_cost", title: "Unit cost", type: "number" },
    { name: "unit_margin", title: "Unit margin", type: "number" },
    { name: "amount", title: "Amount", type: "number" },
    { name: "cost", title: "Line cost", type: "number" },
    { name: "margin", title: "Line margin", type: "number" },
  ],
  measures: [
    { name: "revenue", title: "Revenue", aggregation: "sum", of: "amount", type: "sum", format: "currency" },
    { name: "cost_total", title: "Cost", aggregation: "sum", of: "cost", type: "sum", format: "currency" },
    {
      name: "margin_total",
      title: "Margin",
      aggregation: "sum",
      of: "margin",
      type: "sum",
      format: "currency",
    },
    { name: "units", title: "Units", aggregation: "sum", of: "quantity", type: "sum" },
    { name: "orders", title: "Orders", aggregation: "countDistinct", of: "order_id", type: "countDistinct" },
    {
      name: "customers",
      title: "Active customers",
      shortTitle: "Customers",
      aggregation: "countDistinct",
      of: "customer_id",
      type: "countDistinct",
    },
    { name: "lines", title: "Order lines", aggregation: "count", type: "count" },
    {
      name: "avg_line",
      title: "Average line value",
      aggregation: "avg",
      of: "amount",
      type: "avg",
      format: "currency",
    },
  ],
  generator: {
    seed: 20240101,
    rows: 60_000,
    columns: {
      line_id: { sequence: { prefix: "L-", pad: 6 } },
      order_id: { sequence: { prefix: "SO-", start: 100_001 } },
      created_at: { date: ["2023-01-01", "2024-12-31"] },
      region: { pick: [...REGIONS], weights: [22, 26, 9, 7, 30, 6] },
      country: { pickBy: { column: "region", values: COUNTRIES } },
      channel: { pick: CHANNELS, weights: [34, 20, 14, 12, 8, 7, 5] },
      sales_rep: { pick: SALES_REPS },
      category: { pick: Object.keys(CATALOGUE) },
      product: {
        pickBy: {
          column: "category",
          values: Object.fromEntries(Object.entries(CATALOGUE).map(([c, l]) => [c, l.map((p) => p[0])])),
        },
      },
      customer_id: { int: [1, 2400] },
      quantity: { int: [1, 12] },
      unit_price: { lookup: { column: "product", values: byProduct((p) => p[1]) } },
      unit_cost: { lookup: { column: "product", values: byProduct((p) => p[2]) } },
      unit_margin: { lookup: { column: "product", values: byProduct((p) => p[1] - p[2]) } },
      amount: { multiply: ["quantity", "unit_price"] },
      cost: { multiply: ["quantity", "unit_cost"] },
      margin: { multiply: ["quantity", "unit_margin"] },
    },
  },
};

const CUSTOMERS: CubeInput = {
  name: "customers",
  deploymentId: 1,
  title: "Customers",
  rowLevelSecurity: { region: "region" },
  dimensions: [
    { name: "customer_id", title: "Customer id", type: "number" },
    { name: "name", title: "Customer", type: "string" },
    { name: "segment", title: "Segment", type: "string" },
    { name: "region", title: "Region", type: "string" },
    { name: "signed_up_at", title: "Signed up", type: "time" },
    { name: "mrr_amount", title: "Monthly recurring revenue", type: "number" },
    { name: "churn_risk", title: "Churn risk", type: "number" },
    { name: "active", title: "Active", type: "boolean" },
  ],
  measures: [
    { name: "count", title: "Customers", aggregation: "count", type: "count" },
    { name: "mrr", title: "MRR", aggregation: "sum", of: "mrr_amount", type: "sum", format: "currency" },
    {
      name: "avg_churn_risk",
      title: "Churn risk",
      aggregation: "avg",
      of: "churn_risk",
      type: "avg",
      format: "percent",
    },
  ],
  generator: {
    seed: 4242,
    rows: 400,
    columns: {
      customer_id: { sequence: {} },
      name: { sequence: { prefix: "Customer ", pad: 4 } },
      segment: { pick: ["Enterprise", "Mid-Market", "SMB"], weights: [15, 35, 50] },
      region: { pick: [...REGIONS], weights: [22, 26, 9, 7, 30, 6] },
      signed_up_at: { date: ["2019-01-01", "2024-09-30"] },
      mrr_amount: { decimal: [200, 25_000], decimals: 0 },
      churn_risk: { decimal: [0, 1], decimals: 2 },
      active: { chance: 0.9 },
    },
  },
};

const STAGES = [
  "Prospecting",
  "Qualification",
  "Discovery",
  "Proposal",
  "Negotiation",
  "Closed Won",
  "Closed Lost",
];

const PIPELINE: CubeInput = {
  name: "pipeline",
  deploymentId: 1,
  title: "Pipeline",
  dimensions: [
    { name: "opportunity", title: "Opportunity", type: "string" },
    { name: "account", title: "Account", type: "string" },
    { name: "stage", title: "Stage", type: "string" },
    { name: "owner", title: "Owner", type: "string" },
    { name: "close_date", title: "Close date", type: "time" },
    { name: "deal_amount", title: "Deal amount", type: "number" },
    { name: "probability", title: "Probability", type: "number" },
    { name: "weighted", title: "Weighted amount", type: "number" },
  ],
  measures: [
    { name: "count", title: "Opportunities", aggregation: "count", type: "count" },
    {
      name: "amount",
      title: "Amount",
      aggregation: "sum",
      of: "deal_amount",
      type: "sum",
      format: "currency",
    },
    {
      name: "weighted_amount",
      title: "Weighted amount",
      aggregation: "sum",
      of: "weighted",
      type: "sum",
      format: "currency",
    },
    {
      name: "avg_probability",
      title: "Win probability",
      aggregation: "avg",
      of: "probability",
      type: "avg",
      format: "percent",
    },
  ],
  generator: {
    seed: 777,
    rows: 240,
    columns: {
      opportunity: { sequence: { prefix: "OPP-", start: 1001 } },
      account: {
        pick: [
          "Northwind Traders",
          "Contoso Retail",
          "Fabrikam Health",
          "Tailspin Airlines",
          "Wide World Importers",
          "Litware Labs",
          "Adventure Works",
          "Proseware Inc",
          "Blue Yonder Freight",
          "Coho Vineyards",
          "Alpine Ski House",
          "Margie's Travel",
          "Trey Research",
          "Woodgrove Bank",
          "Lucerne Publishing",
        ],
      },
      stage: { pick: STAGES, weights: [18, 16, 14, 12, 10, 18, 12] },
      owner: {
        pick: ["Ava Brooks", "Ben Carter", "Emma Fischer", "Grace Huang", "Jonas Kim", "Marco Rossi"],
      },
      close_date: { date: ["2024-07-01", "2025-03-31"] },
      deal_amount: { decimal: [5_000, 250_000], decimals: 0 },
      probability: {
        lookup: {
          column: "stage",
          values: {
            Prospecting: 0.1,
            Qualification: 0.2,
            Discovery: 0.4,
            Proposal: 0.6,
            Negotiation: 0.8,
            "Closed Won": 1,
            "Closed Lost": 0,
          },
        },
      },
      weighted: { multiply: ["deal_amount", "probability"], decimals: 0 },
    },
  },
};

const REFUNDS: CubeInput = {
  name: "refunds",
  deploymentId: 1,
  title: "Refunds",
  dimensions: [
    { name: "refund_id", title: "Refund", type: "string" },
    { name: "reason", title: "Reason", type: "string" },
    { name: "status", title: "Status", type: "string" },
    { name: "requested_at", title: "Requested", type: "time" },
    { name: "refund_amount", title: "Amount", type: "number" },
    { name: "days_to_resolve", title: "Days to resolve", type: "number" },
  ],
  measures: [
    { name: "count", title: "Requests", aggregation: "count", type: "count" },
    {
      name: "amount",
      title: "Refunded",
      aggregation: "sum",
      of: "refund_amount",
      type: "sum",
      format: "currency",
    },
    {
      name: "avg_days",
      title: "Average days to resolve",
      aggregation: "avg",
      of: "days_to_resolve",
      type: "avg",
    },
  ],
  generator: {
    seed: 31337,
    rows: 180,
    columns: {
      refund_id: { sequence: { prefix: "RF-", pad: 5 } },
      reason: {
        pick: [
          "Changed mind",
          "Damaged in transit",
          "Duplicate charge",
          "Late delivery",
          "Not as described",
          "Wrong item",
        ],
      },
      status: { pick: ["Open", "Approved", "Rejected"], weights: [3, 6, 1] },
      requested_at: { date: ["2024-01-01", "2024-09-30"] },
      refund_amount: { decimal: [10, 900], decimals: 2 },
      days_to_resolve: { int: [1, 21] },
    },
  },
};

/** Slow on purpose: every query on it runs 2.5 s, so a client polling at once sees "Continue wait" twice. */
const FORECAST: CubeInput = {
  name: "forecast",
  deploymentId: 1,
  title: "Forecast",
  delayMs: 2_500,
  dimensions: [
    { name: "month", title: "Month", type: "time" },
    { name: "region", title: "Region", type: "string" },
    { name: "forecast_amount", title: "Forecast amount", type: "number" },
    { name: "actual_amount", title: "Actual amount", type: "number" },
  ],
  measures: [
    {
      name: "forecast",
      title: "Forecast",
      aggregation: "sum",
      of: "forecast_amount",
      type: "sum",
      format: "currency",
    },
    {
      name: "actual",
      title: "Actual",
      aggregation: "sum",
      of: "actual_amount",
      type: "sum",
      format: "currency",
    },
  ],
  generator: {
    seed: 9001,
    rows: 720,
    columns: {
      month: { date: ["2024-01-01", "2024-12-31"] },
      region: { pick: [...REGIONS] },
      forecast_amount: { decimal: [20_000, 90_000], decimals: 0 },
      actual_amount: { decimal: [18_000, 95_000], decimals: 0 },
    },
  },
};

const STOCK: CubeInput = {
  name: "stock",
  deploymentId: 2,
  title: "Stock",
  dimensions: [
    { name: "warehouse", title: "Warehouse", type: "string" },
    { name: "sku", title: "SKU", type: "string" },
    { name: "on_hand", title: "On hand", type: "number" },
    { name: "unit_value", title: "Unit value", type: "number" },
    { name: "stock_value", title: "Stock value", type: "number" },
  ],
  measures: [
    {
      name: "units",
      title: "Units on hand",
      shortTitle: "Units",
      aggregation: "sum",
      of: "on_hand",
      type: "sum",
    },
    {
      name: "value",
      title: "Stock value",
      shortTitle: "Value",
      aggregation: "sum",
      of: "stock_value",
      type: "sum",
      format: "currency",
    },
    { name: "skus", title: "SKUs", aggregation: "countDistinct", of: "sku", type: "countDistinct" },
  ],
  generator: {
    seed: 606,
    rows: 350,
    columns: {
      warehouse: { pick: ["Dublin", "Hamburg", "Lyon", "Madrid", "Milan", "Rotterdam", "Warsaw"] },
      sku: { sequence: { prefix: "SKU-", pad: 5 } },
      on_hand: { int: [0, 500] },
      unit_value: { decimal: [2, 180], decimals: 2 },
      stock_value: { multiply: ["on_hand", "unit_value"] },
    },
  },
};

const TICKETS: CubeInput = {
  name: "tickets",
  deploymentId: 2,
  title: "Tickets",
  dimensions: [
    { name: "ticket_id", title: "Ticket", type: "string" },
    { name: "priority", title: "Priority", type: "string" },
    { name: "status", title: "Status", type: "string" },
    { name: "opened_at", title: "Opened", type: "time" },
    { name: "first_response_hours", title: "Hours to first response", type: "number" },
  ],
  measures: [
    { name: "count", title: "Tickets", aggregation: "count", type: "count" },
    {
      name: "avg_first_response",
      title: "Average hours to first response",
      shortTitle: "Avg. first response (h)",
      aggregation: "avg",
      of: "first_response_hours",
      type: "avg",
    },
  ],
  generator: {
    seed: 707,
    rows: 900,
    columns: {
      ticket_id: { sequence: { prefix: "T-", start: 5000 } },
      priority: {
        pick: ["P1 Urgent", "P2 High", "P3 Normal", "P4 Low", "P5 Planning"],
        weights: [5, 15, 45, 25, 10],
      },
      status: { pick: ["Open", "Pending", "Solved"], weights: [2, 1, 7] },
      opened_at: { date: ["2024-07-01", "2024-10-14"] },
      first_response_hours: { decimal: [0.2, 48], decimals: 1 },
    },
  },
};

/** The demo's cubes (a fresh copy each call). */
export function demoCubes(): CubeInput[] {
  return structuredClone([ORDERS, CUSTOMERS, PIPELINE, REFUNDS, FORECAST, STOCK, TICKETS]);
}

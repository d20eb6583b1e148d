/**
 * Every bound the page-side capture enforces. A page decides how big it is; these decide how much
 * of it Steward reads, so a huge or hostile page yields a partial snapshot with blind spots
 * instead of an exhausted content script or a message Chrome refuses to carry.
 */
export const LIMITS = {
  /** Elements visited in one walk before it stops (`node_limit_reached`). */
  maxNodes: 400_000,
  /** Interactive elements reported (`elements_truncated` beyond). */
  maxElements: 30_000,
  /** Text blocks reported and their total characters (`texts_truncated` beyond). */
  maxTexts: 1_500,
  maxTextChars: 60_000,
  /** One text block, one accessible name / description, one value. */
  maxTextLength: 300,
  maxNameLength: 1_024,
  maxValueLength: 1_024,
  maxHrefLength: 2_048,
  /** Options listed for one select. */
  maxOptions: 50,
  maxOptionLength: 100,
  /** JSON-LD: raw size of one block, blocks read, and the size of what is kept. */
  maxJsonLdChars: 64 * 1024,
  maxJsonLdBlocks: 20,
  maxMicrodataItems: 50,
  /** Kept structured data: depth, keys per object, items per array, string length. */
  maxDataDepth: 6,
  maxDataKeys: 64,
  maxDataItems: 50,
  maxDataString: 1_000,
  /** Canvases hashed per snapshot, and the downscaled size hashed. */
  maxCanvases: 16,
  canvasHashSize: 16,
  /** SVG shapes reported per drawing and per page (`svg_shapes_truncated` beyond: a chart of thousands of paths). */
  maxShapesPerDrawing: 60,
  maxShapes: 300,
  /** Covered checks (elementFromPoint) per snapshot: only elements in the viewport need them. */
  maxHitTests: 2_000,
  /** Wall-clock budget for one capture before it returns what it has (`capture_time_budget_exceeded`). */
  captureBudgetMs: 8_000,
  /** Dirty roots kept between snapshots before the model falls back to a full re-walk. */
  maxDirtyRoots: 256,
  /** Same-origin iframe nesting followed. */
  maxFrameDepth: 4,
  /** Blind spots listed. */
  maxBlindSpots: 64,
} as const;

export type Limits = { -readonly [K in keyof typeof LIMITS]: number };

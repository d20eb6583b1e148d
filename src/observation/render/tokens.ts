/** A tokenizer-free estimate (≈4 characters per token for English-like text); the benchmark uses a real tokenizer. */
export function approxTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

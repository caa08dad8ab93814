/** Builds a Geo3K task's user content: text and image blocks interleaved at each `<image>` marker. */
import type { ContentBlock } from "rllm-ts/core";
import { imageMimeType } from "./geo3k-row.js";

const marker = "<image>";

/**
 * Content blocks for `problem` with `images`: the n-th `<image>` marker becomes the n-th image; images
 * that no marker refers to go first; markers with no image left are dropped.
 */
export function geo3kInstruction(problem: string, images: readonly string[]): ContentBlock[] {
  const pieces = problem.split(marker);
  const markerCount = pieces.length - 1;
  const urls = images.map(toDataUri);
  const unreferenced = urls.slice(markerCount);
  const blocks: ContentBlock[] = unreferenced.map((url) => imageBlock(url));
  pieces.forEach((piece, index) => {
    if (index > 0 && urls[index - 1] !== undefined) blocks.push(imageBlock(urls[index - 1]!));
    if (piece.trim() !== "") blocks.push({ type: "text", text: piece.trim() });
  });
  return blocks;
}

function imageBlock(url: string): ContentBlock {
  return { type: "image_url", image_url: { url } };
}

/** Bare base64 becomes a data URI (type from the decoded magic bytes); URIs and URLs pass through. */
function toDataUri(image: string): string {
  if (/^(?:data:|https?:)/.test(image)) return image;
  const head = Buffer.from(image.slice(0, 16), "base64");
  return `data:${imageMimeType(head)};base64,${image}`;
}

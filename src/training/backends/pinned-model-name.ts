/**
 * The model name that pins a request to one policy version while a backend serves several (async rollouts):
 * `<model>@v<version>`. The plain name always means the newest version.
 */

const PINNED = /^(.*)@v(\d+)$/;

/** `model` pinned to `version`. */
export function pinnedModelName(model: string, version: number): string {
  return `${model}@v${version}`;
}

/** The model and the pinned version of a requested name (no version: the newest). */
export function parsePinnedModelName(name: string): { model: string; version?: number } {
  const match = PINNED.exec(name);
  return match ? { model: match[1]!, version: Number(match[2]) } : { model: name };
}

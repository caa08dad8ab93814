/** The warning for a task's docker compose file, which neither sandbox backend reads. */
import { existsSync } from "node:fs";
import path from "node:path";

const composeNames = ["docker-compose.yaml", "docker-compose.yml", "compose.yaml", "compose.yml"];

/**
 * A warning naming the compose file in `folder`, if there is one. Terminal-Bench tasks ship one (extra services, volumes,
 * build arguments); the docker backend uses only the Dockerfile, so a task that depends on a second service fails in a
 * way the user should be able to trace back to this.
 */
export function composeFileWarning(folder: string): string | undefined {
  const found = composeNames.find((name) => existsSync(path.join(folder, name)));
  return found === undefined ? undefined : `${path.join(folder, found)}: docker compose files are not used (only the Dockerfile); services, volumes and build arguments in it are ignored`;
}

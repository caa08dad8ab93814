/** A tiny docker image made in seconds, without a registry: busybox-static and its applet links, `docker import`ed. */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** The host's busybox binary, if any (Debian: busybox-static). */
export const busyboxBinary = ["/bin/busybox", "/usr/bin/busybox"].find((candidate) => spawnSync(candidate, ["true"]).status === 0);

/** Imports `image`: busybox, its applets, /bin/bash as a stand-in script, root and an unprivileged user 1000, WORKDIR /app. */
export function importBusyboxImage(image: string): void {
  if (!busyboxBinary) throw new Error("no busybox on this host (Debian: apt-get install busybox-static)");
  const root = mkdtempSync(path.join(tmpdir(), "rllm-busybox-root-"));
  try {
    // mkdtemp makes the folder 0700, and it becomes the image's "/": a user other than root could reach nothing.
    chmodSync(root, 0o755);
    for (const folder of ["bin", "etc", "tmp", "proc", "sys", "dev", "app"]) mkdirSync(path.join(root, folder), { recursive: true });
    chmodSync(path.join(root, "tmp"), 0o1777);
    copyFileSync(busyboxBinary, path.join(root, "bin", "busybox"));
    chmodSync(path.join(root, "bin", "busybox"), 0o755);
    for (const applet of execFileSync(busyboxBinary, ["--list"], { encoding: "utf8" }).split("\n")) {
      if (applet !== "" && applet !== "busybox") symlinkSync("busybox", path.join(root, "bin", applet));
    }
    writeFileSync(path.join(root, "etc", "passwd"), "root:x:0:0:root:/root:/bin/sh\nagent:x:1000:1000:agent:/app:/bin/sh\n");
    writeFileSync(path.join(root, "etc", "group"), "root:x:0:\nagent:x:1000:\n");
    // The bundled tasks' scripts start with #!/bin/bash; busybox's sh stands in.
    writeFileSync(path.join(root, "bin", "bash"), '#!/bin/sh\nexec sh "$@"\n', { mode: 0o755 });
    execFileSync("sh", ["-c", `tar -C "${root}" -c . | docker import --change 'WORKDIR /app' --change 'ENV PATH=/bin' - ${image}`], { stdio: "ignore" });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The shell script that kills one command's processes inside a container, found by the tag in their environment. */

/**
 * Kills the processes whose environment holds "$1" (`NAME=tag`), in rounds (children forked meanwhile inherit the tag);
 * exit 0 once a scan finds none, 1 when it cannot tell. Only sh, grep, cut and kill: present in every image that has a
 * shell (coreutils or busybox). The scan ends with a sentinel line: under a fork bomb the scan's own forks can fail,
 * and an empty answer must then mean "could not look" (so the caller restarts the container), never "nothing left".
 */
export const killTaggedScript =
  'cd /proc || exit 1; for round in 1 2 3 4 5 6 7 8 9 10; do scan=$(grep -lszxF "$1" [0-9]*/environ | cut -d/ -f1; echo scanned); ' +
  // biome-ignore lint/suspicious/noTemplateCurlyInString: ${scan%scanned} is the shell's parameter expansion, not a template.
  'case "$scan" in *scanned) ;; *) exit 1 ;; esac; pids=${scan%scanned}; case "$pids" in *[0-9]*) kill -9 $pids 2>/dev/null ;; *) exit 0 ;; esac; done; exit 1';

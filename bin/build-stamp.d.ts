/** Types of build-stamp.js: the digest of the sources dist/ was built from. */
/** Where the build writes its stamp, relative to the package root. */
export declare const stampPath: string;
/** SHA-256 over the path and content of every source module and config file under `root`, in path order. */
export declare function sourceDigest(root: string): string;
/** Whether dist/ under `root` was built from exactly the sources there now (false when anything is missing). */
export declare function isBuildFresh(root: string): boolean;

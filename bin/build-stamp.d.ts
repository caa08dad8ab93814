/** Types of build-stamp.js: the digest of the sources dist/ was built from. */
/** Where the build writes its stamp, relative to the package root. */
export declare const stampPath: string;
/** Every source module and config file under `root` (paths relative to it, sorted). */
export declare function sourceFiles(root: string): string[];
/** Each file's size, inode and change time, by path. */
export declare function fileStates(root: string, files: string[]): Record<string, string>;
/** SHA-256 over the path and content of each file, in order. */
export declare function contentDigest(root: string, files: string[]): Promise<string>;
/** Writes the stamp of a build compiled from files with these states and this content digest. */
export declare function writeStamp(root: string, contentDigest: string, states: Record<string, string>): void;
/** Whether dist/ under `root` was built from exactly the sources there now (false when anything is missing). */
export declare function isBuildFresh(root: string): Promise<boolean>;

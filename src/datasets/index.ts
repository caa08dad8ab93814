/** `rllm-ts/datasets`: the download cache under $RLLM_HOME, Hugging Face pulls, and datasets saved by `rllm dataset`, as a benchmark reads them. */
export { datasetDirectory, findCachedSplit, type PullManifest } from "./dataset-cache.js";
export { downloadDatasetFile, DatasetUnavailableError, type PullOptions } from "./pull-hub-dataset.js";
export { localDatasetNames, readLocalDataset, type LocalDatasetManifest } from "./local-dataset.js";

/** The names of the training backends, apart from their code so that `rllm train --help` lists them without loading TensorFlow. */

/** Backends `rllm train --backend` accepts. */
export const TRAINING_BACKENDS = ["local"] as const;

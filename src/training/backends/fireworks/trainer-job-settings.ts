/**
 * The settings `rllm train --backend fireworks` maps onto a trainer job: the create request's body, as fireworks-ai
 * 1.2.30's TrainerJobManager._build_trainer_create_payload writes it for a manual-path TrainerJobConfig (no training
 * shape: the SDK then adds skipValidations=true and nodeCount 1).
 */

/** What the run decides about its trainer job. */
export interface TrainerJobSettings {
  baseModel: string;
  loraRank: number;
  /** The job's default; every optim_step sends the run's own learning rate in its adam_params. */
  learningRate: number;
  displayName: string;
}

/** TrainerJobConfig.learning_rate's default in the SDK. */
export const TRAINER_DEFAULT_LEARNING_RATE = 1e-5;

/** The POST body that creates the trainer job. */
export function trainerJobPayload(settings: TrainerJobSettings): Record<string, unknown> {
  return {
    serviceMode: true,
    keepAlive: false,
    dataset: "",
    trainingConfig: { baseModel: settings.baseModel, loraRank: settings.loraRank, learningRate: settings.learningRate },
    // TrainerJobConfig.use_reservation defaults to true (use the account's reservation when it has one).
    useReservation: true,
    nodeCount: 1,
    displayName: settings.displayName,
  };
}

/** The query of the create request: the client-chosen job id makes a retried create safe (a 409 finds the job). */
export function trainerJobQuery(jobId: string): string {
  return new URLSearchParams([["skipValidations", "true"], ["rlorTrainerJobId", jobId]]).toString();
}

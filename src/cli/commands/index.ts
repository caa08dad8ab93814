/** Every `rllm` subcommand, in the order `rllm --help` lists them. */
import type { Command } from "commander";

export type RegisterCommand = (program: Command) => void;

export const commandRegistrars: RegisterCommand[] = [];

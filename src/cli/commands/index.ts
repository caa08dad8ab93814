/** Every `rllm` subcommand, in the order `rllm --help` lists them. */
import type { Command } from "commander";
import { registerEvalCommand } from "./eval.js";
import { registerExportCommand } from "./export.js";
import { registerGatewayCommand } from "./gateway.js";

export type RegisterCommand = (program: Command) => void;

export const commandRegistrars: RegisterCommand[] = [registerEvalCommand, registerGatewayCommand, registerExportCommand];

/*
 * The command line: `floe serve`, `floe env`, `floe version`, `floe help`. Flags win over FLOE_*
 * environment variables, which win over defaults.
 */
#ifndef FLOE_CLI_H
#define FLOE_CLI_H

/** Runs the command in argv; returns the process exit code. */
int floe_cli_main(int argc, char **argv);

#endif

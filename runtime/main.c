/*
 * Floe: a local emulator of Amazon S3 Tables. The entry point only hands over to the command line.
 */
#include "cli.h"

int main(int argc, char **argv)
{
    return floe_cli_main(argc, argv);
}

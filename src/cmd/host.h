/*
 * host.h - running a program in the sandbox's jail from a command
 * (src/cmd/host.c): host programs the shell finds in the jail's runtime, and
 * the python3/python commands.
 */
#ifndef SBX_CMD_HOST_H
#define SBX_CMD_HOST_H

#include "cmd/cmd.h"

/* Runs `path` (a path inside the jail) with argv, the ctx's environment and
 * directory, stdin/stdout/stderr streamed through the ctx. Returns the exit
 * status (128 + N after signal N); 126/127 with bash's message when it
 * cannot be run, 127 "command not found" with the reason when the jail is
 * not available. */
int cmd_jail_exec(cmd_ctx *ctx, const char *path, int argc, char **argv);
/* The same, but where the jail runs on the reduced tier (no fork server:
 * nothing was started) runs `fallback` instead (python3: the script in the
 * persistent worker). */
int cmd_jail_exec_or(cmd_ctx *ctx, const char *path, int argc, char **argv,
                     int (*fallback)(cmd_ctx *ctx, int argc, char **argv));

/* The main of a host program: runs ctx->jail_path with argv (the shell's
 * sh_run_host_program sets it). */
int cmd_host_main(cmd_ctx *ctx, int argc, char **argv);

#endif

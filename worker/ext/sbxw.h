/*
 * sbxw.h - what worker/main.c (which starts W) and worker/ext/sbxw.c (W's
 * extension module) agree on: where the module's shared object is and the
 * command that loads and runs it.
 */
#ifndef SBX_SBXW_H
#define SBX_SBXW_H

/* W's fd holding the extension's shared object (a sealed memfd); the module
 * closes it as soon as it runs. */
#define SBXW_EXT_FD 5

/* The interpreter W execs (Debian's, PGO+LTO), and its arguments: isolated
 * (-I: no environment, no user site, no script directory on sys.path), no
 * site (-S), no bytecode written (-B). The command loads fd 5 as the
 * extension `_sbxw` (not through sys.path: nothing in the jail can put a
 * module in its place) and hands the process over to _sbxw.main(); it binds
 * no name in __main__. */
#define SBXW_PYTHON "/usr/bin/python3.11"
#define SBXW_LOADER                                                               \
  "__import__('_imp').create_dynamic(type('spec', (), "                           \
  "{'name': '_sbxw', 'origin': '/proc/self/fd/5'})).main()"

#endif

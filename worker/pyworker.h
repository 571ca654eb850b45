/*
 * pyworker.h - the embedded CPython worker that runs as W inside the jail.
 */
#ifndef SBX_PYWORKER_H
#define SBX_PYWORKER_H

#include "jail/jail.h"

/* Runs the worker: initializes CPython, then serves the py protocol on fd
 * JAIL_WFD_CTL until the host closes it. Returns the exit status. */
int pyw_main(const jail_limits *limits);

#endif

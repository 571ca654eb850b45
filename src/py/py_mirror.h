/*
 * py_mirror.h - the reduced jail tier's view of the store: a private host
 * directory that holds a copy of the sandbox's tree, brought up to date from
 * the store before each call (export) and written back after it (import).
 * See py_mirror.c for how changes are found and why every host path is
 * opened without following symlinks.
 */
#ifndef SBX_PY_MIRROR_H
#define SBX_PY_MIRROR_H

#include <stddef.h>
#include <stdint.h>

#include "store/store.h"

typedef struct py_mirror py_mirror;

/* Makes the directory (mode 0700 under $TMPDIR or /tmp; owned by `uid` when
 * the host is root and uid != 0). NULL with the reason in err. */
py_mirror *py_mirror_create(uint32_t uid, char *err, size_t errlen);
/* The directory's absolute path (the sandbox's "/"). */
const char *py_mirror_root(const py_mirror *m);
/* The id files made in the directory are given to (0: the host's own). */
uint32_t py_mirror_uid(const py_mirror *m);
/* Store -> directory: what changed in the store since the last sync is
 * written (created, replaced, removed). 0, or -1 with the reason in err. */
int py_mirror_export(py_mirror *m, store *s, char *err, size_t errlen);
/* Directory -> store: what changed in the directory since the last sync is
 * written back (new and changed files, directories, symlinks, modes,
 * deletions) in one store transaction. 0, or -1 with the reason in err (the
 * first failure; e.g. the store's quota). */
int py_mirror_import(py_mirror *m, store *s, char *err, size_t errlen);
/* The store went from generation `before` to `after` by a write known to
 * change no file (a history record): the next export need not walk for it.
 * (Exports are skipped while store_generation() is where the last sync left
 * it; any other write makes the next export walk both trees.) */
void py_mirror_known_write(py_mirror *m, uint64_t before, uint64_t after);
/* Removes the directory and frees (NULL is a no-op). */
void py_mirror_free(py_mirror *m);

#endif

/*
 * py_tier.c - which jail a sandbox's worker runs in, and what that means.
 *
 * The full jail (src/jail/jail.h: namespaces, a FUSE root that is the store)
 * is tried first. When the host refuses it (no user namespaces, as under
 * Docker's default seccomp profile; no /dev/fuse for this user) the worker
 * starts in the reduced tier (src/jail/jail_reduced.c) over a private
 * directory kept in sync with the store (py_mirror.c). Never unjailed: when
 * neither starts, the call fails with SBX_JAIL and both reasons.
 *
 *   $SBX_JAIL_TIER=full|reduced     forces one tier for the process (tests)
 *   sbx_python_require(h, tier)     SBX_TIER_FULL refuses the reduced tier
 *
 * Every worker start tries the full jail first (a host whose failure was
 * passing - a helper not found yet, a full /tmp - must get the full jail
 * back): where the host refuses it that costs one helper start that fails at
 * once (bench/python/bench_tiers.c). The note keeps the reason, and
 * sbx_jail_info() and sbx_probe() show it.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jail/jail.h"
#include "jail/jail_int.h" /* jail_pick_host_id */
#include "py/py_int.h"

static void base_limits(sbx *h, jail_config *cfg) {
  cfg->limits.mem_bytes = PY_JAIL_MEMORY;
  cfg->limits.nproc = PY_JAIL_NPROC;
  cfg->limits.nofile = PY_JAIL_NOFILE;
  cfg->limits.fsize_bytes = h->quota.max_file_size ? h->quota.max_file_size : 1ull << 30;
  cfg->limits.shm_bytes = 16u << 20;
}

/* The full jail: namespaces and the FUSE server of its root. 0, or -1 with
 * the reason in err (everything stopped). */
static int start_full(sbx *h, py_state *ps, char *err, size_t errlen) {
  jail_config cfg = {.root = JAIL_ROOT_FUSE, .cwd = "/data", .ro_dirs = ps->python_paths};
  base_limits(h, &cfg);
  if (jail_start(&cfg, &ps->j, err, errlen)) return -1;
  fuse_server_config fc = {.st = h->st, .lock = &h->lock, .dev_fd = ps->j.fuse_fd,
                           .uid = ps->j.fuse_uid, .gid = ps->j.fuse_gid,
                           /* Userns mode: the jail maps only its own id, and an
                            * unmapped owner would make the kernel refuse the
                            * inode (EOVERFLOW), so everything shows as the
                            * sandbox user's; the store still decides access. */
                           .other_id = ps->j.fuse_mode == JAIL_FUSE_USERNS ? ps->j.fuse_uid : 65534,
                           .store_uid = 0, .store_gid = 0, .cache_seconds = 1.0,
                           .lent = &ps->store_lent, .borrowers = &ps->store_borrowers};
  ps->j.fuse_fd = -1; /* the server owns it now */
  if (fuse_server_start(&fc, &ps->fuse, err, errlen)) {
    jail_stop(&ps->j, 2000);
    return -1;
  }
  if (jail_wait_ready(&ps->j, 10000, err, errlen)) {
    py_stop_worker(ps);
    return -1;
  }
  return 0;
}

/* The reduced tier over the private directory. */
static int start_reduced(sbx *h, py_state *ps, char *err, size_t errlen) {
  uint32_t uid = geteuid() == 0 ? jail_pick_host_id() : 0;
  if (!ps->mirror) {
    ps->mirror = py_mirror_create(uid, err, errlen);
    if (!ps->mirror) return -1;
  }
  char msg[256];
  int t = py_store_enter(h, ps);
  int rc = py_mirror_export(ps->mirror, h->st, msg, sizeof msg);
  py_store_leave(h, ps, t);
  if (rc) {
    snprintf(err, errlen, "the private directory: %s", msg);
    return -1;
  }
  char cwd[PATH_MAX + 8];
  snprintf(cwd, sizeof cwd, "%s/data", py_mirror_root(ps->mirror));
  jail_config cfg = {.tier = JAIL_TIER_REDUCED, .dir = py_mirror_root(ps->mirror), .cwd = cwd};
  /* The directory's files belong to the id the mirror was made for. */
  cfg.run_uid = geteuid() == 0 ? py_mirror_uid(ps->mirror) : 0;
  base_limits(h, &cfg);
  if (jail_start(&cfg, &ps->j, err, errlen)) return -1;
  if (jail_wait_ready(&ps->j, 10000, err, errlen)) return -1;
  return 0;
}

int py_tier_start(sbx *h, py_state *ps) {
  char err[JAIL_ERRMSG_MAX], full[JAIL_ERRMSG_MAX];
  int forced = jail_tier_forced();
  full[0] = 0;
  if (ps->require == SBX_TIER_REDUCED) forced = JAIL_TIER_REDUCED;
  if (forced == JAIL_TIER_REDUCED) snprintf(full, sizeof full, "the reduced tier is forced");
  if (forced == JAIL_TIER_FULL || ps->require == SBX_TIER_FULL || !full[0]) {
    if (start_full(h, ps, err, sizeof err) == 0) {
      /* A directory of an earlier reduced worker is not this one's view. */
      py_mirror_free(ps->mirror);
      ps->mirror = NULL;
      ps->tier = JAIL_TIER_FULL;
      snprintf(ps->tier_note, sizeof ps->tier_note, "namespaces and a FUSE root work here");
      return SBX_OK;
    }
    if (forced == JAIL_TIER_FULL || ps->require == SBX_TIER_FULL)
      return sandbox_fail(h, SBX_JAIL,
                          "python: the full jail is required and cannot start: %s "
                          "(run 'sbx doctor')",
                          err);
    snprintf(full, sizeof full, "%s", err);
  }
  if (start_reduced(h, ps, err, sizeof err)) {
    py_mirror_free(ps->mirror);
    ps->mirror = NULL;
    return sandbox_fail(h, SBX_JAIL,
                        "python: no jail can start here: the full one: %s; the reduced one: %s "
                        "(run 'sbx doctor')",
                        full, err);
  }
  ps->tier = JAIL_TIER_REDUCED;
  snprintf(ps->tier_note, sizeof ps->tier_note, "%.383s", full);
  return SBX_OK;
}

void py_tier_export(sbx *h, py_state *ps) {
  if (!ps->mirror || !ps->running) return;
  char msg[256];
  int t = py_store_enter(h, ps);
  py_mirror_export(ps->mirror, h->st, msg, sizeof msg);
  py_store_leave(h, ps, t);
}

void py_tier_import(sbx *h, py_state *ps, char *msg, size_t n) {
  msg[0] = 0;
  if (!ps->mirror) return;
  char why[200];
  int t = py_store_enter(h, ps);
  int rc = py_mirror_import(ps->mirror, h->st, why, sizeof why);
  py_store_leave(h, ps, t);
  if (rc) snprintf(msg, n, "sbx: the sandbox's files could not all be saved: %s\n", why);
}

const char *py_tier_path(py_state *ps, const char *path, char *buf, size_t n) {
  if (!ps->mirror || path[0] != '/') return path;
  snprintf(buf, n, "%s%s", py_mirror_root(ps->mirror), strcmp(path, "/") ? path : "");
  return buf;
}

const char *py_tier_env(py_state *ps, const char *kv, char *buf, size_t n) {
  static const char *const mapped[] = {"HOME=", "TMPDIR=", "PWD=", "OLDPWD="};
  if (!ps->mirror) return kv;
  for (size_t i = 0; i < sizeof mapped / sizeof mapped[0]; i++) {
    size_t l = strlen(mapped[i]);
    if (strncmp(kv, mapped[i], l) == 0 && kv[l] == '/') {
      char path[STORE_PATH_MAX + PATH_MAX];
      snprintf(buf, n, "%.*s%s", (int)l, kv, py_tier_path(ps, kv + l, path, sizeof path));
      return buf;
    }
  }
  return kv;
}

void py_tier_env_extra(py_state *ps, char *const *env) {
  if (!ps->mirror) return;
  char kv[PATH_MAX + 16];
  int tmpdir = 0;
  for (size_t i = 0; env[i]; i++)
    if (strncmp(env[i], "TMPDIR=", 7) == 0) tmpdir = 1;
  snprintf(kv, sizeof kv, "SBX_ROOT=%s", py_mirror_root(ps->mirror));
  py_msg_add(&ps->out, PY_T_ENV, kv, strlen(kv));
  if (!tmpdir) {
    snprintf(kv, sizeof kv, "TMPDIR=%s/tmp", py_mirror_root(ps->mirror));
    py_msg_add(&ps->out, PY_T_ENV, kv, strlen(kv));
  }
}

/* ---- the public calls ------------------------------------------------------------------- */

int sbx_python_require(sbx *h, int tier) {
  if (!h) return SBX_MISUSE;
  sandbox_clear_error(h);
  if (tier != SBX_TIER_ANY && tier != SBX_TIER_FULL && tier != SBX_TIER_REDUCED)
    return sandbox_fail(h, SBX_MISUSE, "python require: unknown tier %d", tier);
  py_state *ps = py_state_get(h);
  if (!ps) return sandbox_fail(h, SBX_NOMEM, "python: out of memory");
  ps->require = tier;
  /* A running worker on another tier stops; the next call starts the right one. */
  if (ps->running && tier != SBX_TIER_ANY &&
      (int)ps->tier != (tier == SBX_TIER_FULL ? JAIL_TIER_FULL : JAIL_TIER_REDUCED))
    return sbx_python_stop(h);
  return SBX_OK;
}

/* The full jail's guarantees (jail.h). */
static const char FULL_KEPT[] =
    "[\"user, mount, pid, net, ipc, uts and cgroup namespaces\", \"the root file system is the "
    "store itself (FUSE) with the host's runtime read-only\", \"seccomp deny list\", "
    "\"Landlock\", \"no capabilities\", \"no_new_privs\", \"rlimits\", \"memory of all the "
    "jail's processes bounded (cgroup, or the init's watch)\", \"a timeout kills every process "
    "(pid namespace)\"]";

int sbx_jail_info(sbx *h, char **json) {
  if (!h || !json) return SBX_MISUSE;
  *json = NULL;
  /* The tier is known once a worker runs: an empty call starts one. */
  sbx_py_result *r = NULL;
  sbx_py_options o = {.no_repr = 1};
  int rc = h->py && h->py->running ? SBX_OK : sbx_python_exec(h, "pass", &o, &r);
  sbx_free(r);
  if (rc) return rc;
  py_state *ps = h->py;
  char guar[2048];
  if (ps->tier == JAIL_TIER_REDUCED)
    jail_reduced_guarantees(guar, sizeof guar, geteuid() == 0, ps->j.cg.version != 0);
  else
    snprintf(guar, sizeof guar, "{\"kept\": %s, \"lost\": []}", FULL_KEPT);
  json_error_t je;
  json_t *g = json_loads(guar, 0, &je);
  json_t *o2 = json_object();
  json_object_set_new(o2, "tier", json_string(ps->tier == JAIL_TIER_REDUCED ? "reduced" : "full"));
  json_object_set_new(o2, "why", json_string(ps->tier_note));
  json_object_set_new(o2, "root",
                      json_string(ps->tier == JAIL_TIER_REDUCED ? py_mirror_root(ps->mirror) : "/"));
  json_object_set_new(o2, "memory", json_string(ps->j.memory_note));
  if (g) json_object_update(o2, g);
  json_decref(g);
  *json = json_dumps(o2, JSON_COMPACT);
  json_decref(o2);
  return *json ? SBX_OK : sandbox_fail(h, SBX_NOMEM, "jail info: out of memory");
}

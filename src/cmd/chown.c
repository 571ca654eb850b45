/*
 * chown, chgrp - change file owner and group (GNU coreutils 9.1).
 *
 *   chown [-cfvhR] [--from=CUR_OWNER:CUR_GROUP] [--reference=RFILE] OWNER[:[GROUP]]
 * FILE... chgrp [-cfvhR] [--reference=RFILE] GROUP FILE...
 *
 * The owner and group are the store's uid/gid fields. Names are the
 * sandbox's (its /etc/passwd and /etc/group when they exist, "root" for 0);
 * numbers are taken as they are. "OWNER:" sets the group to OWNER's login
 * group, ":GROUP" only the group, "OWNER.GROUP" is the old spelling. A
 * symlink operand is followed unless -h; -R walks without following links
 * met on the way (GNU's -P default) and changes links themselves only with
 * -h. The store lets the owner of a file give it away (there is no root);
 * other changes fail with GNU's "changing ownership of 'f': Operation not
 * permitted". -v / -c print GNU's reports.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cmd.h"
#include "cmd/lib/fs.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("chown", cmd_chown_main);
CMD_DEFINE("chgrp", cmd_chgrp_main);

typedef struct chown_opts {
  cmd_ctx *ctx;
  cmd_fs_ids *ids;
  bool is_chgrp;
  int64_t uid, gid;           /* -1: unchanged */
  int64_t from_uid, from_gid; /* --from, -1: any */
  const char *uname, *gname;  /* the new owner and group as reports name them */
  bool changes, silent, verbose, recursive, no_deref;
  int status;
} chown_opts;

static const char *id_name(chown_opts *o, bool group, uint32_t id) {
  const char *n = group ? cmd_fs_groupname(o->ids, id) : cmd_fs_username(o->ids, id);
  if (n) return n;
  char *buf = cmd_alloc(o->ctx, 16);
  if (buf) snprintf(buf, 16, "%u", id);
  return buf ? buf : "?";
}

/* GNU's describe_change wording for one file. */
static void report(chown_opts *o, const char *path, const store_stat *st, bool changed) {
  cmd_ctx *ctx = o->ctx;
  const char *q = cmd_gnu_quoteaf(ctx, path);
  if (o->is_chgrp || o->uid < 0) {
    const char *old = id_name(o, true, st->gid);
    const char *nw = o->gid >= 0 ? o->gname : old;
    if (changed)
      cmd_outf(ctx, "changed group of %s from %s to %s\n", q, old, nw);
    else
      cmd_outf(ctx, "group of %s retained as %s\n", q, old);
    return;
  }
  const char *ou = id_name(o, false, st->uid), *og = id_name(o, true, st->gid);
  const char *nu = o->uname;
  const char *ng = o->gid >= 0 ? o->gname : NULL;
  if (changed) {
    if (ng)
      cmd_outf(ctx, "changed ownership of %s from %s:%s to %s:%s\n", q, ou, og, nu, ng);
    else
      cmd_outf(ctx, "changed ownership of %s from %s to %s\n", q, ou, nu);
  } else {
    if (ng)
      cmd_outf(ctx, "ownership of %s retained as %s:%s\n", q, ou, og);
    else
      cmd_outf(ctx, "ownership of %s retained as %s\n", q, ou);
  }
}

static void change_one(chown_opts *o, const char *path, const store_stat *st) {
  cmd_ctx *ctx = o->ctx;
  if ((o->from_uid >= 0 && st->uid != (uint32_t)o->from_uid) ||
      (o->from_gid >= 0 && st->gid != (uint32_t)o->from_gid)) {
    if (o->verbose) report(o, path, st, false);
    return;
  }
  store_setattr a = {0};
  int which = 0;
  if (o->uid >= 0) a.uid = (uint32_t)o->uid, which |= STORE_SET_UID;
  if (o->gid >= 0) a.gid = (uint32_t)o->gid, which |= STORE_SET_GID;
  bool changed = (o->uid >= 0 && (uint32_t)o->uid != st->uid) ||
                 (o->gid >= 0 && (uint32_t)o->gid != st->gid);
  if (which) {
    int rc = store_setattr_ino(ctx->store, st->ino, &a, which, NULL);
    if (rc < 0) {
      if (!o->silent)
        cmd_errorf(ctx, "changing %s of %s: %s",
                   o->is_chgrp || o->uid < 0 ? "group" : "ownership",
                   cmd_gnu_quoteaf(ctx, path), cmd_strerror(rc));
      cmd_record_error(ctx, rc, path);
      o->status = 1;
      return;
    }
  }
  if (o->verbose || (o->changes && changed)) report(o, path, st, changed);
}

/* An entry of a -R walk: without -h, links met on the way are left alone (GNU's
 * -P). */
static void change_walked(void *ud, const cmd_walk_ent *e) {
  chown_opts *o = ud;
  if (S_ISLNK(e->st.mode) && !o->no_deref) {
    if (o->verbose) report(o, e->path, &e->st, false);
    return;
  }
  change_one(o, e->path, &e->st);
}

static void change_path(chown_opts *o, const char *path) {
  cmd_ctx *ctx = o->ctx;
  store_stat st;
  if (cmd_fs_stat_operand(ctx, path, !o->no_deref, o->silent, &st) < 0) {
    o->status = 1;
    return;
  }
  if (!o->recursive || !S_ISDIR(st.mode)) {
    change_one(o, path, &st);
    return;
  }
  if (cmd_walk_each(ctx, path, CMD_WALK_COMFOLLOW, o->silent, change_walked, o))
    o->status = 1;
}

/* An id by name or number. */
static int lookup(chown_opts *o, bool group, const char *s, int64_t *out) {
  uint32_t v;
  if ((group ? cmd_fs_groupid(o->ids, s, &v) : cmd_fs_userid(o->ids, s, &v)) == 0) {
    *out = v;
    return 0;
  }
  return -1;
}

/* The login group of user (the sandbox's /etc/passwd; root's is 0). */
static bool login_gid(cmd_ctx *ctx, const char *user, int64_t uid, int64_t *gid) {
  cmd_in *in;
  if (cmd_in_open(ctx, "/etc/passwd", &in) == 0) {
    char *line;
    ssize_t n;
    size_t ul = strlen(user);
    while ((n = cmd_in_getdelim(in, &line, '\n')) > 0) {
      /* name:pw:uid:gid:... */
      char *f[4] = {line, NULL, NULL, NULL};
      for (int k = 1; k < 4 && f[k - 1]; k++) {
        char *c = strchr(f[k - 1], ':');
        f[k] = c ? c + 1 : NULL;
      }
      if (!f[3]) continue;
      bool by_name = (size_t)(f[1] - 1 - line) == ul && memcmp(line, user, ul) == 0;
      bool by_id = uid >= 0 && strtoll(f[2], NULL, 10) == uid && f[2][0] != ':';
      if (by_name || by_id) {
        *gid = strtoll(f[3], NULL, 10);
        cmd_in_close(in);
        return true;
      }
    }
    cmd_in_close(in);
  }
  if (uid == 0) {
    *gid = 0;
    return true;
  }
  return false;
}

/* OWNER[:[GROUP]] / :GROUP / OWNER.GROUP (GNU's parse_user_spec). */
static bool parse_spec(chown_opts *o, const char *spec, int64_t *uid, int64_t *gid,
                       bool from) {
  cmd_ctx *ctx = o->ctx;
  *uid = *gid = -1;
  char *s = cmd_strdup(ctx, spec);
  if (!s) return false;
  char *sep = strchr(s, ':');
  if (!sep) {
    sep = strchr(s, '.');
    /* "a.b" is OWNER.GROUP only when it is not a user name itself */
    int64_t dummy;
    if (sep && lookup(o, false, s, &dummy) == 0) sep = NULL;
  }
  char *user = s, *grp = NULL;
  if (sep && *sep == '.')
    cmd_errorf(ctx, "warning: '.' should be ':': %s", cmd_gnu_quote(ctx, spec));
  if (sep) *sep = '\0', grp = sep + 1;
  if (!from) o->uname = user, o->gname = grp;
  if (*user) {
    if (lookup(o, false, user, uid) < 0) {
      cmd_errorf(ctx, "invalid user: %s", cmd_gnu_quote(ctx, spec));
      return false;
    }
  }
  if (grp && *grp) {
    if (lookup(o, true, grp, gid) < 0) {
      cmd_errorf(ctx, "invalid group: %s", cmd_gnu_quote(ctx, spec));
      return false;
    }
  } else if (grp && *user && !from) {
    /* "OWNER:": the owner's login group */
    if (login_gid(ctx, user, *uid, gid)) {
      o->gname = id_name(o, true, (uint32_t)*gid);
    } else {
      cmd_errorf(ctx, "invalid spec: %s", cmd_gnu_quote(ctx, spec));
      return false;
    }
  }
  if (!*user && !grp && !from) {
    cmd_errorf(ctx, "invalid spec: %s", cmd_gnu_quote(ctx, spec));
    return false;
  }
  return true;
}

static int run(cmd_ctx *ctx, int argc, char **argv, bool is_chgrp) {
  enum { O_DEREFERENCE = CMD_OPT_LONG, O_REFERENCE, O_FROM };
  static const char spec[] = "(dereference)(reference):(from):(preserve-root)"
                             "(no-preserve-root)(help)(version)c(changes)f(silent)(quiet)"
                             "v(verbose)h(no-dereference)R(recursive)HLP";
  chown_opts o = {.ctx = ctx,
                  .is_chgrp = is_chgrp,
                  .uid = -1,
                  .gid = -1,
                  .from_uid = -1,
                  .from_gid = -1};
  o.ids = cmd_fs_ids_load(ctx);
  if (!o.ids) return 1;
  cmd_getopt_state g = CMD_GETOPT_INIT;
  for (int c; (c = cmd_getopt(ctx, &g, argc, argv, spec, NULL)) != -1;) {
    switch (c) {
      case 'h': /* the last of -h and --dereference counts */
        o.no_deref = true;
        break;
      case O_DEREFERENCE:
        o.no_deref = false;
        break;
      case CMD_OPT_HELP:
        cmd_outf(ctx, is_chgrp
                          ? "Usage: chgrp [OPTION]... GROUP FILE...\n"
                            "Change the group of each FILE to GROUP.\n"
                          : "Usage: chown [OPTION]... [OWNER][:[GROUP]] FILE...\n"
                            "Change the owner and/or group of each FILE to OWNER and/or "
                            "GROUP.\n");
        cmd_outs(
            ctx,
            "  -c, --changes          like verbose but report only when a change is "
            "made\n"
            "  -f, --silent, --quiet  suppress most error messages\n"
            "  -v, --verbose          output a diagnostic for every file processed\n"
            "  -h, --no-dereference   affect symbolic links instead of referenced files\n"
            "      --reference=RFILE  use RFILE's owner and group\n"
            "  -R, --recursive        operate on files and directories recursively\n");
        return 0;
      case CMD_OPT_VERSION:
        return cmd_print_version(ctx);
      case '?': /* cmd_getopt printed the message and the hint */
        return 1;
    }
  }
  o.changes = cmd_opt_on(&g, 'c');
  o.silent = cmd_opt_on(&g, 'f');
  o.verbose = cmd_opt_on(&g, 'v');
  o.recursive = cmd_opt_on(&g, 'R');
  const char *ref = cmd_opt_arg(&g, O_REFERENCE), *from = cmd_opt_arg(&g, O_FROM);
  int need = ref ? 1 : 2;
  if (argc - g.ind < need) {
    if (argc - g.ind == 0)
      cmd_errorf(ctx, "missing operand");
    else
      cmd_errorf(ctx, "missing operand after %s", cmd_gnu_quote(ctx, argv[argc - 1]));
    return cmd_usage_hint(ctx, 1);
  }
  if (from && !parse_spec(&o, from, &o.from_uid, &o.from_gid, true)) return 1;
  if (ref) {
    store_stat st;
    if (cmd_fs_stat_reference(ctx, ref, true, &st) < 0) return 1;
    if (!is_chgrp) o.uid = st.uid, o.uname = id_name(&o, false, st.uid);
    o.gid = st.gid;
    o.gname = id_name(&o, true, st.gid);
  } else if (is_chgrp) {
    const char *grp = argv[g.ind++];
    o.gname = grp;
    if (lookup(&o, true, grp, &o.gid) < 0) {
      cmd_errorf(ctx, "invalid group: %s", cmd_gnu_quote(ctx, grp));
      return 1;
    }
  } else {
    if (!parse_spec(&o, argv[g.ind++], &o.uid, &o.gid, false)) return 1;
  }
  for (int i = g.ind; i < argc && !cmd_poll(ctx); i++) change_path(&o, argv[i]);
  return o.status;
}

int cmd_chown_main(cmd_ctx *ctx, int argc, char **argv) {
  return run(ctx, argc, argv, false);
}
int cmd_chgrp_main(cmd_ctx *ctx, int argc, char **argv) {
  return run(ctx, argc, argv, true);
}

/*
 * The sandbox's identity commands (GNU coreutils / Debian compatible):
 *
 *   whoami                      print the user name ("root")
 *   id [-u|-g|-G] [-n] [-r] [-z] [USER]
 *   hostname [-s|-f|-d|-i|-I]   print "sandbox"; setting it is refused
 *   uname [-asnrvmpio]          Linux, "sandbox", a fixed release and version
 *   nproc [--all] [--ignore=N]  1 (commands run one at a time), OMP_* honoured
 *
 * Design decisions: the sandbox's user is uid 0 "root", gid 0 "root" (the
 * store's default credentials; AgentFS files are owned by 0:0), whose
 * permissions are nevertheless checked like a normal user's by the store.
 * Names and extra users come from /etc/passwd and /etc/group inside the
 * store when they exist (lib/fs). Nothing reports host facts: the host
 * name, kernel release and CPU count are fixed values.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/fs.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("whoami", cmd_whoami_main);
CMD_DEFINE("id", cmd_id_main);
CMD_DEFINE("hostname", cmd_hostname_main);
CMD_DEFINE("uname", cmd_uname_main);
CMD_DEFINE("nproc", cmd_nproc_main);

#define SBX_HOSTNAME "sandbox"
#define SBX_RELEASE "6.1.0-sbx"
#define SBX_VERSION "#1 SMP PREEMPT_DYNAMIC sbx"
#if defined(__x86_64__)
#define SBX_MACHINE "x86_64"
#elif defined(__aarch64__)
#define SBX_MACHINE "aarch64"
#else
#define SBX_MACHINE "unknown"
#endif

static int no_operands(cmd_ctx *ctx, int argc, char **argv, const char *usage) {
  static const cmd_longopt lo[] = {CMD_LONGOPTS_STD, {0, 0, 0}};
  cmd_getopt_state st = CMD_GETOPT_INIT;
  for (int c; (c = cmd_getopt(ctx, &st, argc, argv, "", lo)) != -1;) {
    switch (c) {
    case CMD_OPT_HELP: return cmd_print_help(ctx, usage) - 1;
    case CMD_OPT_VERSION: return cmd_print_version(ctx) - 1;
    default: return 1;
    }
  }
  if (st.ind < argc) {
    cmd_errorf(ctx, "extra operand %s", cmd_gnu_quote(ctx, argv[st.ind]));
    return cmd_usage_hint(ctx, 1);
  }
  return 0;
}

int cmd_whoami_main(cmd_ctx *ctx, int argc, char **argv) {
  int rc = no_operands(ctx, argc, argv,
                       "Usage: whoami [OPTION]...\n"
                       "Print the user name associated with the current effective user ID.\n"
                       "Same as id -un.\n");
  if (rc) return rc < 0 ? 0 : rc;
  cmd_fs_ids *ids = cmd_fs_ids_load(ctx);
  const char *n = cmd_fs_username(ids, CMD_FS_UID);
  if (!n) {
    cmd_errorf(ctx, "cannot find name for user ID %u", (unsigned)CMD_FS_UID);
    return 1;
  }
  cmd_outf(ctx, "%s\n", n);
  return 0;
}

int cmd_id_main(cmd_ctx *ctx, int argc, char **argv) {
  static const cmd_longopt lo[] = {{"context", 0, 'Z'}, {"group", 0, 'g'},
                                   {"groups", 0, 'G'}, {"name", 0, 'n'}, {"real", 0, 'r'},
                                   {"user", 0, 'u'}, {"zero", 0, 'z'}, CMD_LONGOPTS_STD,
                                   {0, 0, 0}};
  cmd_getopt_state st = CMD_GETOPT_INIT;
  bool u = false, g = false, G = false, n = false, r = false, z = false;
  for (int c; (c = cmd_getopt(ctx, &st, argc, argv, "agGnruzZ", lo)) != -1;) {
    switch (c) {
    case 'a': break;
    case 'g': g = true; break;
    case 'G': G = true; break;
    case 'n': n = true; break;
    case 'r': r = true; break;
    case 'u': u = true; break;
    case 'z': z = true; break;
    case 'Z':
      cmd_errorf(ctx, "--context (-Z) works only on an SELinux-enabled kernel");
      return 1;
    case CMD_OPT_HELP:
      return cmd_print_help(ctx, "Usage: id [OPTION]... [USER]...\n"
                                 "Print user and group information for each specified USER,\n"
                                 "or (when USER omitted) for the current process.\n\n"
                                 "  -g, --group    print only the effective group ID\n"
                                 "  -G, --groups   print all group IDs\n"
                                 "  -n, --name     print a name instead of a number, for -ugG\n"
                                 "  -r, --real     print the real ID instead of the effective ID, with -ugG\n"
                                 "  -u, --user     print only the effective user ID\n"
                                 "  -z, --zero     delimit entries with NUL characters, not whitespace;\n"
                                 "                   not permitted in default format\n");
    case CMD_OPT_VERSION: return cmd_print_version(ctx);
    default: return 1;
    }
  }
  if (u + g + G > 1) {
    cmd_errorf(ctx, "cannot print \"only\" of more than one choice");
    return 1;
  }
  bool deflt = !u && !g && !G;
  if (deflt && (n || r)) {
    cmd_errorf(ctx, "cannot print only names or real IDs in default format");
    return 1;
  }
  if (deflt && z) {
    cmd_errorf(ctx, "option --zero not permitted in default format");
    return 1;
  }
  cmd_fs_ids *ids = cmd_fs_ids_load(ctx);
  int status = 0;
  int nusers = argc - st.ind;
  for (int k = 0; k < (nusers > 0 ? nusers : 1); k++) {
    uint32_t uid = CMD_FS_UID, gid = CMD_FS_GID;
    const char *uname = NULL;
    if (nusers > 0) {
      const char *who = argv[st.ind + k];
      if (cmd_fs_userid(ids, who, &uid) < 0 || (who[0] >= '0' && who[0] <= '9' &&
                                                !cmd_fs_username(ids, uid) && uid != 0)) {
        cmd_errorf(ctx, "%s: no such user", cmd_gnu_quote(ctx, who));
        status = 1;
        continue;
      }
      /* primary group: from /etc/passwd when present, else the uid for 0 */
      gid = uid == 0 ? 0 : uid;
    }
    uname = cmd_fs_username(ids, uid);
    uint32_t groups[64];
    int ng = cmd_fs_user_groups(ids, uname, gid, groups, 64);
    char end = z ? '\0' : '\n';
    if (u || g) {
      uint32_t id = u ? uid : gid;
      const char *name = u ? cmd_fs_username(ids, id) : cmd_fs_groupname(ids, id);
      if (n && name) cmd_outs(ctx, name);
      else cmd_outf(ctx, "%" PRIu32, id);
      cmd_outc(ctx, end);
      continue;
    }
    if (G) {
      for (int i = 0; i < ng; i++) {
        if (i) cmd_outc(ctx, z ? '\0' : ' ');
        const char *name = cmd_fs_groupname(ids, groups[i]);
        if (n && name) cmd_outs(ctx, name);
        else cmd_outf(ctx, "%" PRIu32, groups[i]);
      }
      cmd_outc(ctx, end);
      continue;
    }
    const char *gname = cmd_fs_groupname(ids, gid);
    cmd_outf(ctx, "uid=%" PRIu32, uid);
    if (uname) cmd_outf(ctx, "(%s)", uname);
    cmd_outf(ctx, " gid=%" PRIu32, gid);
    if (gname) cmd_outf(ctx, "(%s)", gname);
    cmd_outs(ctx, " groups=");
    for (int i = 0; i < ng; i++) {
      if (i) cmd_outc(ctx, ',');
      const char *name = cmd_fs_groupname(ids, groups[i]);
      cmd_outf(ctx, "%" PRIu32, groups[i]);
      if (name) cmd_outf(ctx, "(%s)", name);
    }
    cmd_outc(ctx, '\n');
  }
  return status;
}

int cmd_hostname_main(cmd_ctx *ctx, int argc, char **argv) {
  static const cmd_longopt lo[] = {
      {"short", 0, 's'}, {"fqdn", 0, 'f'}, {"long", 0, 'f'}, {"domain", 0, 'd'},
      {"ip-address", 0, 'i'}, {"all-ip-addresses", 0, 'I'}, {"alias", 0, 'a'},
      {"all-fqdns", 0, 'A'}, {"file", 1, 'F'}, {"boot", 0, 'b'}, {"yp", 0, 'y'},
      {"nis", 0, 'y'}, {"help", 0, 'h'}, {"version", 0, 'V'}, {0, 0, 0}};
  cmd_getopt_state st = CMD_GETOPT_INIT;
  char mode = 0;
  for (int c; (c = cmd_getopt(ctx, &st, argc, argv, "sfdiIaAF:byhV", lo)) != -1;) {
    switch (c) {
    case 'h':
      cmd_outs(ctx, "Usage: hostname [-b] {hostname|-F file}         set host name (from file)\n"
                    "       hostname [-a|-A|-d|-f|-i|-I|-s|-y]       display formatted name\n"
                    "       hostname                               display host name\n");
      return 0;
    case 'V': return cmd_print_version(ctx);
    case 'F': case 'b':
      cmd_errorf(ctx, "you must be root to change the host name");
      return 1;
    case '?': return 1;
    default: mode = (char)c;
    }
  }
  if (st.ind < argc) {
    cmd_errorf(ctx, "you must be root to change the host name");
    return 1;
  }
  switch (mode) {
  case 'd': case 'y': case 'a': cmd_outs(ctx, "\n"); break;
  case 'i': cmd_outs(ctx, "127.0.1.1\n"); break;
  case 'I': cmd_outs(ctx, "\n"); break;
  default: cmd_outs(ctx, SBX_HOSTNAME "\n");
  }
  return 0;
}

int cmd_uname_main(cmd_ctx *ctx, int argc, char **argv) {
  static const cmd_longopt lo[] = {
      {"all", 0, 'a'}, {"kernel-name", 0, 's'}, {"nodename", 0, 'n'},
      {"kernel-release", 0, 'r'}, {"kernel-version", 0, 'v'}, {"machine", 0, 'm'},
      {"processor", 0, 'p'}, {"hardware-platform", 0, 'i'}, {"operating-system", 0, 'o'},
      CMD_LONGOPTS_STD, {0, 0, 0}};
  enum { S = 1, N = 2, R = 4, V = 8, M = 16, P = 32, I = 64, O = 128 };
  cmd_getopt_state st = CMD_GETOPT_INIT;
  int want = 0;
  bool all = false;
  for (int c; (c = cmd_getopt(ctx, &st, argc, argv, "asnrvmpio", lo)) != -1;) {
    switch (c) {
    case 'a': all = true; want |= S | N | R | V | M | O; break;
    case 's': want |= S; break;
    case 'n': want |= N; break;
    case 'r': want |= R; break;
    case 'v': want |= V; break;
    case 'm': want |= M; break;
    case 'p': want |= P; break;
    case 'i': want |= I; break;
    case 'o': want |= O; break;
    case CMD_OPT_HELP:
      return cmd_print_help(ctx, "Usage: uname [OPTION]...\n"
                                 "Print certain system information.  With no OPTION, same as -s.\n");
    case CMD_OPT_VERSION: return cmd_print_version(ctx);
    default: return 1;
    }
  }
  if (st.ind < argc) {
    cmd_errorf(ctx, "extra operand %s", cmd_gnu_quote(ctx, argv[st.ind]));
    return cmd_usage_hint(ctx, 1);
  }
  if (!want) want = S;
  const char *parts[8];
  int np = 0;
  if (want & S) parts[np++] = "Linux";
  if (want & N) parts[np++] = SBX_HOSTNAME;
  if (want & R) parts[np++] = SBX_RELEASE;
  if (want & V) parts[np++] = SBX_VERSION;
  if (want & M) parts[np++] = SBX_MACHINE;
  if ((want & P) && !all) parts[np++] = "unknown";
  if ((want & I) && !all) parts[np++] = "unknown";
  if (want & O) parts[np++] = "GNU/Linux";
  for (int i = 0; i < np; i++) cmd_outf(ctx, "%s%s", i ? " " : "", parts[i]);
  cmd_outc(ctx, '\n');
  return 0;
}

int cmd_nproc_main(cmd_ctx *ctx, int argc, char **argv) {
  enum { OPT_ALL = 256, OPT_IGNORE };
  static const cmd_longopt lo[] = {{"all", 0, OPT_ALL}, {"ignore", 1, OPT_IGNORE},
                                   CMD_LONGOPTS_STD, {0, 0, 0}};
  cmd_getopt_state st = CMD_GETOPT_INIT;
  bool all = false;
  unsigned long ignore = 0;
  for (int c; (c = cmd_getopt(ctx, &st, argc, argv, "", lo)) != -1;) {
    switch (c) {
    case OPT_ALL: all = true; break;
    case OPT_IGNORE: {
      char *ep;
      errno = 0;
      ignore = strtoul(st.arg, &ep, 10);
      if (*ep || !*st.arg || errno || st.arg[0] == '-') {
        cmd_errorf(ctx, "invalid number: %s", cmd_gnu_quote(ctx, st.arg));
        return 1;
      }
      break;
    }
    case CMD_OPT_HELP:
      return cmd_print_help(ctx, "Usage: nproc [OPTION]...\n"
                                 "Print the number of processing units available to the current process,\n"
                                 "which may be less than the number of online processors\n\n"
                                 "      --all      print the number of installed processors\n"
                                 "      --ignore=N  if possible, exclude N processing units\n");
    case CMD_OPT_VERSION: return cmd_print_version(ctx);
    default: return 1;
    }
  }
  if (st.ind < argc) {
    cmd_errorf(ctx, "extra operand %s", cmd_gnu_quote(ctx, argv[st.ind]));
    return cmd_usage_hint(ctx, 1);
  }
  unsigned long n = 1;
  if (!all) {
    /* like gnulib's num_processors: OMP_NUM_THREADS, capped by OMP_THREAD_LIMIT */
    const char *t = cmd_getenv(ctx, "OMP_NUM_THREADS");
    if (t && *t) {
      char *ep;
      unsigned long v = strtoul(t, &ep, 10);
      if (v > 0 && (*ep == 0 || *ep == ',')) n = v;
    }
    const char *lim = cmd_getenv(ctx, "OMP_THREAD_LIMIT");
    if (lim && *lim) {
      unsigned long v = strtoul(lim, NULL, 10);
      if (v > 0 && v < n) n = v;
    }
  }
  n = n > ignore ? n - ignore : 1;
  cmd_outf(ctx, "%lu\n", n);
  return 0;
}

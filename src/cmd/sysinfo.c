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

/* Whether argv[ind..] holds an operand, which a command taking none refuses
 * with GNU's message. */
static bool extra_operand(cmd_ctx *ctx, int argc, char **argv, int ind) {
  if (ind >= argc) return false;
  cmd_errorf(ctx, "extra operand %s", cmd_gnu_quote(ctx, argv[ind]));
  cmd_usage_hint(ctx, 1);
  return true;
}

/* The options of a command with no option but --help and --version, and no
 * operand: -1 to go on, else the status to return. */
static int no_operands(cmd_ctx *ctx, int argc, char **argv, const char *usage) {
  cmd_getopt_state st = CMD_GETOPT_INIT;
  int rc = cmd_getopt_all(ctx, &st, argc, argv, "(help)(version)", usage);
  if (rc >= 0) return rc;
  return extra_operand(ctx, argc, argv, st.ind) ? 1 : -1;
}

int cmd_whoami_main(cmd_ctx *ctx, int argc, char **argv) {
  int rc = no_operands(ctx, argc, argv,
                       "Usage: whoami [OPTION]...\n"
                       "Print the user name associated with the current effective user ID.\n"
                       "Same as id -un.\n");
  if (rc >= 0) return rc;
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
  cmd_getopt_state st = CMD_GETOPT_INIT;
  /* A loop for -Z, refused at once; the flags are read after it. */
  for (int c; (c = cmd_getopt(ctx, &st, argc, argv,
                              "(help)(version)aZ(context)g(group)G(groups)n(name)r(real)u(user)"
                              "z(zero)",
                              NULL)) != -1;) {
    switch (c) {
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
    case '?': return 1;
    }
  }
  bool u = cmd_opt_on(&st, 'u'), g = cmd_opt_on(&st, 'g'), G = cmd_opt_on(&st, 'G');
  bool n = cmd_opt_on(&st, 'n'), r = cmd_opt_on(&st, 'r'), z = cmd_opt_on(&st, 'z');
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
  cmd_getopt_state st = CMD_GETOPT_INIT;
  char mode = 0; /* the last of the display options */
  /* The long names in Debian's order ("--a": '--all-fqdns' '--alias'
   * '--all-ip-addresses') */
  for (int c; (c = cmd_getopt(ctx, &st, argc, argv,
                              "d(domain)b(boot)F:(file)f(fqdn)(long)A(all-fqdns)h(help)s(short)"
                              "V(version)a(alias)i(ip-address)I(all-ip-addresses)y(nis)(yp)",
                              NULL)) != -1;) {
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
  enum { S = 1, N = 2, R = 4, V = 8, M = 16, P = 32, I = 64, O = 128 };
  cmd_getopt_state st = CMD_GETOPT_INIT;
  for (int c; (c = cmd_getopt(ctx, &st, argc, argv,
                              "(help)(version)a(all)s(kernel-name)n(nodename)r(kernel-release)v(kernel-version)"
                              "m(machine)p(processor)i(hardware-platform)o(operating-system)",
                              NULL)) != -1;) {
    switch (c) {
    CMD_CASES_HELP_VERSION(ctx, "Usage: uname [OPTION]...\n"
                                "Print certain system information.  With no OPTION, same as -s.\n");
    case '?': return 1;
    }
  }
  if (extra_operand(ctx, argc, argv, st.ind)) return 1;
  int want = 0;
  if (cmd_opt_on(&st, 'a')) want |= S | N | R | V | M | O;
  static const char letters[] = "snrvmpio"; /* S, N, R, ... O */
  for (int k = 0; letters[k]; k++)
    if (cmd_opt_on(&st, letters[k])) want |= 1 << k;
  if (!want) want = S;
  const char *parts[8];
  int np = 0;
  if (want & S) parts[np++] = "Linux";
  if (want & N) parts[np++] = SBX_HOSTNAME;
  if (want & R) parts[np++] = SBX_RELEASE;
  if (want & V) parts[np++] = SBX_VERSION;
  if (want & M) parts[np++] = SBX_MACHINE;
  bool all = cmd_opt_on(&st, 'a');
  if ((want & P) && !all) parts[np++] = "unknown";
  if ((want & I) && !all) parts[np++] = "unknown";
  if (want & O) parts[np++] = "GNU/Linux";
  for (int i = 0; i < np; i++) cmd_outf(ctx, "%s%s", i ? " " : "", parts[i]);
  cmd_outc(ctx, '\n');
  return 0;
}

int cmd_nproc_main(cmd_ctx *ctx, int argc, char **argv) {
  enum { OPT_ALL = CMD_OPT_LONG, OPT_IGNORE };
  cmd_getopt_state st = CMD_GETOPT_INIT;
  bool all = false;
  unsigned long ignore = 0;
  /* A loop: --ignore's bad number is reported at once. */
  for (int c; (c = cmd_getopt(ctx, &st, argc, argv, "(all)(ignore):(help)(version)", NULL)) != -1;) {
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
  if (extra_operand(ctx, argc, argv, st.ind)) return 1;
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

/*
 * df - report the sandbox's file system space usage (GNU coreutils 9.1 layout).
 *
 *   df [-hHkPiTa] [-B SIZE] [--output[=FIELDS]] [--total] [-t TYPE] [-x TYPE] [FILE]...
 *
 * The sandbox is one file system: source "sbx", type "sbx", mounted on "/".
 * Its size is the byte quota and its inode count the inode quota set on the
 * sandbox (sbx_set_quota); used is what the quotas count (regular files'
 * bytes, inodes). Without a quota there is no size: Size, Avail and Use% are
 * "-" as GNU prints unknown values. A FILE operand must exist (GNU's
 * message otherwise) and names the same file system. Columns, headers
 * (1K-blocks, Size with -h, 1024-blocks and Capacity with -P, --output's
 * names) and widths are GNU's; sizes are rounded up.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/lib/fs.h"
#include "cmd/lib/gnu.h"

CMD_DEFINE("df", cmd_df_main);

enum df_field {
  F_SOURCE,
  F_FSTYPE,
  F_ITOTAL,
  F_IUSED,
  F_IAVAIL,
  F_IPCENT,
  F_SIZE,
  F_USED,
  F_AVAIL,
  F_PCENT,
  F_FILE,
  F_TARGET,
  F_NFIELDS
};

static const struct {
  const char *name; /* --output name */
  const char *header;
  int width; /* GNU's minimum width */
  bool left;
} df_fields[F_NFIELDS] = {
    {"source", "Filesystem", 14, true}, {"fstype", "Type", 4, true},
    {"itotal", "Inodes", 5, false},     {"iused", "IUsed", 5, false},
    {"iavail", "IFree", 5, false},      {"ipcent", "IUse%", 4, false},
    {"size", "Size", 5, false},         {"used", "Used", 5, false},
    {"avail", "Avail", 5, false},       {"pcent", "Use%", 4, false},
    {"file", "File", 4, true},          {"target", "Mounted on", 0, true}};

#define DF_MAX_ROWS 64

typedef struct df_opts {
  int human; /* CMD_HUMAN_* or -1 */
  uint64_t block;
  bool posix, inodes, type, output, total;
  int fields[F_NFIELDS];
  int nfields;
} df_opts;

static void df_size(const df_opts *o, uint64_t bytes, char *buf, size_t n) {
  if (o->human >= 0)
    cmd_human(bytes, 1, o->human | CMD_HUMAN_CEIL, buf, n);
  else
    cmd_blocks_str(bytes, 1, o->block, buf, n);
}

static void df_pcent(uint64_t used, uint64_t total, char *buf, size_t n) {
  if (!total) {
    snprintf(buf, n, "-");
    return;
  }
  /* GNU: used / (used + avail), rounded up */
  uint64_t p = (used * 100 + total - 1) / total;
  snprintf(buf, n, "%llu%%", (unsigned long long)p);
}

static const char *size_header(cmd_ctx *ctx, const df_opts *o) {
  if (o->human >= 0) return "Size";
  char *h = cmd_alloc(ctx, 48);
  if (!h) return "Size";
  if (o->posix && (o->block == 1024 || o->block == 512))
    snprintf(h, 48, "%llu-blocks", (unsigned long long)o->block);
  else if (o->block % (1024ull * 1024 * 1024) == 0)
    snprintf(h, 48, "%lluG-blocks", (unsigned long long)(o->block >> 30));
  else if (o->block % (1024 * 1024) == 0)
    snprintf(h, 48, "%lluM-blocks", (unsigned long long)(o->block >> 20));
  else if (o->block % 1024 == 0)
    snprintf(h, 48, "%lluK-blocks", (unsigned long long)(o->block >> 10));
  else
    snprintf(h, 48, "%llu-blocks", (unsigned long long)o->block);
  return h;
}

static const char df_usage[] =
    "Usage: df [OPTION]... [FILE]...\n"
    "Show information about the file system on which each FILE resides,\n"
    "or all file systems by default.\n\n"
    "  -B, --block-size=SIZE  scale sizes by SIZE before printing them\n"
    "  -h, --human-readable  print sizes in powers of 1024 (e.g., 1023M)\n"
    "  -H, --si              print sizes in powers of 1000 (e.g., 1.1G)\n"
    "  -i, --inodes          list inode information instead of block usage\n"
    "  -k                    like --block-size=1K\n"
    "      --output[=FIELD_LIST]  use the output format defined by FIELD_LIST\n"
    "  -P, --portability     use the POSIX output format\n"
    "      --total           elide all entries insignificant to available space,\n"
    "                          and produce a grand total\n"
    "  -T, --print-type      print file system type\n"
    "(the sandbox is one file system, sized by its quotas)\n";

int cmd_df_main(cmd_ctx *ctx, int argc, char **argv) {
  enum { O_OUTPUT = CMD_OPT_LONG, O_TOTAL };
  static const char spec[] =
      "(output)::(total)(sync)(no-sync)(help)(version)h(human-readable)H(si)"
      "B:(block-size)i(inodes)P(portability)T(print-type)a(all)l(local)t:(type)"
      "x:(exclude-type)kv";
  df_opts o = {.human = -1, .block = 1024};
  bool excluded = false, type_given = false, type_match = false;
  cmd_getopt_state g = CMD_GETOPT_INIT;
  const char *bs = cmd_getenv(ctx, "DF_BLOCK_SIZE");
  if (!bs) bs = cmd_getenv(ctx, "BLOCK_SIZE");
  if (bs) {
    uint64_t blk;
    int h;
    if (cmd_parse_blocksize(bs, &blk, &h) == 0) o.block = blk, o.human = h;
  }
  /* The sizes: the last of -h, -H, -k and -B counts; -t and -x add up. */
  for (int c; (c = cmd_getopt(ctx, &g, argc, argv, spec, NULL)) != -1;) {
    switch (c) {
      case 'h':
        o.human = 0;
        break;
      case 'H':
        o.human = CMD_HUMAN_SI;
        break;
      case 'k':
        o.block = 1024, o.human = -1;
        break;
      case 'B': {
        uint64_t blk;
        int h;
        if (cmd_parse_blocksize(g.arg, &blk, &h) < 0) {
          cmd_errorf(ctx, "invalid --block-size argument %s", cmd_gnu_quote(ctx, g.arg));
          return 1;
        }
        o.block = blk, o.human = h;
        break;
      }
      case 't':
        type_given = true;
        if (strcmp(g.arg, "sbx") == 0) type_match = true;
        break;
      case 'x':
        if (strcmp(g.arg, "sbx") == 0) excluded = true;
        break;
      CMD_CASES_HELP_VERSION(ctx, df_usage);
      case '?': /* cmd_getopt printed the message and the hint */
        return 1;
    }
  }
  o.inodes = cmd_opt_on(&g, 'i');
  o.posix = cmd_opt_on(&g, 'P');
  o.type = cmd_opt_on(&g, 'T');
  o.output = cmd_opt_on(&g, O_OUTPUT);
  o.total = cmd_opt_on(&g, O_TOTAL);
  const char *out_list = cmd_opt_arg(&g, O_OUTPUT);
  if (o.output && (o.inodes || o.type || o.posix)) {
    cmd_errorf(ctx, "options %s and --output are mutually exclusive",
               o.inodes ? "-i"
               : o.type ? "-T"
                        : "-P");
    return cmd_usage_hint(ctx, 1);
  }
  /* the columns */
  if (o.output) {
    if (!out_list) {
      for (int i = 0; i < F_NFIELDS; i++) o.fields[o.nfields++] = i;
    } else {
      char *list = cmd_strdup(ctx, out_list);
      for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
        int k = -1;
        for (int i = 0; i < F_NFIELDS; i++)
          if (strcmp(tok, df_fields[i].name) == 0) k = i;
        if (k < 0) {
          cmd_errorf(ctx, "%s: unrecognized field", cmd_gnu_quote(ctx, tok));
          return cmd_usage_hint(ctx, 1);
        }
        for (int i = 0; i < o.nfields; i++) {
          if (o.fields[i] == k) {
            cmd_errorf(ctx, "option --output: field %s used more than once",
                       cmd_gnu_quote(ctx, tok));
            return cmd_usage_hint(ctx, 1);
          }
        }
        o.fields[o.nfields++] = k;
      }
    }
  } else {
    o.fields[o.nfields++] = F_SOURCE;
    if (o.type) o.fields[o.nfields++] = F_FSTYPE;
    if (o.inodes) {
      o.fields[o.nfields++] = F_ITOTAL, o.fields[o.nfields++] = F_IUSED;
      o.fields[o.nfields++] = F_IAVAIL, o.fields[o.nfields++] = F_IPCENT;
    } else {
      o.fields[o.nfields++] = F_SIZE, o.fields[o.nfields++] = F_USED;
      o.fields[o.nfields++] = F_AVAIL, o.fields[o.nfields++] = F_PCENT;
    }
    o.fields[o.nfields++] = F_TARGET;
  }
  /* the operands must exist */
  int status = 0, nrows = 0;
  const char *files[DF_MAX_ROWS];
  for (int i = g.ind; i < argc; i++) {
    store_stat st;
    int rc = cmd_fs_stat(ctx, argv[i], &st);
    if (rc < 0) {
      cmd_record_error(ctx, rc, argv[i]);
      cmd_errorf(ctx, "%s: %s", cmd_gnu_quotef(ctx, argv[i]), cmd_strerror(rc));
      status = 1;
      continue;
    }
    if (nrows < DF_MAX_ROWS) files[nrows++] = argv[i];
  }
  if (g.ind == argc) files[nrows++] = "-";
  if (excluded || (type_given && !type_match)) nrows = 0;
  if (nrows == 0) {
    if (status == 0) {
      cmd_errorf(ctx, "no file systems processed");
      status = 1;
    }
    return status;
  }
  store_quota q;
  store_get_quota(ctx->store, &q);
  uint64_t bytes = 0, inodes = 0;
  store_get_usage(ctx->store, &bytes, &inodes);
  /* cells: header, rows, total */
  int total_rows = nrows + 1 + (o.total ? 1 : 0);
  char *(*cell)[F_NFIELDS] = cmd_alloc(ctx, (size_t)total_rows * sizeof *cell);
  if (!cell) return 1;
  for (int r = 0; r < total_rows; r++) {
    for (int k = 0; k < o.nfields; k++) {
      int f = o.fields[k];
      char buf[64] = "-";
      const char *text = buf;
      bool is_total = o.total && r == total_rows - 1;
      if (r == 0) {
        text = df_fields[f].header;
        if (f == F_SIZE && !o.output && !o.posix && o.human < 0)
          text = size_header(ctx, &o);
        if (f == F_SIZE && o.posix) text = size_header(ctx, &o);
        if (f == F_SIZE && o.output && o.human < 0) text = size_header(ctx, &o);
        if (f == F_AVAIL && !o.output && o.human < 0) text = "Available";
        if (f == F_PCENT && o.posix) text = "Capacity";
      } else {
        switch (f) {
          case F_SOURCE:
            text = is_total ? "total" : "sbx";
            break;
          case F_FSTYPE:
            text = is_total ? "-" : "sbx";
            break;
          case F_TARGET:
            text = is_total ? "-" : "/";
            break;
          case F_FILE:
            text = is_total ? "-" : files[r - 1];
            break;
          case F_SIZE:
            if (q.max_bytes) df_size(&o, q.max_bytes, buf, sizeof buf);
            break;
          case F_USED:
            df_size(&o, bytes, buf, sizeof buf);
            break;
          case F_AVAIL:
            if (q.max_bytes)
              df_size(&o, q.max_bytes > bytes ? q.max_bytes - bytes : 0, buf, sizeof buf);
            break;
          case F_PCENT:
            if (q.max_bytes) df_pcent(bytes, q.max_bytes, buf, sizeof buf);
            break;
          case F_ITOTAL:
            if (q.max_inodes)
              snprintf(buf, sizeof buf, "%llu", (unsigned long long)q.max_inodes);
            break;
          case F_IUSED:
            snprintf(buf, sizeof buf, "%llu", (unsigned long long)inodes);
            break;
          case F_IAVAIL:
            if (q.max_inodes)
              snprintf(buf, sizeof buf, "%llu",
                       (unsigned long long)(q.max_inodes > inodes ? q.max_inodes - inodes
                                                                  : 0));
            break;
          case F_IPCENT:
            if (q.max_inodes) df_pcent(inodes, q.max_inodes, buf, sizeof buf);
            break;
        }
        if (o.human >= 0 && f == F_IUSED)
          cmd_human(inodes, 1, o.human | CMD_HUMAN_CEIL, buf, sizeof buf);
      }
      cell[r][k] = cmd_strdup(ctx, text);
      if (!cell[r][k]) return 1;
    }
  }
  int width[F_NFIELDS];
  for (int k = 0; k < o.nfields; k++) {
    width[k] = df_fields[o.fields[k]].width;
    for (int r = 0; r < total_rows; r++)
      if ((int)strlen(cell[r][k]) > width[k]) width[k] = (int)strlen(cell[r][k]);
  }
  for (int r = 0; r < total_rows; r++) {
    for (int k = 0; k < o.nfields; k++) {
      bool last = k == o.nfields - 1;
      if (k) cmd_outc(ctx, ' ');
      if (df_fields[o.fields[k]].left && last)
        cmd_outs(ctx, cell[r][k]);
      else if (df_fields[o.fields[k]].left)
        cmd_outf(ctx, "%-*s", width[k], cell[r][k]);
      else
        cmd_outf(ctx, "%*s", width[k], cell[r][k]);
    }
    cmd_outc(ctx, '\n');
  }
  return status;
}

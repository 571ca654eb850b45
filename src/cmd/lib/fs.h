/*
 * fs.h - filesystem helpers shared by the file commands (ls, cp, mv, rm,
 * find, du, tree, chmod, stat...): stat through the store relative to the
 * command's cwd, the sandbox's presentation of inodes (block counts, directory
 * sizes, owner names), mode strings, path joining, and an iterative tree
 * walker in the spirit of fts(3).
 *
 * Ownership: strings returned by these helpers live in the command's arena
 * (freed by the caller of the command) unless said otherwise. Stat results are
 * plain structs copied to the caller.
 */
#ifndef SBX_CMD_UTIL_FS_H
#define SBX_CMD_UTIL_FS_H

#include <stdbool.h>
#include <stdint.h>

#include "cmd/cmd.h"

/* ---- stat and presentation -------------------------------------------------- */

/*
 * The disk-usage model of the sandbox (used consistently by ls -s, stat, du
 * and find -size): a regular file occupies ceil(size / 4096) blocks of 4 KiB
 * (reported in 512-byte units like st_blocks, so 8 per 4 KiB block), as on
 * ext4; a directory is shown with size 4096 and 8 blocks whatever the store
 * records (AgentFS keeps 0); a symlink occupies no blocks (ext4's fast
 * symlinks). The I/O block size is 4096.
 */
#define CMD_FS_BLKSIZE 4096

/* stat/lstat of `path` relative to ctx->cwd, presented (see above). Return 0
 * or a negative errno. */
int cmd_fs_stat(cmd_ctx *ctx, const char *path, store_stat *st);
int cmd_fs_lstat(cmd_ctx *ctx, const char *path, store_stat *st);
/* Applies the presentation rules to a raw store_stat (idempotent). */
void cmd_fs_present(store_stat *st);
/* st_blocks in 512-byte units under the model. */
uint64_t cmd_fs_blocks(const store_stat *st);

/* The link count to show. The store keeps nlink 1 for directories (the
 * TypeScript SDK's convention); like ext4 we show 2 + the number of
 * subdirectories, counted with one readdir of the directory. Other inodes and
 * directories whose stored count is already >= 2 are shown as stored. */
uint32_t cmd_fs_nlink(cmd_ctx *ctx, const store_stat *st);

/* "drwxr-xr-x" (10 chars + NUL), with s/S/t/T for setuid/setgid/sticky. */
void cmd_fs_modestr(uint32_t mode, char out[11]);
/* "regular file", "directory", "symbolic link", "regular empty file"... as
 * GNU stat's %F. */
const char *cmd_fs_typename(const store_stat *st);

/*
 * Owner and group names. The sandbox's users come from /etc/passwd and
 * /etc/group inside the store when they exist; otherwise uid/gid 0 is "root"
 * and every other id has no name. A cmd_fs_ids is loaded once per command
 * call (arena) and answers lookups; names are NULL when the id has none (the
 * caller prints the number).
 */
typedef struct cmd_fs_ids cmd_fs_ids;
cmd_fs_ids *cmd_fs_ids_load(cmd_ctx *ctx); /* never NULL unless out of memory */
const char *cmd_fs_username(cmd_fs_ids *ids, uint32_t uid);
const char *cmd_fs_groupname(cmd_fs_ids *ids, uint32_t gid);
/* Name to id ("123" numeric too); returns 0 and sets *id, or -ENOENT. */
int cmd_fs_userid(cmd_fs_ids *ids, const char *name, uint32_t *id);
int cmd_fs_groupid(cmd_fs_ids *ids, const char *name, uint32_t *id);
/* The groups a user belongs to (primary first); returns the count (<= max). */
int cmd_fs_user_groups(cmd_fs_ids *ids, const char *user, uint32_t gid,
                       uint32_t *out, int max);
/* The sandbox's own identity (uid 0 "root", gid 0 "root": the store's default
 * credentials; see id.c). */
#define CMD_FS_UID 0
#define CMD_FS_GID 0

/* The stat of an operand of chmod or chown (of its target, or with
 * `follow` false of the link itself): on failure GNU's "cannot access X:
 * why" unless `silent` (-f), the error recorded either way. Returns 0 or a
 * negative errno. */
int cmd_fs_stat_operand(cmd_ctx *ctx, const char *path, bool follow, bool silent,
                        store_stat *st);
/* The stat of --reference=RFILE (chmod, chown, touch; `follow` false: of
 * the link itself): on failure GNU's "failed to get attributes of X: why".
 * Returns 0 or a negative errno (not recorded: touch records it, chmod and
 * chown do not). */
int cmd_fs_stat_reference(cmd_ctx *ctx, const char *ref, bool follow, store_stat *st);

/* ---- paths ------------------------------------------------------------------- */

/* The last component as basename(1) would print it, and dirname(1)'s result.
 * Arena strings. */
char *cmd_fs_basename(cmd_ctx *ctx, const char *path);
char *cmd_fs_dirname(cmd_ctx *ctx, const char *path);
/* Canonical absolute path like gnulib's canonicalize_filename_mode, resolving
 * symlinks component by component: CMD_CANON_EXISTING needs every component,
 * CMD_CANON_ALL_BUT_LAST all but the last, CMD_CANON_MISSING none (a missing
 * component is kept as text). CMD_CANON_NOLINKS resolves no symlinks (pure
 * text, with "." and ".."), CMD_CANON_LOGICAL applies ".." to the text before
 * resolving symlinks. Returns 0 and an arena string, or a negative errno. */
#define CMD_CANON_EXISTING 0
#define CMD_CANON_ALL_BUT_LAST 1
#define CMD_CANON_MISSING 2
#define CMD_CANON_NOLINKS 0x10
#define CMD_CANON_LOGICAL 0x20
int cmd_fs_canonicalize(cmd_ctx *ctx, const char *path, int mode, char **out);
/* The relative path from directory `from` to `to` (both canonical). Arena. */
char *cmd_fs_relpath(cmd_ctx *ctx, const char *to, const char *from);

/* Can the sandbox run `name` as a program? A table command, or (with a
 * slash, or found on `path_env`, NULL = "/usr/bin:/bin") a regular file in
 * the store. *where (may be NULL) gets the store path found, or "" for a
 * table command reached by name. */
bool cmd_fs_runnable(cmd_ctx *ctx, const char *name, const char *path_env);
/* Like cmd_fs_runnable for which(1): the path a lookup of `name` finds
 * (arena) or NULL. Table commands are found in the standard directories
 * /usr/bin and /bin of PATH. With `all`, calls cb for every
 * match instead and returns NULL. */
const char *cmd_fs_which(cmd_ctx *ctx, const char *name, const char *path_env, bool all,
                         void (*cb)(void *ud, const char *path), void *ud);

/* A name as file(1) and tree(1) show it: every control character (ASCII,
 * DEL, C1) and every byte of invalid UTF-8 as \ooo (the byte, or a C1
 * control's code point), printable characters as they are. Arena string
 * (the name itself when nothing needs escaping). */
const char *cmd_fs_octal_escape(cmd_ctx *ctx, const char *name);
/* Display width of n bytes as gnulib's mbsnwidth counts it in C.UTF-8:
 * wcwidth of each valid character (2 for wide ones), 0 for control
 * characters, 1 for each byte of invalid UTF-8. */
size_t cmd_fs_width(const char *s, size_t n);

/* Reads the names of directory `path` (sorted bytewise). *names is an arena
 * array of arena strings. Returns the count or a negative errno. */
int cmd_fs_listdir(cmd_ctx *ctx, const char *path, char ***names);
/* True when both stats name the same inode. */
static inline bool cmd_fs_same(const store_stat *a, const store_stat *b) {
  return a->ino == b->ino;
}

/* A set of inode numbers (open addressing, malloc'd): directories already
 * listed (ls -RL), inodes already counted (du). Zero-initialize; free with
 * cmd_fs_inoset_free. */
typedef struct cmd_fs_inoset {
  store_ino *slots; /* malloc'd table, 0 = empty slot */
  size_t n, cap;    /* members / slots (a power of two) */
} cmd_fs_inoset;
/* Adds `ino` (> 0): 1 when it was already a member, 0 when added, -ENOMEM. */
int cmd_fs_inoset_add(cmd_fs_inoset *set, store_ino ino);
/* Removes `ino`; false when it was not a member. */
bool cmd_fs_inoset_remove(cmd_fs_inoset *set, store_ino ino);
void cmd_fs_inoset_free(cmd_fs_inoset *set);

/* Copies `size` bytes of file data from inode src to inode dst (offsets 0;
 * dst should be empty), in 64 KiB chunks, polling for cancellation. Returns
 * 0 or a negative errno (-EINTR when cancelled). */
int cmd_fs_copy_data(cmd_ctx *ctx, store_ino src, store_ino dst, uint64_t size);

/* GNU filevercmp (ls -v, sort -V, tree -v): names compared with digit runs
 * as numbers and file suffixes set aside. */
int cmd_filevercmp(const char *a, const char *b);

/* ---- sizes --------------------------------------------------------------------- */

/* GNU human_readable() for -h (base 1024, suffixes K M G T P E Z Y, one decimal
 * below 10, rounded up) and --si (base 1000, "k" for kilo). `unit` is the size
 * in bytes of one count (1 for bytes, 512 for blocks...). Writes into buf. */
#define CMD_HUMAN_SI 0x01      /* powers of 1000 */
#define CMD_HUMAN_CEIL 0x02    /* round up (ls, du) rather than to nearest */
#define CMD_HUMAN_SUFFIX_B 0x04 /* append "B" after the prefix (block size "KB") */
char *cmd_human(uint64_t n, uint64_t unit, int flags, char *buf, size_t bufsz);
/* Size with a block size: ceil(n*unit / block) as a decimal number. */
char *cmd_blocks_str(uint64_t n, uint64_t unit, uint64_t block, char *buf,
                     size_t bufsz);
/*
 * Parses a GNU --block-size / size argument ("1K", "1KB", "1KiB", "M", "512",
 * "'1k" for thousands separators, "human-readable", "si"). *block gets the
 * block size, *human the CMD_HUMAN_* flags (or -1 when not human). Returns 0,
 * or -EINVAL for junk, -ERANGE for overflow.
 */
int cmd_parse_blocksize(const char *s, uint64_t *block, int *human);
/* Parses "123", "10K", "3MiB", "2KB" like gnulib's xstrtoumax with the given
 * allowed suffix letters (e.g. "bcEGkKMPTwYZ0"; '0' allows the "B"/"iB"
 * forms: KB = 1000, KiB = K = 1024). A unit alone ("K") means one unit.
 * Returns 0, -EINVAL, or -ERANGE (with *out = UINT64_MAX). */
int cmd_parse_size(const char *s, const char *suffixes, uint64_t *out);

/* ---- the tree walker ------------------------------------------------------------- */

/* What an entry returned by cmd_walk_next is. */
enum cmd_walk_info {
  CMD_WALK_F = 1,  /* not a directory (file, symlink not followed, ...) */
  CMD_WALK_D,      /* a directory, before its children */
  CMD_WALK_DP,     /* a directory, after its children (CMD_WALK_POST only) */
  CMD_WALK_DNR,    /* a directory whose entries could not be read (err set);
                      returned after its CMD_WALK_D, before its CMD_WALK_DP */
  CMD_WALK_DC,     /* a directory that is its own ancestor (loop; cycle set) */
  CMD_WALK_NS,     /* stat failed (err set); st holds only the dirent's ino
                      and mode for a name in a directory without x (EACCES),
                      else zeros (a followed symlink looping: ELOOP...) */
  CMD_WALK_SLNONE, /* a symlink whose target does not exist (ENOENT, while
                      following): st is the lstat of the link */
};

/* Walker flags. */
#define CMD_WALK_LOGICAL 0x01 /* follow every symlink (-L) */
#define CMD_WALK_COMFOLLOW 0x02 /* follow a symlink given as the root (-H) */
#define CMD_WALK_POST 0x04    /* also return directories after their children */
#define CMD_WALK_NOSTAT 0x08  /* children get only ino and mode from readdir
                                 (no getattr) unless they are directories */

typedef struct cmd_walk_ent {
  const char *path;   /* root-relative display path (walker's buffer; valid
                         until the next cmd_walk_next) */
  size_t pathlen;     /* strlen(path) */
  const char *name;   /* last component inside path */
  int depth;          /* 0 for the root */
  int info;           /* enum cmd_walk_info */
  int err;            /* negative errno for DNR / NS / SLNONE, else 0 */
  store_stat st;      /* presented stat (lstat or stat as followed) */
  bool followed;      /* st is of a symlink's target */
  int cycle_depth;    /* for CMD_WALK_DC: the depth of the ancestor it repeats */
  size_t cycle_pathlen;   /* for CMD_WALK_DC: that ancestor's path is the
                             first cycle_pathlen bytes of path */
  store_ino parent_ino;  /* inode of the containing directory (0 for roots) */
} cmd_walk_ent;

typedef struct cmd_walk cmd_walk;

/* Starts a walk at `root` (relative to ctx->cwd; borrowed for the walk). The
 * walker is malloc'd (NULL when out of memory); close it with cmd_walk_close.
 * Directories nested deeper than CMD_WALK_MAX_DEPTH are returned as
 * CMD_WALK_DNR with -ENAMETOOLONG ("File name too long": the path of
 * anything below is longer than PATH_MAX anyway) instead of being entered.
 * Everything is reached by inode from the directory above (store_readdir,
 * store_getattr), so a walk costs O(entries) store calls whatever the
 * depth; only symlinks that are followed are resolved by path. */
cmd_walk *cmd_walk_open(cmd_ctx *ctx, const char *root, int flags);
/* The next entry, or NULL at the end (or when cmd_poll says stop: then
 * cmd_walk_stopped() is true). */
cmd_walk_ent *cmd_walk_next(cmd_walk *w);
/* Do not descend into the directory just returned as CMD_WALK_D. */
void cmd_walk_skip(cmd_walk *w);
/* True when the walk ended early because cmd_poll asked to stop. */
bool cmd_walk_stopped(const cmd_walk *w);
void cmd_walk_close(cmd_walk *w);

/* A CMD_WALK_DNR or CMD_WALK_NS entry of a -R walk (chmod, chown): GNU's
 * "cannot read directory X: why" / "cannot access X: why" unless `silent`
 * (-f), and the error recorded either way. */
void cmd_walk_report(cmd_ctx *ctx, const cmd_walk_ent *e, bool silent);
/* The -R walk of chmod and chown: calls fn(ud, e) on every entry of the tree at
 * `path` (cmd_walk_open's flags) but those it cannot read or stat, which it
 * reports (cmd_walk_report). Returns 1 when any failed or the walk stopped
 * (cmd_poll), else 0. */
int cmd_walk_each(cmd_ctx *ctx, const char *path, int flags, bool silent,
                  void (*fn)(void *ud, const cmd_walk_ent *e), void *ud);
/* GNU's --preserve-root refusal of a recursive operation on `path`, which
 * is the root: prints its two messages (chmod -R, rm -r). */
void cmd_fs_refuse_root(cmd_ctx *ctx, const char *path);

/* Deepest nesting the walker enters (a clear error beyond). */
#define CMD_WALK_MAX_DEPTH 4096

/* Linux's PATH_MAX. GNU ls, cp and tree open and stat by path, so on a host
 * they fail with ENAMETOOLONG ("File name too long") on a path of this many
 * bytes or more, even though they could go deeper; those commands check
 * their paths against it to give the same output. (find, du, rm, chmod and
 * grep use fts with directory fds on the host: no such limit.) */
#define CMD_PATH_MAX 4096

/* ---- modes (chmod, mkdir -m, install -m) ------------------------------------------ */

/* One parsed clause of a symbolic or octal mode (gnulib modechange semantics). */
typedef struct cmd_mode_change {
  char op;           /* '=', '+' or '-' */
  char flag;         /* 0 ordinary, 'c' copy existing (u/g/o), 'X' x-if-any-x */
  uint32_t affected; /* who bits (0: none given, the umask applies) */
  uint32_t value;    /* permission bits */
  uint32_t mentioned;/* bits explicitly mentioned */
} cmd_mode_change;

/* Parses MODE ("755", "u+x,go-w", "a=rX", "+t"...) into an arena array ending
 * with op 0. Returns NULL for an invalid mode. */
cmd_mode_change *cmd_mode_compile(cmd_ctx *ctx, const char *mode);
/* Applies changes to `oldmode` (permission bits) like gnulib's mode_adjust.
 * *mode_bits (may be NULL) gets the bits that were explicitly set/cleared. */
uint32_t cmd_mode_adjust(uint32_t oldmode, bool dir, uint32_t umask,
                         const cmd_mode_change *changes, uint32_t *mode_bits);
/* True when no clause named who (so the umask filtered it). */
bool cmd_mode_uses_umask(const cmd_mode_change *changes);

/* ---- cp, mv, ln, install: operands and backups -------------------------------------- */

/* The operand loop of the file commands (cp, mv, rm, chmod, mkdir, rmdir):
 * calls fn(ud, operand) on each of the n operands inside one store
 * transaction (one command, one transaction) until fn returns false or
 * cmd_poll asks to stop. Returns 1 when cmd_poll stopped it (the command
 * then exits 1), else 0. */
int cmd_fs_each_operand(cmd_ctx *ctx, int n, char *const *ops,
                        bool (*fn)(void *ud, const char *operand), void *ud);

/* The destination directory of several operands ("target") or of -t
 * ("target directory") must be a directory: rc/st are its stat. Prints
 * "WHAT 'PATH': REASON" and returns 1 when it is not one, else 0. */
int cmd_fs_need_dir(cmd_ctx *ctx, const char *what, const char *path, int rc,
                    const store_stat *st);

/* One answer to an interactive question (cp, ln and mv's "overwrite?", rm's
 * "remove?", find's -ok) read as a line from stdin: true when it starts with
 * 'y' or 'Y', false for anything else, at end of input, or when stdin cannot
 * be read. *in (NULL at first) is the command's stdin reader, opened on first
 * use so that later answers come from the same buffer; the caller closes it
 * with cmd_in_close when not NULL. */
bool cmd_fs_answer_yes(cmd_ctx *ctx, cmd_in **in);

/* The operands of cp and mv split into sources and where they go, in GNU's
 * order and words: checks them (cmd_fs_check_operands), strips their
 * trailing slashes when `strip`, then settles the target. With -t,
 * *target_dir must be a directory; without -T the last operand becomes
 * *target_dir when it is a directory, and must be one when there are more
 * than two operands or with `parents` (cp --parents: "with --parents, the
 * destination must be a directory" when it is something else). Returns the
 * number of sources (the first operands of ops; with *target_dir left NULL
 * the one source goes to ops[1]), or -1 after the messages: the exit status
 * is then 1. */
int cmd_fs_split_operands(cmd_ctx *ctx, int n, char **ops, const char **target_dir,
                          bool no_target, bool strip, bool parents);

/* The kinds of backup of --backup[=CONTROL] (GNU version control). */
enum { CMD_BACKUP_NONE, CMD_BACKUP_SIMPLE, CMD_BACKUP_NUMBERED, CMD_BACKUP_EXISTING };
/* CONTROL (NULL: $VERSION_CONTROL; unset or empty: existing) as a
 * CMD_BACKUP_* kind. An unknown word gets GNU's message and list of valid
 * arguments and -1 (the caller returns cmd_usage_hint(ctx, 1)). */
int cmd_fs_backup_kind(cmd_ctx *ctx, const char *control);
/* The name the backup of existing file `dst` gets: "DST.~N~" (numbered, N
 * one more than the highest there), or DST + suffix (simple; "existing"
 * chooses numbered when a numbered backup exists). Arena; NULL when out of
 * memory. */
char *cmd_fs_backup_name(cmd_ctx *ctx, const char *dst, int kind, const char *suffix);

#endif

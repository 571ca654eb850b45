/*
 * py_probe.c - sbx_probe(): the jail's checks (src/jail/jail_probe.c) plus one
 * real Python call over the store in a temporary in-memory sandbox, then the
 * jail tier that call ran in and each guarantee that tier keeps (ok 1) or
 * loses (ok -1, "part"), packed into one block for the caller (the doctor
 * prints it). Python works here when the call works, on either tier.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "py/py_int.h"

#define PROBE_MAX 48

/* The tier of sbx_jail_info's JSON and its guarantees, as items. */
static int add_tier(jail_probe_item *it, int count, const char *info) {
  json_t *j = json_loads(info, 0, NULL);
  if (!j) return count;
  const char *tier = json_string_value(json_object_get(j, "tier"));
  const char *why = json_string_value(json_object_get(j, "why"));
  int reduced = tier && strcmp(tier, "reduced") == 0;
  jail_probe_item *p = &it[count++];
  memset(p, 0, sizeof p[0]);
  snprintf(p->name, sizeof p->name, "jail tier");
  p->ok = reduced ? -1 : 1;
  snprintf(p->detail, sizeof p->detail, "%s%s%s", reduced ? "reduced: " : "full",
           reduced && why ? why : "", "");
  if (reduced)
    snprintf(p->fix, sizeof p->fix,
             "for the full jail: allow user namespaces and /dev/fuse (docs/deploy.md)");
  static const char *const keys[2] = {"kept", "lost"};
  for (int k = 0; k < 2; k++) {
    json_t *a = json_object_get(j, keys[k]);
    for (size_t i = 0; i < json_array_size(a) && count < PROBE_MAX; i++) {
      p = &it[count++];
      memset(p, 0, sizeof p[0]);
      snprintf(p->name, sizeof p->name, "%s", k ? "  loses" : "  keeps");
      p->ok = k ? -1 : 1;
      snprintf(p->detail, sizeof p->detail, "%s", json_string_value(json_array_get(a, i)));
    }
  }
  json_decref(j);
  return count;
}

int sbx_probe(sbx_probe_item **items, size_t *n, int *jail_ok) {
  if (!items || !n || !jail_ok) return SBX_MISUSE;
  *items = NULL;
  *n = 0;
  jail_probe_item *it = calloc(PROBE_MAX, sizeof *it);
  if (!it) return SBX_NOMEM;
  int ok = 0;
  int count = jail_probe(it, PROBE_MAX - 24, &ok);
  ok = 0;
  {
    /* The whole product path: a sandbox, its FUSE root, the worker. */
    jail_probe_item *p = &it[count++];
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "python over the store");
    sbx *h = NULL;
    sbx_py_result *r = NULL;
    int rc = sbx_open(NULL, SBX_OPEN_MEMORY, &h);
    if (rc == SBX_OK) rc = sbx_write_file(h, "/data/probe.txt", "ok", 2, SBX_WRITE_MKDIRS);
    if (rc == SBX_OK)
      rc = sbx_python_exec(h, "open('/data/probe.txt').read() + str(6 * 7)", NULL, &r);
    const char *code = "open((__import__('os').environ.get('SBX_ROOT') or '') + "
                       "'/data/probe.txt').read() + str(6 * 7)";
    if (rc == SBX_OK) {
      sbx_free(r);
      r = NULL;
      rc = sbx_python_exec(h, code, NULL, &r);
    }
    if (rc == SBX_OK && r->error == SBX_PY_OK && r->repr && strcmp(r->repr, "'ok42'") == 0) {
      p->ok = 1;
      ok = 1;
      snprintf(p->detail, sizeof p->detail, "a file written by the host read in the jail (%.1f ms)",
               r->duration_ms);
    } else {
      ok = 0;
      snprintf(p->detail, sizeof p->detail, "%s",
               rc != SBX_OK ? (h ? sbx_errmsg(h) : "cannot open a sandbox")
                            : (r->error_message ? r->error_message : "unexpected result"));
      snprintf(p->fix, sizeof p->fix, "see the failing step above");
    }
    sbx_free(r);
    char *info = NULL;
    if (ok && sbx_jail_info(h, &info) == SBX_OK) count = add_tier(it, count, info);
    sbx_free(info);
    sbx_close(h);
  }
  size_t total = sizeof(sbx_probe_item) * (size_t)count;
  for (int i = 0; i < count; i++)
    total += strlen(it[i].name) + strlen(it[i].detail) + strlen(it[i].fix) + 3;
  sbx_probe_item *out = malloc(total ? total : 1);
  if (!out) {
    free(it);
    return SBX_NOMEM;
  }
  char *s = (char *)(out + count);
  for (int i = 0; i < count; i++) {
    const char *src[3] = {it[i].name, it[i].detail, it[i].fix};
    char **dst[3] = {&out[i].name, &out[i].detail, &out[i].fix};
    for (int k = 0; k < 3; k++) {
      size_t l = strlen(src[k]);
      memcpy(s, src[k], l + 1);
      *dst[k] = s;
      s += l + 1;
    }
    out[i].ok = it[i].ok;
  }
  free(it);
  *items = out;
  *n = (size_t)count;
  *jail_ok = ok;
  return SBX_OK;
}

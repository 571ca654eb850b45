/*
 * uuidgen - create a UUID (util-linux 2.38).
 *
 *   uuidgen [-r | -t | -m | -s] [-n NAMESPACE -N NAME [-x]]
 *
 * -r (the default) is a version 4 UUID from getrandom(2); -t a version 1 UUID
 * from the wall clock (100 ns ticks since 1582-10-15) with a random clock
 * sequence and a random multicast node (no MAC address is read); -m / -s a
 * version 3 / 5 UUID hashing NAMESPACE (a UUID or @dns @url @oid @x500) and
 * NAME (with -x given in hex) by MD5 / SHA-1 (OpenSSL), as RFC 4122.
 * Messages and exit status 1 on bad arguments are util-linux's.
 */
#include <openssl/evp.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "cmd/cmd.h"

CMD_DEFINE("uuidgen", cmd_uuidgen_main);

#define UUID_MAX_NAME 65536 /* bytes of a -x name */

static const struct {
  const char *alias;
  const char *uuid;
} uuid_ns[] = {{"@dns", "6ba7b810-9dad-11d1-80b4-00c04fd430c8"},
               {"@url", "6ba7b811-9dad-11d1-80b4-00c04fd430c8"},
               {"@oid", "6ba7b812-9dad-11d1-80b4-00c04fd430c8"},
               {"@x500", "6ba7b814-9dad-11d1-80b4-00c04fd430c8"}};

static int hexval(char c) {
  return c >= '0' && c <= '9'   ? c - '0'
         : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                : -1;
}

/* "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" to 16 bytes (libuuid's uuid_parse). */
static bool uuid_parse(const char *s, uint8_t out[16]) {
  if (strlen(s) != 36) return false;
  int k = 0;
  for (int i = 0; i < 36; i++) {
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (s[i] != '-') return false;
      continue;
    }
    int hi = hexval(s[i]), lo = hexval(s[i + 1]);
    if (hi < 0 || lo < 0) return false;
    out[k++] = (uint8_t)(hi << 4 | lo);
    i++;
  }
  return true;
}

static void uuid_print(cmd_ctx *ctx, const uint8_t u[16]) {
  char buf[40];
  int k = 0;
  for (int i = 0; i < 16; i++) {
    if (i == 4 || i == 6 || i == 8 || i == 10) buf[k++] = '-';
    k += snprintf(buf + k, sizeof buf - (size_t)k, "%02x", u[i]);
  }
  buf[k++] = '\n';
  cmd_out(ctx, buf, (size_t)k);
}

static int fail(cmd_ctx *ctx, const char *msg) {
  cmd_errorf(ctx, "%s", msg);
  return cmd_usage_hint(ctx, 1);
}

static bool fill_random(uint8_t *p, size_t n) {
  while (n > 0) {
    ssize_t r = getrandom(p, n, 0);
    if (r <= 0) return false;
    p += r, n -= (size_t)r;
  }
  return true;
}

int cmd_uuidgen_main(cmd_ctx *ctx, int argc, char **argv) {
  /* util-linux's order of the long names ("--h": '--help' '--hex') */
  static const char spec[] =
      "r(random)t(time)V(version)h(help)n:(namespace)N:(name)m(md5)s(sha1)x(hex)";
  char kind = 'r';
  const char *ns = NULL, *name = NULL;
  bool hex = false;
  cmd_getopt_state g = CMD_GETOPT_INIT;
  for (int c; (c = cmd_getopt(ctx, &g, argc, argv, spec, NULL)) != -1;) {
    switch (c) {
      case 'r':
      case 't':
      case 'm':
      case 's':
        kind = (char)c;
        break;
      case 'n':
        ns = g.arg;
        break;
      case 'N':
        name = g.arg;
        break;
      case 'x':
        hex = true;
        break;
      case 'h':
        cmd_outs(ctx,
                 "\nUsage:\n uuidgen [options]\n\nCreate a new UUID value.\n\nOptions:\n"
                 " -r, --random        generate random-based uuid\n"
                 " -t, --time          generate time-based uuid\n"
                 " -n, --namespace ns  generate hash-based uuid in this namespace\n"
                 "                       available namespaces: @dns @url @oid @x500\n"
                 " -N, --name name     generate hash-based uuid from this name\n"
                 " -m, --md5           generate md5 hash\n"
                 " -s, --sha1          generate sha1 hash\n"
                 " -x, --hex           interpret name as hex string\n");
        return 0;
      case 'V':
        return cmd_print_version(ctx);
      default:
        return 1; /* cmd_getopt printed the message */
    }
  }
  if (ns && !name) return fail(ctx, "--namespace requires --name argument");
  if (name && !ns) return fail(ctx, "--name requires --namespace argument");
  if (ns && kind != 'm' && kind != 's')
    return fail(ctx, "--namespace requires --md5 or --sha1");
  if ((kind == 'm' || kind == 's') && !ns)
    return fail(ctx, "--md5 or --sha1 requires --namespace argument");
  uint8_t u[16];
  if (kind == 'm' || kind == 's') {
    uint8_t nsid[16];
    const char *nsu = ns;
    if (ns[0] == '@') {
      nsu = NULL;
      for (size_t i = 0; i < sizeof uuid_ns / sizeof uuid_ns[0]; i++)
        if (strcmp(ns, uuid_ns[i].alias) == 0) nsu = uuid_ns[i].uuid;
      if (!nsu) {
        cmd_errorf(ctx, "unknown namespace alias: '%s'", ns);
        return cmd_usage_hint(ctx, 1);
      }
    }
    if (!uuid_parse(nsu, nsid)) {
      cmd_errorf(ctx, "invalid uuid for namespace: '%s'", ns);
      return cmd_usage_hint(ctx, 1);
    }
    const void *data = name;
    size_t len = strlen(name);
    uint8_t *bin = NULL;
    if (hex) {
      if (len % 2 || len / 2 > UUID_MAX_NAME) return fail(ctx, "not a valid hex string");
      bin = cmd_alloc(ctx, len / 2 + 1);
      if (!bin) return 1;
      for (size_t i = 0; i < len; i += 2) {
        int hi = hexval(name[i]), lo = hexval(name[i + 1]);
        if (hi < 0 || lo < 0) return fail(ctx, "not a valid hex string");
        bin[i / 2] = (uint8_t)(hi << 4 | lo);
      }
      data = bin;
      len /= 2;
    }
    uint8_t md[EVP_MAX_MD_SIZE];
    unsigned mdlen = 0;
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    bool ok = m && EVP_DigestInit_ex(m, kind == 'm' ? EVP_md5() : EVP_sha1(), NULL) &&
              EVP_DigestUpdate(m, nsid, 16) && EVP_DigestUpdate(m, data, len) &&
              EVP_DigestFinal_ex(m, md, &mdlen);
    EVP_MD_CTX_free(m);
    if (!ok || mdlen < 16) {
      cmd_errorf(ctx, "hash failed");
      return 1;
    }
    memcpy(u, md, 16);
    u[6] = (uint8_t)((u[6] & 0x0f) | (kind == 'm' ? 0x30 : 0x50));
    u[8] = (uint8_t)((u[8] & 0x3f) | 0x80);
  } else if (kind == 't') {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    /* 100 ns intervals since the Gregorian reform */
    uint64_t t = (uint64_t)ts.tv_sec * 10000000u + (uint64_t)ts.tv_nsec / 100u +
                 0x01B21DD213814000ull;
    uint8_t rnd[8];
    if (!fill_random(rnd, sizeof rnd)) {
      cmd_errorf(ctx, "cannot get random bytes");
      return 1;
    }
    uint32_t lo = (uint32_t)t;
    uint16_t mid = (uint16_t)(t >> 32), hi = (uint16_t)((t >> 48) & 0x0fff) | 0x1000;
    u[0] = (uint8_t)(lo >> 24), u[1] = (uint8_t)(lo >> 16), u[2] = (uint8_t)(lo >> 8);
    u[3] = (uint8_t)lo, u[4] = (uint8_t)(mid >> 8), u[5] = (uint8_t)mid;
    u[6] = (uint8_t)(hi >> 8), u[7] = (uint8_t)hi;
    u[8] = (uint8_t)((rnd[0] & 0x3f) | 0x80), u[9] = rnd[1];
    memcpy(u + 10, rnd + 2, 6);
    u[10] |= 0x01; /* a random node is marked multicast (RFC 4122 4.5) */
  } else {
    if (!fill_random(u, sizeof u)) {
      cmd_errorf(ctx, "cannot get random bytes");
      return 1;
    }
    u[6] = (uint8_t)((u[6] & 0x0f) | 0x40);
    u[8] = (uint8_t)((u[8] & 0x3f) | 0x80);
  }
  uuid_print(ctx, u);
  return 0;
}

/*
 * curl, wget - present so that agents get a clear answer: the sandbox has no
 * network.
 *
 *   curl [-sSfLo FILE ...] URL...      wget [-qO FILE ...] URL...
 *
 * Any network URL fails the way a refused connection fails in the real tools,
 * with exit code 7 (curl's "Couldn't connect to server"; wget answers with the
 * same code so scripts need only one check) and a message that says why.
 * `file://` URLs are served from the sandbox's own filesystem, as curl does
 * locally. Options that take an argument are skipped over correctly so the URL
 * found is the real one; every other option is accepted and ignored.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"

CMD_DEFINE("curl", cmd_curl_main);
CMD_DEFINE("wget", cmd_curl_main);

#define NET_EXIT 7

/* Options of curl / wget that consume the next argument. */
static const char *const curl_arg_opts[] = {
    "-o", "-d", "-H", "-X", "-u", "-A", "-e", "-b", "-c", "-F", "-m", "-T", "-x", "-w",
    "-K", "-r", "-E", "-C", "-y", "-Y", "-z", "-U", "-Q", "-P", "--output", "--data",
    "--data-raw", "--data-binary", "--data-urlencode", "--header", "--request", "--user",
    "--user-agent", "--referer", "--cookie", "--cookie-jar", "--form", "--max-time",
    "--connect-timeout", "--upload-file", "--proxy", "--write-out", "--retry",
    "--config", "--range", "--cert", "--cacert", "--resolve", "--url", NULL};
static const char *const wget_arg_opts[] = {
    "-O", "-o", "-a", "-P", "-U", "-t", "-T", "-w", "-e", "-i", "-B", "-Q", "-l",
    "--output-document", "--output-file", "--append-output", "--directory-prefix",
    "--user-agent", "--tries", "--timeout", "--wait", "--header", "--post-data",
    "--post-file", "--user", "--password", "--input-file", "--execute", NULL};

static bool takes_arg(const char *const *list, const char *a) {
  for (; *list; list++)
    if (strcmp(*list, a) == 0) return true;
  return false;
}

/* Splits "scheme://host[:port]/..." into host and port for the message. */
static void url_host_port(const char *url, char *host, size_t hostsz, int *port) {
  const char *p = strstr(url, "://");
  bool https = strncmp(url, "https", 5) == 0;
  p = p ? p + 3 : url;
  const char *at = strpbrk(p, "@/?#");
  if (at && *at == '@') p = at + 1;
  size_t n = strcspn(p, ":/?#");
  if (n >= hostsz) n = hostsz - 1;
  memcpy(host, p, n);
  host[n] = '\0';
  *port = https ? 443 : 80;
  if (p[n] == ':') *port = atoi(p + n + 1);
}

static int serve_file_url(cmd_ctx *ctx, const char *url, bool quiet) {
  const char *path = url + 7; /* after "file://" */
  if (strncmp(path, "localhost/", 10) == 0) path += 9;
  cmd_in *in;
  int rc = cmd_in_open(ctx, path, &in);
  if (rc < 0) {
    if (!quiet)
      cmd_err_raw(ctx, "curl: (37) Couldn't open file %s\n", path);
    return 37;
  }
  char buf[65536];
  ssize_t r;
  while ((r = cmd_in_read(in, buf, sizeof buf)) > 0)
    if (cmd_out(ctx, buf, (size_t)r) < 0) break;
  cmd_in_close(in);
  return r < 0 ? 37 : 0;
}

int cmd_curl_main(cmd_ctx *ctx, int argc, char **argv) {
  bool wget = strstr(ctx->name, "wget") != NULL;
  bool silent = false, show_error = false;
  const char *url = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      cmd_outf(ctx,
               "Usage: %s [options...] <url>\n"
               "This sandbox has no network: every http(s)/ftp URL fails with exit code %d.\n"
               "file:// URLs read the sandbox's own files.\n",
               wget ? "wget" : "curl", NET_EXIT);
      return 0;
    }
    if (strcmp(a, "--version") == 0 || strcmp(a, "-V") == 0) {
      cmd_outf(ctx, "%s (sbx) 1.0 (no network)\n", wget ? "wget" : "curl");
      return 0;
    }
    if (a[0] == '-' && a[1]) {
      if (takes_arg(wget ? wget_arg_opts : curl_arg_opts, a)) {
        if (strcmp(a, "--url") == 0 && i + 1 < argc) url = argv[i + 1];
        i++;
        continue;
      }
      if (!wget && a[1] != '-') {
        if (strchr(a, 's')) silent = true;
        if (strchr(a, 'S')) show_error = true;
      }
      if (wget && (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0)) silent = true;
      if (strcmp(a, "--silent") == 0) silent = true;
      if (strcmp(a, "--show-error") == 0) show_error = true;
      continue;
    }
    if (!url) url = a;
  }
  bool quiet = silent && !show_error;
  if (!url) {
    if (wget) {
      cmd_err_raw(ctx, "wget: missing URL\nUsage: wget [OPTION]... [URL]...\n");
      return 1;
    }
    cmd_err_raw(ctx, "curl: no URL specified!\n");
    return 2;
  }
  if (strncmp(url, "file://", 7) == 0) return serve_file_url(ctx, url, quiet);

  char host[256];
  int port;
  url_host_port(url, host, sizeof host, &port);
  if (wget) {
    if (!silent)
      cmd_err_raw(ctx,
                  "Connecting to %s:%d... failed: Network is unreachable "
                  "(this sandbox has no network).\n",
                  host, port);
  } else if (!quiet) {
    cmd_err_raw(ctx,
                "curl: (7) Failed to connect to %s port %d: Network is unreachable "
                "(this sandbox has no network)\n",
                host, port);
  }
  cmd_record_error(ctx, ENETUNREACH, url);
  return NET_EXIT;
}

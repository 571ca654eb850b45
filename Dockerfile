# Dockerfile - sbx (the CLI, the C library, the Python package and the Python
# jail's worker) on Debian 12. Run it with the flags of docs/deploy.md:
#   docker build -t sbx .
#   docker run --rm --device /dev/fuse --security-opt seccomp=deploy/seccomp-sbx.json \
#     --security-opt systempaths=unconfined sbx sbx doctor
# Without them Python still runs, in the reduced jail tier (docs/python.md).
FROM debian:12 AS build
RUN apt-get update && apt-get install -y --no-install-recommends \
      build-essential pkg-config libsqlite3-dev libjansson-dev libedit-dev libpcre2-dev \
      zlib1g-dev libarchive-dev libssl-dev libyaml-dev libfuse3-dev libseccomp-dev \
      python3 python3-dev \
 && rm -rf /var/lib/apt/lists/*
COPY . /src
WORKDIR /src
RUN make -j"$(nproc)" B=build build/sbx build/sbx-pyworker python-package

FROM debian:12
RUN apt-get update && apt-get install -y --no-install-recommends \
      python3.11 libsqlite3-0 libjansson4 libedit2 libpcre2-8-0 zlib1g libarchive13 libssl3 \
      libyaml-0-2 libfuse3-3 libseccomp2 python3-numpy \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /src/build/sbx /usr/local/bin/sbx
COPY --from=build /src/build/sbx-pyworker /usr/local/libexec/sbx/sbx-pyworker
COPY --from=build /src/build/python/localsandbox /usr/local/lib/python3.11/dist-packages/localsandbox
# An unprivileged user: the full jail needs no capability (it makes a user
# namespace of its own), the reduced tier none either.
RUN useradd --create-home --uid 1000 agent
USER 1000
WORKDIR /home/agent
CMD ["sbx", "doctor"]

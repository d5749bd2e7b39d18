# cuda-access-lint in a small image: built on Debian with its LLVM 22
# packages, installed from the .deb into a slim runtime image (no build
# tree, no compilers beyond what the .deb depends on).
#
#   docker build -t cuda-access-lint .
#   docker run --rm -v "$PWD:/src" -w /src cuda-access-lint -p build
#
# Mount a CUDA toolkit and pass --cuda-path=/cuda to parse with it; without
# one the tool parses on its built-in CUDA prelude.
ARG DEBIAN=bookworm

FROM debian:${DEBIAN} AS build
WORKDIR /src
COPY . /src
# What CI runs (./run-tests.sh starts with it): packages, configure, build.
RUN CAL_BUILD_DIR=/build ./tools/bootstrap.sh
# What the install test runs: the .deb.
RUN ./tools/package-deb.sh /build /out

FROM debian:${DEBIAN}-slim
COPY --from=build /out/ /tmp/packages/
RUN apt-get update \
 && apt-get install -y --no-install-recommends /tmp/packages/cuda-access-lint_*.deb \
 && rm -rf /var/lib/apt/lists/* /tmp/packages
ENTRYPOINT ["cuda-access-lint"]

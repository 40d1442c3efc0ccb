# Builds the same image as `make image` (cmd/mkimage), for those who have a
# container engine:
#
#   docker build --build-arg VERSION=$(git describe --tags --always) \
#     --build-arg COMMIT=$(git rev-parse HEAD) --build-arg DATE=2026-11-22T20:00:00Z -t rms-portal .
#
# No engine runs on the machines where the project is built and tested, so
# this file is not exercised there; `make image` is (see the README).
FROM golang:1.26-trixie AS build
# go.mod asks for Go 1.27.3; the image's Go fetches it (the image sets
# GOTOOLCHAIN=local, which would refuse).
ENV GOTOOLCHAIN=go1.27.3
RUN apt-get update && apt-get install -y --no-install-recommends musl-tools ca-certificates \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
ARG COMMIT=
ARG DATE=
RUN make static VERSION="$VERSION" COMMIT="$COMMIT" DATE="$DATE"
# The image's small filesystem: a non-root user, writable /tmp and data.
RUN mkdir -p /out/etc/portal /out/tmp /out/var/lib/portal \
    && chmod 1777 /out/tmp && chmod 750 /out/var/lib/portal && chown 65532:65532 /out/var/lib/portal \
    && printf 'root:x:0:0:root:/root:/sbin/nologin\nportal:x:65532:65532:rms-portal:/var/lib/portal:/sbin/nologin\n' > /out/etc/passwd \
    && printf 'root:x:0:\nportal:x:65532:\n' > /out/etc/group

FROM scratch
ARG VERSION=dev
ARG COMMIT=
ARG DATE=
COPY --from=build /out/ /
COPY --from=build /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
COPY --from=build /src/build/portal /usr/bin/portal
USER 65532:65532
WORKDIR /var/lib/portal
ENV RMS_CONFIG=/etc/portal/config.yaml TMPDIR=/tmp
EXPOSE 8080
LABEL org.opencontainers.image.title="rms-portal" \
      org.opencontainers.image.source="https://github.com/edh-platform/rms-portal" \
      org.opencontainers.image.version="$VERSION" \
      org.opencontainers.image.revision="$COMMIT" \
      org.opencontainers.image.created="$DATE"
ENTRYPOINT ["/usr/bin/portal"]
CMD ["serve"]

# The two commands a new machine needs: `make run` and `make test`.
GO        ?= go
# Go 1.27.3, which the module proxy serves as a toolchain and go.mod asks
# for (Go 1.26.8 lacks fixes to net/http, crypto/tls, crypto/x509 and
# html/template): the go command fetches it once (76 MB). Set it in your
# shell too for go commands outside make.
export GOTOOLCHAIN := go1.27.3
PORT      ?= 8080
TEMPL     := $(GO) tool templ
STATICCHECK_VERSION := v0.8.2

TERRAFORM_VERSION := v1.5.7
# How many tests of a package run at once: the journeys that start their
# own portal mostly wait (for pages, processes, rounds), so more of them
# than cores keep both cores busy.
TEST_PARALLEL ?= 4

.PHONY: terraform provider vulncheck release arm64 helm check-size run test test-short bench lint generate templ css check-generated browser postgres screenshots tools musl static image helm-lint docs npm portalctl

# The build's identity, stamped into the binary (portal version, /api/v1/version,
# rms_build_info, the page footer) and the image's labels. The date is the
# commit's, so that the same commit builds the same image.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT  ?= $(shell git rev-parse HEAD 2>/dev/null)
DATE    ?= $(shell git log -1 --format=%cI 2>/dev/null | xargs -r date -u +%Y-%m-%dT%H:%M:%SZ -d)
VPKG    := github.com/edh-platform/rms-portal/internal/version
LDFLAGS := -X $(VPKG).version=$(VERSION) -X $(VPKG).commit=$(COMMIT) -X $(VPKG).date=$(DATE)
HELM    := $(GO) run helm.sh/helm/v3/cmd/helm@v3.22.0

## run: start the portal in dev mode on http://localhost:$(PORT) (everything embedded, demo data)
run:
	@echo "Compiling the portal (the first time takes a minute: librdkafka is linked in)..."
	PORT=$(PORT) $(GO) run ./cmd/portal dev $(ARGS)

## portalctl: build the command-line client into build/portalctl
portalctl:
	$(GO) build -ldflags '$(LDFLAGS)' -o build/portalctl ./cmd/portalctl

## test: every test, race detector on (installs Chromium, PostgreSQL's server and
## musl-tools where missing; builds the image, which one test runs, and Helm,
## which the chart's tests run, before the tests start rather than during them)
test: browser postgres npm image node_modules helm terraform
	$(GO) vet ./...
	PORTAL_IMAGE_REQUIRED=1 $(GO) test -race -count=1 -parallel $(TEST_PARALLEL) -timeout 30m ./...

## terraform: the Terraform CLI the provider's tests drive, built from the
## module proxy into build/tools (Terraform 1.5.7, MPL-licensed; a few
## minutes the first time)
terraform:
	@[ -x build/tools/terraform ] || { echo "building Terraform $(TERRAFORM_VERSION) for the provider's tests"; \
	  GOBIN=$(CURDIR)/build/tools GOFLAGS=-buildvcs=false $(GO) install github.com/hashicorp/terraform@$(TERRAFORM_VERSION); }

## provider: build the Terraform/OpenTofu provider into build/terraform-provider-portal
provider:
	$(GO) build -ldflags '$(LDFLAGS)' -o build/terraform-provider-portal ./cmd/terraform-provider-portal

## test-short: the tests without the browser
test-short:
	$(GO) test -race -count=1 -short ./...

## bench: benchmarks: the list latency suite (p50/p99 of a page under a mixed
## load at 10,000 and 100,000 topics, lists per second against /healthz, a raw
## metadata call), what one unit's flood (records too large, huge schemas,
## costly filters, tails) costs another unit's reads (p50, p99, 5xx), the
## resident memory of the static serve binary over a
## 10,000- and a 100,000-topic cluster after 10 minutes (RSS_SOAK) of a write
## per second and lists, listing a unit's topics (traces off and on), a search of the
## search box over 10,000 topics, the zone's catalog searched at 10,000 topics,
## a topic's delete impact with 100 groups, a unit's month of costs at 10,000
## topics and the zone report of 100 units, the cost collector's Metrics API requests an hour, a metrics page cold and
## warm, 1,000 consumer groups with lag, the metrics and tracing middleware, a page
## of the audit trail among a million events, a session lookup and an audit write
## on each store, migrating an empty database, what a killed cluster costs a
## serve replica for each kind of request (CPU, connection attempts), an idle
## replica over 300 environments (threads, RSS, CPU, SIGTERM to exit, the first
## request to an environment nobody used), terraform plan of a unit's 500 topics
## (ms and portal requests a plan)
bench: postgres static terraform
	SERVE_BINARY=$(CURDIR)/build/portal $(GO) test -run '^$$' -bench 'ListLatency|ServeRSS|OutageCost' -benchtime 1x -timeout 60m ./cmd/portal/
	SERVE_BINARY=$(CURDIR)/build/portal $(GO) test -run '^$$' -bench ManyEnvironments -benchtime 1x -timeout 20m ./cmd/portal/
	$(GO) test -run '^$$' -bench 'ListTopicsAPI|MetricsPage|Search' -benchmem -benchtime 2s ./cmd/portal/
	$(GO) test -run '^$$' -bench Plan500Topics -benchtime 20x ./cmd/portal/
	$(GO) test -run '^$$' -bench 'Apply500Topic(Creates|Updates)' -benchtime 3x ./cmd/portal/
	$(GO) test -run '^$$' -bench NoisyNeighbour -benchtime 1x ./cmd/portal/
	$(GO) test -run '^$$' -bench TerraformPlan500Topics -benchtime 5x ./cmd/portal/
	$(GO) test -run '^$$' -bench 'CatalogSearch|TopicImpact' -benchtime 2s ./cmd/portal/
	$(GO) test -run '^$$' -bench 'CostsMonthView|ZoneCostReport' -benchtime 20x ./cmd/portal/
	$(GO) test -run '^$$' -bench CollectorRequests -benchtime 3x ./internal/costs/
	$(GO) test -run '^$$' -bench GroupsWithLag1000 -benchtime 10x ./internal/platform/kafkaadmin/
	$(GO) test -run '^$$' -bench GroupsPageWithLagTime -benchmem -benchtime 200x ./internal/groups/
	$(GO) test -run '^$$' -bench Middleware -benchmem ./internal/telemetry/
	$(GO) test -run '^$$' -bench 'Session|Audit' -benchmem -benchtime 2000x ./internal/store/... ./internal/auth/
	$(GO) test -run '^$$' -bench Migrate -benchtime 20x ./internal/store/...

## lint: gofmt, go vet and staticcheck
lint:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "gofmt: files above need formatting"; exit 1; }
	$(GO) vet ./...
	$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) ./...

## check-size: fail when git tracks a file over 2 MB that is not on the
## allow-list (vendored front-end bundles): build output stays out
BIG_ALLOWED := static/swagger/swagger-ui-bundle.js
check-size:
	@big=$$(git ls-files -z | xargs -0 -r stat -c '%s %n' | awk '$$1 > 2097152 {print $$2}' | grep -vxF '$(BIG_ALLOWED)' || true); \
	  if [ -n "$$big" ]; then echo "tracked files over 2 MB (build output does not belong in the repository):"; echo "$$big"; exit 1; fi

## generate: regenerate templ components and the compiled CSS (both are committed)
generate: templ css

templ:
	$(TEMPL) generate -log-level error

css: node_modules
	npx --no-install tailwindcss -c tailwind.config.js -i views/styles.css -o static/css/app.css --minify

node_modules: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch node_modules

## check-generated: fail when generated files differ from what is committed
check-generated: generate
	@test -z "$$(git status --porcelain -- '*_templ.go' static/css)" || { git status --short -- '*_templ.go' static/css; echo "generated files are stale: run 'make generate' and commit"; exit 1; }

## browser: make sure Chromium is installed for the browser tests
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || { \
	  if command -v apt-get >/dev/null 2>&1; then \
	    echo "installing Chromium for the browser tests"; \
	    SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	    $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends chromium >/dev/null; \
	  else \
	    echo "the browser tests need Chromium: install the chromium package (or put chromium on PATH)"; exit 1; \
	  fi; }

## postgres: make sure PostgreSQL's server binaries are installed for the store tests
## (the tests start a throwaway server themselves; TEST_DATABASE_URL points them at another)
## npm: Node.js's npm, for the CSS build and the accessibility test (axe-core)
npm:
	@command -v npm >/dev/null 2>&1 || { \
	  if command -v apt-get >/dev/null 2>&1; then \
	    echo "installing npm for the accessibility test"; \
	    SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	    $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends npm >/dev/null; \
	  else \
	    echo "the accessibility test needs npm (Node.js): install it"; exit 1; \
	  fi; }

postgres:
	@[ -n "$$TEST_DATABASE_URL" ] || command -v pg_ctl >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || { \
	  if command -v apt-get >/dev/null 2>&1; then \
	    echo "installing PostgreSQL's server for the store tests"; \
	    SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	    $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends postgresql >/dev/null; \
	  else \
	    echo "the store tests need PostgreSQL's server binaries (initdb, pg_ctl), or TEST_DATABASE_URL"; exit 1; \
	  fi; }

## static: a fully static binary (musl, bundled librdkafka) in build/portal
static: musl
	CGO_ENABLED=1 CC=musl-gcc $(GO) build -tags musl,nodev -trimpath \
	  -ldflags '$(LDFLAGS) -s -w -linkmode external -extldflags "-static"' -o build/portal ./cmd/portal

## image: the container image, without a container engine: build/image/oci (OCI
## layout) and build/image/portal-image.tar (docker load / podman load)
image: static
	$(GO) run ./cmd/mkimage --binary build/portal --out build/image \
	  --version '$(VERSION)' --commit '$(COMMIT)' --date '$(DATE)'

## release: VERSION=vX.Y.Z, from that tag (RELEASE_UNTAGGED=1 builds from any
## commit, as CI does to keep the release buildable): in build/release the
## portal's static binaries (linux/amd64, and linux/arm64 with Debian's
## aarch64 cross compiler and arm64 musl, which `make arm64` installs),
## portalctl for Linux, macOS and Windows on amd64 and arm64, the OCI image
## (an index of both architectures), the Helm chart with appVersion VERSION,
## a CycloneDX SBOM (cyclonedx-gomod's Go modules with hashes, licences and
## their graph, completed with librdkafka and the C libraries linked with it,
## musl and the image's CA bundle), the Terraform provider for each portalctl
## platform as a provider registry publishes it (terraform-provider/: a zip per
## platform, its manifest and SHA256SUMS) and as a filesystem mirror holds it
## (terraform-mirror/), release notes and SHA256SUMS (the OCI layout
## included); then it checks them (sums, SBOM, each binary's version, the
## arm64 one under qemu, Terraform installing the provider from the mirror)
## and scans the SBOM with osv-scanner, offline.
RELEASE_DIR := build/release
CYCLONEDX_GOMOD := $(GO) run github.com/CycloneDX/cyclonedx-gomod/cmd/cyclonedx-gomod@v1.10.0
OSV_SCANNER_VERSION := v2.2.4
OSV_SCANNER := $(GO) run github.com/google/osv-scanner/v2/cmd/osv-scanner@$(OSV_SCANNER_VERSION)
PORTALCTL_TARGETS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64
release: musl arm64 terraform
	@echo '$(VERSION)' | grep -Eq '^v[0-9]+\.[0-9]+\.[0-9]+$$' || { echo "VERSION=vX.Y.Z is required, not '$(VERSION)'"; exit 1; }
	@[ '$(VERSION)' != v0.0.0 ] || { echo "VERSION v0.0.0: Terraform never installs a provider 0.0.0; take v0.0.1 for a trial"; exit 1; }
	@[ -n "$(RELEASE_UNTAGGED)" ] || [ "$$(git describe --tags --exact-match 2>/dev/null)" = "$(VERSION)" ] || { \
	  echo "HEAD is not tagged $(VERSION): tag it (git tag $(VERSION)), or RELEASE_UNTAGGED=1 for a trial"; exit 1; }
	rm -rf $(RELEASE_DIR) && mkdir -p $(RELEASE_DIR)
	CGO_ENABLED=1 CC=musl-gcc $(GO) build -tags musl,nodev -trimpath \
	  -ldflags '$(LDFLAGS) -s -w -linkmode external -extldflags "-static"' -o $(RELEASE_DIR)/portal-linux-amd64 ./cmd/portal
	@if $(ARM64_READY); then \
	  echo "portal linux/arm64"; \
	  CGO_ENABLED=1 GOOS=linux GOARCH=arm64 CC="$(ARM64_CC)" $(GO) build -tags musl,nodev -trimpath \
	    -ldflags '$(LDFLAGS) -s -w -linkmode external -extldflags "-static"' -o $(RELEASE_DIR)/portal-linux-arm64 ./cmd/portal || exit 1; \
	else echo "no aarch64 musl toolchain here: the release has no linux/arm64 portal"; fi
	@for t in $(PORTALCTL_TARGETS); do \
	  os=$${t%/*}; arch=$${t#*/}; ext=; [ $$os = windows ] && ext=.exe; \
	  echo "portalctl $$os/$$arch"; \
	  CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -trimpath -ldflags '$(LDFLAGS) -s -w' \
	    -o $(RELEASE_DIR)/portalctl-$$os-$$arch$$ext ./cmd/portalctl || exit 1; \
	done
	@for t in $(PORTALCTL_TARGETS); do \
	  os=$${t%/*}; arch=$${t#*/}; ext=; [ $$os = windows ] && ext=.exe; \
	  echo "terraform-provider-portal $$os/$$arch"; \
	  CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -trimpath -ldflags '$(LDFLAGS) -s -w' \
	    -o build/provider/$${os}_$$arch/terraform-provider-portal$$ext ./cmd/terraform-provider-portal || exit 1; \
	done
	$(GO) run ./cmd/mkrelease provider --version '$(VERSION)' --out $(RELEASE_DIR)/terraform-provider \
	  --mirror $(RELEASE_DIR)/terraform-mirror/registry.terraform.io/edh-platform/portal \
	  $$(for t in $(PORTALCTL_TARGETS); do os=$${t%/*}; arch=$${t#*/}; ext=; [ $$os = windows ] && ext=.exe; \
	    echo "$${os}_$$arch=build/provider/$${os}_$$arch/terraform-provider-portal$$ext"; done)
	$(GO) run ./cmd/mkimage --binary $(RELEASE_DIR)/portal-linux-amd64 --out $(RELEASE_DIR)/image \
	  $$( [ -f $(RELEASE_DIR)/portal-linux-arm64 ] && echo --binary-arm64 $(RELEASE_DIR)/portal-linux-arm64 ) \
	  --version '$(VERSION)' --commit '$(COMMIT)' --date '$(DATE)'
	mv $(RELEASE_DIR)/image/portal-image.tar $(RELEASE_DIR)/portal-image-$(VERSION)-linux-amd64.tar
	@if [ -f $(RELEASE_DIR)/image/portal-image-arm64.tar ]; then \
	  mv $(RELEASE_DIR)/image/portal-image-arm64.tar $(RELEASE_DIR)/portal-image-$(VERSION)-linux-arm64.tar; fi
	$(HELM) package deploy/helm/portal --version '$(patsubst v%,%,$(VERSION))' --app-version '$(VERSION)' -d $(RELEASE_DIR) >/dev/null
	$(CYCLONEDX_GOMOD) bin -json -licenses -assert-licenses -std -output-version 1.5 -version '$(VERSION)' \
	  -output build/portal-gomod.cdx.json $(RELEASE_DIR)/portal-linux-amd64 2>/dev/null
	$(GO) run ./cmd/mkrelease sbom --binary $(RELEASE_DIR)/portal-linux-amd64 --gomod build/portal-gomod.cdx.json \
	  --musl "$$(dpkg-query -W -f='$${Version}' musl 2>/dev/null | sed 's/-[^-]*$$//')" \
	  --certs /etc/ssl/certs/ca-certificates.crt --certs-version "$$(dpkg-query -W -f='$${Version}' ca-certificates 2>/dev/null)" \
	  --version '$(VERSION)' --date '$(DATE)' --out $(RELEASE_DIR)/portal-$(VERSION).cdx.json
	$(GO) run ./cmd/mkrelease notes --version '$(VERSION)' --out $(RELEASE_DIR)/RELEASE_NOTES.md
	cd $(RELEASE_DIR) && find . -type f ! -name SHA256SUMS -printf '%P\n' | sort | xargs sha256sum > SHA256SUMS
	@cd $(RELEASE_DIR) && sha256sum --quiet -c SHA256SUMS
	@grep -q ' image/oci/index.json$$' $(RELEASE_DIR)/SHA256SUMS || { echo "SHA256SUMS does not cover the OCI layout"; exit 1; }
	@for c in librdkafka openssl zlib zstd musl ca-certificates; do \
	  grep -q "\"name\": \"$$c\"" $(RELEASE_DIR)/portal-$(VERSION).cdx.json || { echo "the SBOM lacks $$c"; exit 1; }; done
	@echo "scanning the release's SBOM with osv-scanner $(OSV_SCANNER_VERSION) (offline, golang.org/x/vulndb@$(VULNDB_VERSION))"
	@src=$$($(GO) mod download -json golang.org/x/vulndb@$(VULNDB_VERSION) | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$$/\1/p'); \
	  $(GO) run ./cmd/mkrelease osvdb --vulns $$src/data/osv --version - --out build/osvdb/osv-scanner
	OSV_SCANNER_LOCAL_DB_CACHE_DIRECTORY=$(CURDIR)/build/osvdb $(OSV_SCANNER) scan source --offline --offline-vulnerabilities \
	  --config osv-scanner.toml -L $(RELEASE_DIR)/portal-$(VERSION).cdx.json
	@$(RELEASE_DIR)/portal-linux-amd64 version | grep -q '^portal $(VERSION) ' || { echo "the binary does not say $(VERSION)"; exit 1; }
	@if [ -f $(RELEASE_DIR)/portal-linux-arm64 ] && command -v qemu-aarch64-static >/dev/null 2>&1; then \
	  qemu-aarch64-static $(RELEASE_DIR)/portal-linux-arm64 version | grep -q '^portal $(VERSION) ' || { echo "the arm64 binary does not say $(VERSION)"; exit 1; }; fi
	@tar -xOzf $(RELEASE_DIR)/portal-$(patsubst v%,%,$(VERSION)).tgz portal/Chart.yaml | grep -q 'appVersion: $(VERSION)' || { echo "the chart's appVersion is not $(VERSION)"; exit 1; }
	@echo "installing the provider from the release's filesystem mirror with Terraform"
	@work=$$(mktemp -d) && \
	  printf 'provider_installation {\n  filesystem_mirror {\n    path = "%s"\n  }\n}\n' "$(CURDIR)/$(RELEASE_DIR)/terraform-mirror" > $$work/cli.tfrc && \
	  printf 'terraform {\n  required_providers {\n    portal = { source = "edh-platform/portal", version = "%s" }\n  }\n}\n' "$(patsubst v%,%,$(VERSION))" > $$work/main.tf && \
	  ( cd $$work && TF_CLI_CONFIG_FILE=$$work/cli.tfrc CHECKPOINT_DISABLE=1 $(CURDIR)/build/tools/terraform init -no-color -input=false >$$work/init.log 2>&1 && \
	    TF_CLI_CONFIG_FILE=$$work/cli.tfrc CHECKPOINT_DISABLE=1 $(CURDIR)/build/tools/terraform providers schema -json | grep -q '"portal_topic"' ) || \
	  { cat $$work/init.log; echo "Terraform does not install the provider from the mirror"; rm -rf $$work; exit 1; }; rm -rf $$work
	@echo "release $(VERSION) in $(RELEASE_DIR):" && ls $(RELEASE_DIR)

## vulncheck: govulncheck over the Go vulnerability database as the module
## proxy serves it (golang.org/x/vulndb at VULNDB_VERSION: bump it to see newer
## reports), failing on a vulnerability the code reaches unless
## .govulncheck-accepted lists it with its reason
VULNDB_VERSION := v0.0.0-20261105234957-e22db6528018
GOVULNCHECK := $(GO) run golang.org/x/vuln/cmd/govulncheck@v1.9.0
VULN_DIR := build/vulndb
vulncheck:
	@mkdir -p $(VULN_DIR)
	@[ -f $(VULN_DIR)/$(VULNDB_VERSION)/index/db.json ] || { \
	  src=$$($(GO) mod download -json golang.org/x/vulndb@$(VULNDB_VERSION) | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$$/\1/p'); \
	  [ -n "$$src" ] || { echo "golang.org/x/vulndb@$(VULNDB_VERSION) is not served"; exit 1; }; \
	  rm -rf $(VULN_DIR)/$(VULNDB_VERSION) && \
	  $(GO) run golang.org/x/vulndb/cmd/indexdb@$(VULNDB_VERSION) -vulns $$src/data/osv -out $(VULN_DIR)/$(VULNDB_VERSION) || exit 1; }
	$(GOVULNCHECK) -db file://$(CURDIR)/$(VULN_DIR)/$(VULNDB_VERSION) -format json ./... > $(VULN_DIR)/findings.json
	$(GO) run ./cmd/vulngate --accepted .govulncheck-accepted $(VULN_DIR)/findings.json

## musl: make sure musl-gcc is installed for the static binary
musl:
	@command -v musl-gcc >/dev/null 2>&1 || { \
	  if command -v apt-get >/dev/null 2>&1; then \
	    echo "installing musl-tools for the static binary"; \
	    SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	    $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends musl-tools >/dev/null; \
	  else \
	    echo "the static binary needs musl-gcc: install musl-tools"; exit 1; \
	  fi; }

## arm64: try to install what the release's arm64 portal takes (Debian's
## aarch64 cross compiler, musl for arm64, and qemu to run it once); without
## those the release is amd64 only
ARM64_CC    := aarch64-linux-gnu-gcc -specs /usr/lib/aarch64-linux-musl/musl-gcc.specs
ARM64_READY := command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 && test -f /usr/lib/aarch64-linux-musl/musl-gcc.specs
arm64:
	@$(ARM64_READY) || { \
	  if command -v apt-get >/dev/null 2>&1; then \
	    echo "installing the aarch64 cross compiler, musl for arm64 and qemu-user-static for the arm64 binary"; \
	    SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	    { $$SUDO dpkg --add-architecture arm64 && $$SUDO apt-get update -qq && \
	      DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq gcc-aarch64-linux-gnu musl-dev:arm64 qemu-user-static >/dev/null; } || \
	      echo "the arm64 toolchain could not be installed: the release will be amd64 only"; \
	  fi; }

## helm: build Helm (through go run) into Go's cache: its first build takes
## minutes on two cores, better spent before the tests than during them
helm:
	$(HELM) version --short

## helm-lint: lint and render the Helm chart (Helm runs through go run)
helm-lint:
	$(HELM) lint deploy/helm/portal
	$(HELM) template portal deploy/helm/portal --kube-version 1.30.0 >/dev/null

## docs: rewrite the configuration reference in docs/operations.md from internal/config,
## the wire types' list (internal/wire/components_gen.go), the API document (api/openapi/openapi.yaml),
## whole, from the operations table (api/operations), its frame and the wire types, the documented kinds' JSON Schemas from their specs,
## the typed client's operations (client/operations_gen.go) from the API document, and
## the Terraform provider's registry pages (docs/terraform) from its schemas and examples
docs:
	$(GO) test ./internal/config -run OperationsDoc -count=1 -update
	$(GO) test ./internal/wire -run ComponentsAreGenerated -count=1 -update
	$(GO) test ./api -run '^TestHandlersAreGenerated$$' -count=1 -update
	$(GO) run ./cmd/mkapidoc api/openapi/openapi.yaml internal/document/schemas
	$(GO) test ./client -run OperationsAreGenerated -count=1 -update
	$(GO) test ./tfprovider -run RegistryDocsAreGenerated -count=1 -update

## screenshots: run the browser tests and keep screenshots of the main pages in ./screenshots
screenshots: browser
	rm -rf screenshots && mkdir -p screenshots
	SCREENSHOTS=$(CURDIR)/screenshots $(GO) test -count=1 -run Browser ./cmd/portal/
	@ls screenshots

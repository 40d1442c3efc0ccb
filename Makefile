# The two commands a new machine needs: `make run` and `make test`.
GO        ?= go
PORT      ?= 8080
TEMPL     := $(GO) tool templ
STATICCHECK_VERSION := v0.8.2

.PHONY: run test test-short bench lint generate templ css check-generated browser screenshots tools

## run: start the portal in dev mode on http://localhost:$(PORT) (everything embedded, demo data)
run:
	PORT=$(PORT) $(GO) run ./cmd/portal dev $(ARGS)

## test: every test, race detector on (installs Chromium for the browser tests where missing)
test: browser
	$(GO) vet ./...
	$(GO) test -race -count=1 -timeout 15m ./...

## test-short: the tests without the browser
test-short:
	$(GO) test -race -count=1 -short ./...

## bench: benchmarks, such as listing a unit's topics on a 10,000-topic cluster
bench:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 2s ./cmd/portal/

## lint: gofmt, go vet and staticcheck
lint:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "gofmt: files above need formatting"; exit 1; }
	$(GO) vet ./...
	$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) ./...

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

## screenshots: run the browser tests and keep screenshots of the main pages in ./screenshots
screenshots: browser
	rm -rf screenshots && mkdir -p screenshots
	SCREENSHOTS=$(CURDIR)/screenshots $(GO) test -count=1 -run Browser ./cmd/portal/
	@ls screenshots

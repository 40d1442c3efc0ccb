# The two commands a new machine needs: `make run` and `make test`.
GO        ?= go
PORT      ?= 8080
TEMPL     := $(GO) tool templ
STATICCHECK_VERSION := v0.8.2

.PHONY: run test test-short bench lint generate templ css check-generated browser postgres screenshots tools

## run: start the portal in dev mode on http://localhost:$(PORT) (everything embedded, demo data)
run:
	PORT=$(PORT) $(GO) run ./cmd/portal dev $(ARGS)

## test: every test, race detector on (installs Chromium and PostgreSQL's server where missing)
test: browser postgres
	$(GO) vet ./...
	$(GO) test -race -count=1 -timeout 15m ./...

## test-short: the tests without the browser
test-short:
	$(GO) test -race -count=1 -short ./...

## bench: benchmarks: listing a unit's topics on a 10,000-topic cluster, a session
## lookup and an audit write on each store, migrating an empty database
bench: postgres
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 2s ./cmd/portal/
	$(GO) test -run '^$$' -bench 'Session|Audit' -benchmem -benchtime 2000x ./internal/store/... ./internal/auth/
	$(GO) test -run '^$$' -bench Migrate -benchtime 20x ./internal/store/...

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

## postgres: make sure PostgreSQL's server binaries are installed for the store tests
## (the tests start a throwaway server themselves; TEST_DATABASE_URL points them at another)
postgres:
	@[ -n "$$TEST_DATABASE_URL" ] || command -v pg_ctl >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || { \
	  if command -v apt-get >/dev/null 2>&1; then \
	    echo "installing PostgreSQL's server for the store tests"; \
	    SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	    $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends postgresql >/dev/null; \
	  else \
	    echo "the store tests need PostgreSQL's server binaries (initdb, pg_ctl), or TEST_DATABASE_URL"; exit 1; \
	  fi; }

## screenshots: run the browser tests and keep screenshots of the main pages in ./screenshots
screenshots: browser
	rm -rf screenshots && mkdir -p screenshots
	SCREENSHOTS=$(CURDIR)/screenshots $(GO) test -count=1 -run Browser ./cmd/portal/
	@ls screenshots

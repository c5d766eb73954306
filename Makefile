# Build, test and lint mcpsearch.
#
# `sam build` (BuildMethod: makefile, CodeUri: .) runs `make build-<LogicalId>`
# here with ARTIFACTS_DIR set. Every function uses the same recipe: the
# bootstrap binary from ./functions/search plus an index bundle built from
# the catalog directory CATALOG_<LogicalId>. To add a function (say, another
# team's catalog), copy the SearchFunction resource in template.yaml under a
# new logical id and add one line below, e.g.
#
#	CATALOG_TeamAFunction := catalogs/team-a

CATALOG_SearchFunction := functions/search/catalog
CATALOG_PlatformFunction := functions/search/teams/platform

ARCH ?= arm64
GO ?= go
CFN_LINT ?= cfn-lint
TEMPLATE ?= template.yaml
# VERSION, if set, is stamped into bootstrap; otherwise mcpsearch package
# names the source: git describe in a checkout, else the VERSION file as
# git archive fills it in, else a digest of the tree (sam build's scratch
# copy has no .git), and says which.
VERSION ?=
# EMBED_FLAGS, if set (EMBED_FLAGS="--embed-backend bedrock --embed-model
# amazon.titan-embed-text-v2:0 --embed-region us-east-1" sam build), embeds
# every item with a hosted model too (index README, "Hosted vectors").
EMBED_FLAGS ?=
# DRAFT_MODEL, if set (DRAFT_MODEL=bedrock:anthropic.claude-3-5-haiku-20241022-v1:0
# DRAFT_REGION=us-east-1 sam build, or openai:https://HOST/v1#NAME with
# DRAFT_API_KEY_ENV naming the variable that holds the key: never the key
# itself), drafts requests for the items with none of their own and none of
# the library's into DRAFTS_DIR (default CATALOG/drafts), one reviewable
# file a server, drafting again only what changed (infra README, "Drafting
# at build"). samconfig.toml builds in source, so the drafts stay in the
# checkout; a SAM CLI that builds in a scratch copy loses them unless
# DRAFTS_DIR is an absolute path in the checkout.
DRAFT_MODEL ?=
DRAFT_API_KEY_ENV ?=
DRAFT_REGION ?=
DRAFTS_DIR ?=
DRAFT_FLAGS = $(if $(DRAFT_MODEL),--draft-model "$(DRAFT_MODEL)") $(if $(DRAFT_API_KEY_ENV),--draft-api-key-env "$(DRAFT_API_KEY_ENV)") \
	$(if $(DRAFT_REGION),--draft-region "$(DRAFT_REGION)") $(if $(DRAFTS_DIR),--drafts "$(DRAFTS_DIR)")

# The artifact (static bootstrap, index bundle, world-readable files) is
# built by `mcpsearch package`, the same code path as a manual package.
CLI_PKG := ./infra/cmd/mcpsearch

# FUNCTIONS lists the logical ids that have a CATALOG_<LogicalId>.
FUNCTIONS := $(patsubst CATALOG_%,%,$(filter CATALOG_%,$(.VARIABLES)))

.PHONY: test test-race test-deps lint clean FORCE

# A pattern rule cannot be .PHONY (make skips rule search for phony targets),
# so FORCE makes build-% run even if a file of that name exists.
build-%: FORCE
	$(if $(CATALOG_$*),,$(error no catalog for function "$*": CATALOG_$* is not defined; add "CATALOG_$* := <catalog dir>" to the Makefile (defined: $(or $(FUNCTIONS),none))))
	$(if $(ARTIFACTS_DIR),,$(error ARTIFACTS_DIR is not set; run "sam build", or "make $@ ARTIFACTS_DIR=<dir>"))
	@test -d "$(CATALOG_$*)" || { echo "make: catalog directory $(CATALOG_$*) (CATALOG_$*) does not exist" >&2; exit 1; }
	$(GO) run $(CLI_PKG) package --catalog "$(CATALOG_$*)" --out "$(ARTIFACTS_DIR)" --arch $(ARCH) --zip=false $(if $(VERSION),--version "$(VERSION)") $(EMBED_FLAGS) $(DRAFT_FLAGS)

# The README's test command. It installs the npm packages some tests drive
# (published MCP servers, other MCP clients, the playground's browser driver)
# when npm is there, runs every test, and ends with the skipped tests and
# what each needs, then "tests: N passed, N failed, N skipped".
NPM_DIRS := infra/testenv/fleet infra/testenv/interop infra/testenv/playground ext/searchclient/examples/ts

test: test-deps
	$(GO) run ./infra/cmd/testsummary ./...

# test-race runs the tests of the code that serves and crawls (the search
# protocol, the functions, the index, the crawler and its test
# environments) under the race detector (it needs cgo: gcc), after the npm
# packages of test-deps, as make test does. The measurements of infra/lab/eval
# are not serving code and are left out. Under the detector a search is
# several times slower, so a package's tests get 30 minutes rather than go
# test's default 10. RACE_SKIP leaves out the tests that run no code
# concurrently and that make test has just run: the docs' examples, which
# send their requests one at a time (and whose npx and crawls are
# processes the detector does not watch), the golden rankings (they
# took 24 and 18 minutes of a race run beside other work), and the sweeps
# that check what hundreds of searches rank, each search one after the
# other: under the detector they took 90-236 s each, 1,400 s of the race
# step's 855 s wall time on a clean clone (testsummary's slowest tests),
# while TestConcurrentSearches, TestHostedConcurrentSearches and
# TestConcurrentClients, which stay, are what searches one index from
# many goroutines.
RACE_SKIP := ^(TestDocExamples|TestGolden|TestWorstSearchesAsNamed|TestNamesUniqueAndStable|TestRulesOffSetting|TestHiddenServersRanking|TestLongTaskFindsEachStep|TestNoMatchSignalsMeasuredOnce|TestQueryIsPlainText|TestExplainMatchesBleve|TestBM25MatchesBleve)$$
RACE_PKGS = $(shell $(GO) list ./ext/... ./functions/... ./index/... ./infra/crawl/... ./infra/testenv/fleet/... ./infra/testenv/lambdaemu/...)

test-race: test-deps
	$(if $(strip $(RACE_PKGS)),,$(error no packages for the race detector: "$(GO) list" failed))
	$(GO) run ./infra/cmd/testsummary -race -count=1 -timeout 30m -skip '$(RACE_SKIP)' $(RACE_PKGS)

# test-deps runs `npm ci` in each of NPM_DIRS whose node_modules is missing
# or older than its package-lock.json. Without npm, or when npm fails, the
# tests that need those packages are skipped (under CI=true they fail).
test-deps:
	@if ! command -v npm >/dev/null 2>&1; then \
	  echo "make: npm is not installed; the tests that need Node packages will be skipped (apt-get install nodejs npm)"; \
	else for d in $(NPM_DIRS); do \
	  if [ ! $$d/node_modules/.package-lock.json -nt $$d/package-lock.json ]; then \
	    echo "npm ci --prefix $$d"; \
	    npm ci --prefix $$d --no-audit --no-fund --loglevel=error || echo "make: npm ci --prefix $$d failed; the tests that need it will be skipped"; \
	  fi; \
	done; fi

lint:
	$(GO) vet ./...
	@unformatted="$$(gofmt -l .)"; if [ -n "$$unformatted" ]; then echo "gofmt: these files need formatting:" >&2; echo "$$unformatted" >&2; exit 1; fi
	$(CFN_LINT) $(TEMPLATE)

clean:
	rm -rf .aws-sam

FORCE:
